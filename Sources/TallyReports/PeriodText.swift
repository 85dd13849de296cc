import TallyCore

/// How every renderer names a period and the days a budget's figures cover: in English, the same
/// in every locale, so golden files and images are stable.
public enum PeriodText {
    /// `25 Nov – 24 Dec 2026`; `25 Dec 2026 – 24 Jan 2027` across a new year; `14 Jul 2026` for one day.
    public static func range(_ days: DayInterval) -> String {
        guard days.first != days.last else { return "\(dayAndMonth(days.first)) \(days.first.year)" }
        if days.first.year == days.last.year {
            return "\(dayAndMonth(days.first)) – \(dayAndMonth(days.last)) \(days.last.year)"
        }
        return "\(dayAndMonth(days.first)) \(days.first.year) – \(dayAndMonth(days.last)) \(days.last.year)"
    }

    /// `25 Nov – 24 Dec`, for a title that names the year already.
    public static func rangeWithoutYear(_ days: DayInterval) -> String {
        "\(dayAndMonth(days.first)) – \(dayAndMonth(days.last))"
    }

    /// Whether `days` are exactly one calendar month (month-start 1).
    public static func isCalendarMonth(_ days: DayInterval) -> Bool {
        days.first.day == 1 && days.first.monthValue.lastDay == days.last
    }

    /// `November 2026`, or `November 2026 (25 Nov – 24 Dec)` when the period is not the calendar month.
    public static func title(_ month: Month, days: DayInterval) -> String {
        isCalendarMonth(days) ? month.longName : "\(month.longName) (\(rangeWithoutYear(days)))"
    }

    /// `2026-11`, or `2026-11 (25 Nov – 24 Dec 2026)` when the period is not the calendar month.
    public static func name(_ month: Month, days: DayInterval) -> String {
        isCalendarMonth(days) ? month.isoString : "\(month.isoString) (\(range(days)))"
    }

    /// The kind of a budget's figures, when they are not the period's own: `year to date` for a
    /// yearly budget, `once` for a once budget (its whole range); `nil` for a monthly one.
    public static func kind(_ period: BudgetPeriod) -> String? {
        switch period {
        case .monthly: nil
        case .yearly: "year to date"
        case .once: "once"
        }
    }

    /// What a budget's figures cover: `1 Nov – 30 Nov 2026`, `year to date, 1 Jan – 30 Nov 2026`,
    /// `once, 1 Jul – 14 Jul 2026`.
    public static func coverage(_ period: BudgetPeriod, days: DayInterval) -> String {
        kind(period).map { "\($0), \(range(days))" } ?? range(days)
    }

    /// The period a status is for, as `tally add` names it: `2026-03`, `2026-03 (25 Mar – 24 Apr 2026)`,
    /// `2026 to date (1 Jan – 31 Mar 2026)` for a yearly budget, `1 Jul – 14 Jul 2026` for a once budget.
    public static func viewed(_ status: BudgetStatus) -> String {
        switch status.budget.period {
        case .monthly:
            name(status.month, days: status.days)
        case .yearly: "\(status.month.year) to date (\(range(status.days)))"
        case .once: range(status.days)
        }
    }

    /// `25 Nov`.
    static func dayAndMonth(_ day: Day) -> String {
        "\(day.day) \(day.monthValue.shortName)"
    }
}
