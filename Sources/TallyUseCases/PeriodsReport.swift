import TallyCore
import TallyReports

/// `report --from --to` / `--year`: the report over time, computed once for every renderer.
public struct PeriodsReport: Sendable {
    /// Which periods: a first and last as the user named them, or a year's twelve.
    public enum Span: Hashable, Sendable {
        case months(from: PeriodChoice, to: PeriodChoice)
        case year(Int)
    }

    public var span: Span
    public var options: RangeReportBuilder.Options
    /// The day month phrases (`last`, `-3`) count from.
    public var today: Day

    public init(span: Span, options: RangeReportBuilder.Options = .init(), today: Day = Day.today()) {
        self.span = span
        self.options = options
        self.today = today
    }

    /// The range the span names under `calendar`: at most ``PeriodRange/maximumCount`` periods, first before last.
    public func range(in calendar: PeriodCalendar) throws(TallyError) -> PeriodRange {
        switch span {
        case .months(let from, let to):
            try PeriodRange(from: from.resolved(in: calendar, today: today), to: to.resolved(in: calendar, today: today))
        case .year(let year): try PeriodRange(year: year)
        }
    }

    public func run(in ledger: Ledger) throws(TallyError) -> RangeReport {
        // A span that needs no calendar is checked before the ledger is opened (or made).
        if case .year = span { _ = try range(in: .calendarMonths) }
        if case .months(.month(let from), .month(let to)) = span { _ = try PeriodRange(from: from, to: to) }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let settings = try store.settings()
            var report = try RangeReportBuilder(store: store).report(for: try range(in: settings.calendar), options: options)
            report.currency = settings.currency
            return report
        }
    }
}
