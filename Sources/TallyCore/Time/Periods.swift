/// How a ledger cuts time into periods: months that start on a given day of the month, so that a
/// household paid on the 25th budgets from pay day to pay day. A period is named for the month it
/// starts in: with month-start 25, period `2026-11` runs from 2026-11-25 to 2026-12-24.
public struct PeriodCalendar: Hashable, Sendable, Codable {
    /// The days a month may start on: every month has them.
    public static let monthStartDays = 1...28
    /// Calendar months: what every ledger uses until told otherwise.
    public static let calendarMonths = PeriodCalendar(validMonthStart: 1)

    public let monthStart: Int

    public init(monthStart: Int) throws(TallyError) {
        guard PeriodCalendar.monthStartDays.contains(monthStart) else { throw .invalidMonthStart(monthStart) }
        self.monthStart = monthStart
    }

    private init(validMonthStart: Int) {
        monthStart = validMonthStart
    }

    /// The days of the period named `month`.
    public func days(of month: Month) -> DayInterval {
        guard monthStart > 1 else { return month.days }
        let next = month.adding(months: 1)
        return DayInterval(
            first: Day(unchecked: month.year, month.month, monthStart),
            last: Day(unchecked: next.year, next.month, monthStart - 1))
    }

    /// The period `day` falls in.
    /// The days of the periods `months`, from the first's first to the last's last.
    public func days(of months: ClosedRange<Month>) -> DayInterval {
        DayInterval(first: days(of: months.lowerBound).first, last: days(of: months.upperBound).last)
    }

    public func period(containing day: Day) -> Month {
        let month = day.monthValue
        return day.day >= monthStart ? month : month.adding(months: -1)
    }

    /// The days of year `year`'s twelve periods.
    public func days(ofYear year: Int) -> DayInterval {
        DayInterval(
            first: days(of: Month(validYear: year, month: 1)).first, last: days(of: Month(validYear: year, month: 12)).last)
    }
}

/// How often a budget's limit renews.
public enum BudgetPeriod: String, Hashable, Sendable, CaseIterable, Codable {
    /// The limit is for each period (a month, or pay day to pay day).
    case monthly
    /// The limit is for a year's twelve periods.
    case yearly
    /// The limit is for one range of days (a trip, a renovation).
    case once
}

/// What a budget carries from one period into the next.
public enum RolloverPolicy: String, Hashable, Sendable, CaseIterable, Codable {
    /// Nothing: every period starts from its limit.
    case none
    /// What was left, never less than zero.
    case surplus
    /// What was left, and overspending as a negative amount.
    case both
}

/// A budget's limit from one period on.
public struct LimitChange: Hashable, Sendable, Codable {
    /// The period key it applies from (see ``Budget/periodKey(of:)``).
    public var from: Month
    public var limit: Money

    public init(from: Month, limit: Money) {
        self.from = from
        self.limit = limit
    }
}

/// The ledger's own settings, stored with it so everyone who uses it agrees.
public struct LedgerSettings: Hashable, Sendable, Codable {
    public var calendar: PeriodCalendar
    /// What the amounts are in, for showing them; `nil` shows bare numbers.
    public var currency: Currency?
    /// The warning level a budget added without `--warn` gets (1–100).
    public var warn: Int
    /// How many days `tally log` and `tally undo` reach back; older change sets are pruned.
    public var historyDays: Int
    /// The account an expense is paid from when it names none (`default-account`).
    public var defaultAccountID: Int64?

    /// From a day to a hundred years.
    public static let historyDaysRange = 1...36_500
    public static let defaultHistoryDays = 365

    public init(
        calendar: PeriodCalendar = .calendarMonths, currency: Currency? = nil, warn: Int = BudgetLevel.defaultWarnPercent,
        historyDays: Int = defaultHistoryDays, defaultAccountID: Int64? = nil
    ) {
        self.calendar = calendar
        self.currency = currency
        self.warn = warn
        self.historyDays = historyDays
        self.defaultAccountID = defaultAccountID
    }

    public static func checkHistoryDays(_ days: Int) throws(TallyError) {
        guard historyDaysRange.contains(days) else { throw .invalidHistoryDays(days) }
    }
}
