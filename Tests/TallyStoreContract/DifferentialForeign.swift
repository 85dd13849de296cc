import Foundation
import TallyCore

// The differential test's operations abroad: the ledger's currency, rates set by hand, expenses
// and incomes in other currencies at the table's rate or a given one, `rates reapply`, and budgets in their
// own currency, so that every store's figures in other currencies (spending by currency, a
// budget's own-currency spending, converted amounts) meet the rule after every kind of write.
// About one in five breaks a rule (a missing rate, a currency taken away under a budget).
extension Differential {
    enum ForeignOperation: CustomStringConvertible {
        case setCurrency(String?)
        case setRate(DayRate)
        case addExpense(Expense, original: CurrencyAmount, given: ExchangeRate?)
        /// Into the account "Wallet", opened by the first such income.
        case addIncome(Income, original: CurrencyAmount, given: ExchangeRate?)
        case reapply(dryRun: Bool)
        case budgetCurrency(Int64, String?)

        static let codes = ["JPY", "USD", "BHD", "EUR"]

        var description: String {
            switch self {
            case .setCurrency(let code): "setLedgerCurrency(\(code ?? "none"))"
            case .setRate(let rate): "setRate(\(rate.day) \(rate.from.code)→\(rate.to.code) \(rate.rate.plainString))"
            case .addExpense(let expense, let original, let given):
                "addForeignExpense(\(original) ×\(expense.quantity) \(expense.date) budget #\(expense.budgetID)\(given.map { " at \($0.plainString)" } ?? ""))"
            case .addIncome(let income, let original, let given):
                "addForeignIncome(\(original) \(income.date)\(given.map { " at \($0.plainString)" } ?? ""))"
            case .reapply(let dryRun): "reapplyRates(dryRun: \(dryRun))"
            case .budgetCurrency(let id, let code): "setBudgetCurrency(#\(id), \(code ?? "none"))"
            }
        }

        func apply(to store: any DataAccess) throws(TallyError) -> Answer {
            switch self {
            case .setCurrency(let code):
                var settings = try store.settings()
                settings.currency = code.map(Currency.init(storedCode:))
                _ = try store.updateSettings(settings)
                return .done
            case .setRate(let rate):
                try store.saveRates([rate])
                return .done
            case .addExpense(let expense, let original, let given):
                return .expense(try store.addExpense(try store.converting(expense, from: original, given: given).validated()))
            case .addIncome(let income, let original, let given):
                if try store.accountBook(withEntries: false).accounts.isEmpty { _ = try store.addAccount(Account(name: "Wallet", kind: .cash)) }
                return .income(try store.addIncome(try store.converting(income, from: original, given: given), toAccountNamed: "Wallet").income)
            case .reapply(let dryRun):
                let outcome = try store.reapplyRates(in: nil, dryRun: dryRun)
                return .count(outcome.changes.count * 1_000 + outcome.incomes.count)
            case .budgetCurrency(let id, let code):
                guard var budget = try store.budgets().first(where: { $0.id == id }) else { throw .budgetNotFound("#\(id)") }
                budget.currency = code.map(Currency.init(storedCode:))
                return .budget(try store.updateBudget(budget))
            }
        }

        static func random(using generator: inout SeededGenerator, current: any DataAccess) throws -> ForeignOperation {
            let budgets = try current.budgets()
            func code() -> String { codes.randomElement(using: &generator) ?? "JPY" }
            // Nothing converts into a ledger without a currency: it mostly gets one first.
            if try current.settings().currency == nil, Int.random(in: 0..<4, using: &generator) > 0 { return .setCurrency("EUR") }
            switch Int.random(in: 0..<20, using: &generator) {
            case 0:
                return .setCurrency(Int.random(in: 0..<4, using: &generator) == 0 ? nil : "EUR")
            case 1..<6:
                let from = code()
                let to = Int.random(in: 0..<4, using: &generator) == 0 ? code() : "EUR"
                let mantissa = Int64.random(in: 1...2_000_000, using: &generator)
                let rate = try ExchangeRate(mantissa: mantissa, scale: Int.random(in: 2...6, using: &generator))
                return .setRate(DayRate(day: Fixtures.day(&generator), from: Currency(storedCode: from), to: Currency(storedCode: to), rate: rate))
            case 6..<15:
                let currency = Currency(storedCode: code())
                // Up to 100,000 whole units, whatever the currency's decimals (JPY none, BHD three).
                let units = Int64.random(in: 1...(currency.code == "JPY" ? 100_000 : currency.code == "BHD" ? 100_000_000 : 10_000_000), using: &generator)
                var expense = Fixtures.expense(&generator, budgetID: budgets.randomElement(using: &generator)?.id ?? 1)
                expense.amount = Money(cents: 1)
                let given = Bool.random(using: &generator) ? try ExchangeRate(mantissa: Int64.random(in: 1...90_000, using: &generator), scale: 4) : nil
                return .addExpense(expense, original: CurrencyAmount(minorUnits: units, currency: currency), given: given)
            case 15:
                let currency = Currency(storedCode: code())
                let units = Int64.random(in: 1...(currency.code == "JPY" ? 100_000 : 10_000_000), using: &generator)
                let income = Income(name: "Fee", amount: Money(cents: 1), date: Fixtures.day(&generator), accountID: 0)
                let given = Bool.random(using: &generator) ? try ExchangeRate(mantissa: Int64.random(in: 1...90_000, using: &generator), scale: 4) : nil
                return .addIncome(income, original: CurrencyAmount(minorUnits: units, currency: currency), given: given)
            case 16..<18:
                return .reapply(dryRun: Bool.random(using: &generator))
            default:
                let id = budgets.randomElement(using: &generator)?.id ?? 99
                return .budgetCurrency(id, Int.random(in: 0..<3, using: &generator) == 0 ? nil : code())
            }
        }
    }
}
