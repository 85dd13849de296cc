import Foundation
import TallyCore

// The differential test's account operations: accounts, incomes, transfers and removals, so that
// every store's balances (SQLite's and PostgreSQL's `accountDay` caches) meet the rule after
// every kind of write, expenses paid from accounts among them.
extension Differential {
    enum AccountOperation: CustomStringConvertible {
        case add(Account)
        case income(Income, account: String)
        case transfer(Transfer, from: String, to: String)
        case remove(String, includingEntries: Bool)
        case setDefault(String?)

        static let names = ["Checking", "checking", "Visa", "Savings", "Cash", "", "Nope"]

        var description: String {
            switch self {
            case .add(let account): "addAccount(\(account.name.debugDescription) \(account.kind) \(account.opening) \(account.openingDate.map { "\($0)" } ?? "-"))"
            case .income(let income, let account): "addIncome(\(income.amount) \(income.date) to \(account.debugDescription))"
            case .transfer(let transfer, let from, let to): "addTransfer(\(transfer.amount) \(transfer.date) \(from.debugDescription) → \(to.debugDescription))"
            case .remove(let name, let all): "removeAccount(\(name.debugDescription), includingEntries: \(all))"
            case .setDefault(let name): "setDefaultAccount(\(name?.debugDescription ?? "nil"))"
            }
        }

        func apply(to store: any DataAccess) throws(TallyError) -> Answer {
            switch self {
            case .add(let account): return .account(try store.addAccount(account))
            case .income(let income, let account): return .income(try store.addIncome(income, toAccountNamed: account).income)
            case .transfer(let transfer, let from, let to): return .transfer(try store.addTransfer(transfer, from: from, to: to).transfer)
            case .remove(let name, let all):
                let removed = try store.removeAccount(named: name, includingEntries: all)
                return .count(removed.entries * 1000 + removed.expenses)
            case .setDefault(let name):
                _ = try store.setDefaultAccount(named: name)
                return .done
            }
        }

        static func random(using generator: inout SeededGenerator) throws -> AccountOperation {
            let name = { (generator: inout SeededGenerator) in names.randomElement(using: &generator) ?? "" }
            let amount = { (generator: inout SeededGenerator) in
                Int.random(in: 0..<15, using: &generator) == 0 ? Money(cents: 0) : Money(cents: Int64.random(in: 1...300_000, using: &generator))
            }
            switch Int.random(in: 0..<12, using: &generator) {
            case 0..<3:
                return .add(Account(
                    name: name(&generator), kind: AccountKind.allCases.randomElement(using: &generator) ?? .cash,
                    opening: Money(cents: Int64.random(in: -50_000...50_000, using: &generator)),
                    openingDate: Bool.random(using: &generator) ? Fixtures.day(&generator) : nil))
            case 3..<7:
                return .income(
                    Income(name: Fixtures.pick(Fixtures.expenseNames, else: Fixtures.badExpenseNames, oneIn: 10, &generator),
                        amount: amount(&generator), date: Fixtures.day(&generator), accountID: 0),
                    account: name(&generator))
            case 7..<10:
                return .transfer(
                    Transfer(amount: amount(&generator), date: Fixtures.day(&generator), from: 0, to: 0), from: name(&generator),
                    to: name(&generator))
            case 10:
                return .remove(name(&generator), includingEntries: Bool.random(using: &generator))
            default:
                return .setDefault(Bool.random(using: &generator) ? name(&generator) : nil)
            }
        }
    }
}
