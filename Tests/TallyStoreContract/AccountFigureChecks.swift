import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - What reports read of the accounts (`LedgerRows.accountFigures(for:)`)

extension StoreContract {
    /// Income within each period (transfers are not income), net worth at each period's last day
    /// (liabilities taken away, accounts not yet open left out, archived ones counted), on every
    /// store, before and after the entries change: whatever answers it (the account book today,
    /// a cache later) must give these figures.
    static func accountFiguresAreIncomeWithinAndNetWorthAtEachPeriodsEnd(_ stores: Stores) throws {
        let store = try stores.make()
        let periods = try ["2026-10", "2026-11", "2026-12"].map { try Month(parsing: $0).days }
        func figures() throws(TallyError) -> [AccountFigures] {
            try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.accountFigures(for: periods) }
        }
        #expect(try figures() == Array(repeating: AccountFigures(income: .zero, netWorth: nil, hasAccounts: false), count: 3))

        _ = try store.addAccount(Account(name: "Loan", kind: .loan, opening: money("10000"), openingDate: day("2026-12-05")))
        #expect(try figures().map(\.netWorth) == [nil, nil, Money(cents: -1_000_000)])
        #expect(try figures().allSatisfy(\.hasAccounts))

        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: money("1000"), openingDate: day("2026-10-01")))
        _ = try store.addAccount(Account(name: "Savings", kind: .savings, opening: money("5000")))
        _ = try store.addAccount(Account(name: "Visa", kind: .credit, opening: money("200"), openingDate: day("2026-11-01")))
        for (name, amount, date) in [("Refund", "100", "2026-10-31"), ("Salary", "3200", "2026-11-01"), ("Bonus", "500", "2026-12-01")] {
            _ = try store.addIncome(Income(name: name, amount: money(amount), date: day(date), accountID: 0), toAccountNamed: "Checking")
        }
        _ = try store.addTransfer(Transfer(amount: money("500"), date: day("2026-11-15"), from: 0, to: 0), from: "Checking", to: "Savings")
        _ = try store.addTransfer(Transfer(amount: money("150"), date: day("2026-11-20"), from: 0, to: 0), from: "Checking", to: "Visa")
        #expect(try figures().map(\.income) == (try ["100", "3200", "500"].map(money)))
        #expect(try figures().map(\.netWorth) == [Money(cents: 610_000), Money(cents: 910_000), Money(cents: -40_000)])

        // An archived account still counts; a removed one (with its entries) no longer does.
        var savings = try store.accountBook().account(named: "Savings")
        savings.archived = true
        _ = try store.updateAccount(savings)
        #expect(try figures().map(\.netWorth) == [Money(cents: 610_000), Money(cents: 910_000), Money(cents: -40_000)])
        _ = try store.removeAccount(named: "Checking", includingEntries: true)
        // Savings 5,000 (its transfer in went with Checking), Visa owes 200, Loan 10,000 in December.
        #expect(try figures().map(\.income) == [.zero, .zero, .zero])
        #expect(try figures().map(\.netWorth) == [Money(cents: 500_000), Money(cents: 480_000), Money(cents: -520_000)])
    }
}
