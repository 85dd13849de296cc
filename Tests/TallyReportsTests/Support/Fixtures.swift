import Foundation
import TallyCore
import TallyInMemory
import TallyReports

/// Fixed stores for report tests: every date is spelled out, so nothing depends on today or
/// on the machine's time zone.
enum Fixtures {
    static let month = Month(unsafe: "2026-11")
    static let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_790_000_000) }

    /// Three budgets in November 2026 — one over, one near its limit, one comfortable — plus
    /// spending in earlier months for the trend and one expense in December that must not count.
    static func store() throws -> InMemoryStore {
        let store = InMemoryStore(clock: clock)
        let groceries = try store.addBudget(Budget(name: "Groceries", limit: money("400"), createdAt: clock()))
        let eatingOut = try store.addBudget(Budget(name: "Eating out", limit: money("150"), createdAt: clock()))
        let rent = try store.addBudget(Budget(name: "Rent", limit: money("1200"), createdAt: clock()))
        let expenses: [(String, String, Int64, String, Budget, [String])] = [
            ("Rent November", "1200", 1, "2026-11-01", rent, ["home"]),
            ("Supermarket", "84.20", 1, "2026-11-02", groceries, ["food"]),
            ("Farmers market", "23.50", 2, "2026-11-07", groceries, ["food", "local"]),
            ("Pizza night", "38.75", 1, "2026-11-07", eatingOut, ["food", "friends"]),
            ("Supermarket", "96.10", 1, "2026-11-14", groceries, ["food"]),
            ("Ramen", "16.50", 2, "2026-11-15", eatingOut, ["food"]),
            ("Birthday dinner", "94.00", 1, "2026-11-21", eatingOut, ["friends"]),
            ("Supermarket", "85.10", 1, "2026-11-28", groceries, ["food"]),
            ("Coffee beans", "17.50", 1, "2026-11-30", groceries, []),
            ("Rent October", "1200", 1, "2026-10-01", rent, ["home"]),
            ("Supermarket", "310.45", 1, "2026-10-12", groceries, ["food"]),
            ("Tapas", "61.00", 1, "2026-09-19", eatingOut, ["friends"]),
            ("Rent June", "1150", 1, "2026-06-01", rent, ["home"]),
            ("Rent May", "1150", 1, "2026-05-01", rent, ["home"]),
            ("Rent December", "1200", 1, "2026-12-01", rent, ["home"]),
        ]
        for (name, amount, quantity, date, budget, tags) in expenses {
            _ = try store.addExpense(
                Expense(name: name, amount: money(amount), quantity: quantity, date: Day(parsing: date),
                        budgetID: budget.id ?? 0, tags: tags, createdAt: clock())
            )
        }
        return store
    }

    /// A ledger whose months start on the 25th, so period 2026-11 runs from 25 Nov to 24 Dec, with
    /// one budget of each kind:
    /// - Groceries, monthly 400 from 2026-10, carries surplus and overspending, capped at 420: it
    ///   spent 350 in 2026-10 and carries 50 in, of which the cap leaves 420 available;
    /// - Eating out, monthly 150 from 2026-10, carries both: it spent 180 in 2026-10, carries −30
    ///   and is over at 130 spent of 120;
    /// - Holidays, yearly 2,400 from 2026: its year runs 25 Jan 2026 – 24 Jan 2027, so the report
    ///   shows 25 Jan – 24 Dec 2026, and a January 10 expense belongs to the year before;
    /// - Paris trip, once 1,000 for 1–14 Jul 2026, shown for its whole range.
    static func periodStore() throws -> InMemoryStore {
        let store = InMemoryStore(clock: clock)
        _ = try store.updateSettings(LedgerSettings(calendar: try PeriodCalendar(monthStart: 25)))
        let october = Month(unsafe: "2026-10")
        let groceries = try store.addBudget(
            Budget(name: "Groceries", limit: money("400"), rollover: .both, cap: money("420"), start: october, createdAt: clock()))
        let eatingOut = try store.addBudget(
            Budget(name: "Eating out", limit: money("150"), rollover: .both, start: october, createdAt: clock()))
        let holidays = try store.addBudget(
            Budget(name: "Holidays", limit: money("2400"), period: .yearly, start: Month(unsafe: "2026-01"), createdAt: clock()))
        let trip = try store.addBudget(
            Budget(name: "Paris trip", limit: money("1000"), period: .once,
                   range: DayInterval(first: Day(parsing: "2026-07-01"), last: Day(parsing: "2026-07-14")), createdAt: clock()))
        let expenses: [(String, String, String, Budget)] = [
            ("Supermarket", "300", "2026-10-30", groceries),
            ("Market", "50", "2026-11-20", groceries),
            ("Supermarket", "120", "2026-11-28", groceries),
            ("Bakery", "60", "2026-12-20", groceries),
            ("Christmas market", "15", "2026-12-25", groceries),
            ("Tapas", "180", "2026-11-01", eatingOut),
            ("Team dinner", "130", "2026-12-05", eatingOut),
            ("Ski pass", "100", "2026-01-10", holidays),
            ("Flights", "900", "2026-06-10", holidays),
            ("Train", "300", "2026-12-01", holidays),
            ("Hotel", "820", "2026-07-05", trip),
        ]
        for (name, amount, date, budget) in expenses {
            _ = try store.addExpense(
                Expense(name: name, amount: money(amount), date: Day(parsing: date), budgetID: budget.id ?? 0, createdAt: clock()))
        }
        return store
    }

    /// ``store()`` with four accounts, incomes and transfers, figures worked out by hand:
    /// - Checking (opening 1,000 on 2026-10-01), Savings (5,000, no opening day), Visa (credit,
    ///   200 owed from 2026-11-01) and Loan (10,000 owed from 2026-12-05);
    /// - incomes: Refund 100 on 2026-10-31, Salary 3,200 on 2026-11-01, Bonus 500 on 2026-12-01,
    ///   all to Checking;
    /// - transfers: 500 Checking → Savings on 2026-11-15, 150 Checking → Visa on 2026-11-20.
    ///
    /// At the end of November: Checking 3,650, Savings 5,500, Visa owes 50, Loan not open: net
    /// worth 9,100. October: 6,100 (Visa not open). December: −400 (Loan owes 10,000).
    static func accountsStore() throws -> InMemoryStore {
        let store = try store()
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: money("1000"), openingDate: Day(parsing: "2026-10-01"), createdAt: clock()))
        _ = try store.addAccount(Account(name: "Savings", kind: .savings, opening: money("5000"), createdAt: clock()))
        _ = try store.addAccount(Account(name: "Visa", kind: .credit, opening: money("200"), openingDate: Day(parsing: "2026-11-01"), createdAt: clock()))
        _ = try store.addAccount(Account(name: "Loan", kind: .loan, opening: money("10000"), openingDate: Day(parsing: "2026-12-05"), createdAt: clock()))
        for (name, amount, date) in [("Refund", "100", "2026-10-31"), ("Salary", "3200", "2026-11-01"), ("Bonus", "500", "2026-12-01")] {
            _ = try store.addIncome(Income(name: name, amount: money(amount), date: Day(parsing: date), accountID: 0, createdAt: clock()), toAccountNamed: "Checking")
        }
        _ = try store.addTransfer(Transfer(amount: money("500"), date: Day(parsing: "2026-11-15"), from: 0, to: 0), from: "Checking", to: "Savings")
        _ = try store.addTransfer(Transfer(amount: money("150"), date: Day(parsing: "2026-11-20"), from: 0, to: 0, name: "Card payment"), from: "Checking", to: "Visa")
        return store
    }

    /// `count` budgets with long names and a spread of shares, for layout tests.
    static func manyBudgets(_ count: Int) throws -> InMemoryStore {
        let store = InMemoryStore(clock: clock)
        for index in 0..<count {
            let name = index % 3 == 0
                ? "Budget \(index) with a very long descriptive name that cannot possibly fit on one line"
                : "Budget \(index)"
            let budget = try store.addBudget(Budget(name: name, limit: Money(cents: 10_000), createdAt: clock()))
            _ = try store.addExpense(
                Expense(name: "Expense \(index)", amount: Money(cents: Int64(index * 400 + 100)),
                        date: Day(year: 2026, month: 11, day: index % 30 + 1), budgetID: budget.id ?? 0, createdAt: clock())
            )
        }
        return store
    }

    /// Names in scripts DejaVu draws and one it does not.
    static func internationalStore() throws -> InMemoryStore {
        let store = InMemoryStore(clock: clock)
        let names = [("食費 (Tokyo)", "30000"), ("Продукты", "500"), ("مطاعم", "300"), ("Café ☕", "80")]
        for (offset, (name, limit)) in names.enumerated() {
            let budget = try store.addBudget(Budget(name: name, limit: money(limit), createdAt: clock()))
            _ = try store.addExpense(
                Expense(name: "\(name) 1", amount: Money(cents: (Int64(offset) + 1) * 7_321), date: Day(year: 2026, month: 11, day: 3 + offset * 5),
                        budgetID: budget.id ?? 0, createdAt: clock())
            )
        }
        return store
    }

    static func money(_ text: String) throws -> Money { try Money(parsing: text) }

    static func report(_ store: some DataAccess, month: Month = Fixtures.month, today: Day? = nil) throws -> MonthlyReport {
        try ReportBuilder(store: store).report(for: month, today: today)
    }
}

extension Month {
    /// For literals in tests only.
    init(unsafe text: String) {
        self = (try? Month(parsing: text)) ?? Month.current(now: Date(timeIntervalSince1970: 0), in: TimeZone(identifier: "UTC") ?? .current)
    }
}
