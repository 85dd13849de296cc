import Foundation

/// What one day's entries did to one account, as an asset counts them: incomes and transfers in
/// add, transfers out and the expenses paid from it take away. A liability counts the same
/// change the other way round (``AccountBook/balance(of:through:)``), so an account's kind can
/// change without touching a figure.
///
/// Balances are the opening balance plus these days up to a day: a few thousand rows for years
/// of a ledger, whatever its number of entries. Stores keep them as a cache with one writer
/// (SQLite's `ExpenseCaches`, PostgreSQL's `PostgresCaches`); ``sums(incomes:transfers:expenses:)``
/// is the rule the caches must equal.
public struct AccountDay: Hashable, Sendable {
    public var accountID: Int64
    public var date: Day
    /// The day's net change, in cents; may be zero while the day has entries.
    public var change: Money
    /// The day's incomes: what reports count as money in.
    public var income: Money
    /// How many entries the day has: a day stays while one does.
    public var entries: Int

    public init(accountID: Int64, date: Day, change: Money, income: Money = .zero, entries: Int) {
        self.accountID = accountID
        self.date = date
        self.change = change
        self.income = income
        self.entries = entries
    }

    /// The rule: every entry summed per account and day, ordered by account then day. Throws
    /// ``TallyError/arithmeticOverflow`` when a day's sum would.
    public static func sums(incomes: [Income], transfers: [Transfer], expenses: [Expense]) throws(TallyError) -> [AccountDay] {
        var days: [Key: (cents: Money, income: Money, count: Int)] = [:]
        func add(_ account: Int64, _ date: Day, _ change: Money, income: Money = .zero) throws(TallyError) {
            let key = Key(accountID: account, date: date)
            let sum = days[key] ?? (.zero, .zero, 0)
            days[key] = (try sum.cents + change, try sum.income + income, sum.count + 1)
        }
        for income in incomes { try add(income.accountID, income.date, income.amount, income: income.amount) }
        for transfer in transfers {
            try add(transfer.toAccountID, transfer.date, transfer.amount)
            try add(transfer.fromAccountID, transfer.date, Money(cents: -transfer.amount.cents))
        }
        for expense in expenses {
            guard let account = expense.accountID else { continue }
            try add(account, expense.date, try Money.zero - expense.spending())
        }
        return days.map {
            AccountDay(accountID: $0.key.accountID, date: $0.key.date, change: $0.value.cents, income: $0.value.income, entries: $0.value.count)
        }
            .sorted { ($0.accountID, $0.date) < ($1.accountID, $1.date) }
    }

    private struct Key: Hashable {
        var accountID: Int64
        var date: Day
    }
}
