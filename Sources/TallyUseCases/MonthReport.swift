import TallyCore
import TallyReports

/// `report`: the month's report value, computed once for every renderer.
public struct MonthReport: Sendable {
    /// The period; the one `today` falls in when `nil`.
    public var month: Month?
    /// The day the period has lived through, for a current period.
    public var today: Day

    public init(month: Month?, today: Day = Day.today()) {
        self.month = month
        self.today = today
    }

    public func run(in ledger: Ledger) throws(TallyError) -> MonthlyReport {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let calendar = try store.settings().calendar
            let period = month ?? calendar.period(containing: today)
            return try ReportBuilder(store: store).report(for: period, today: today)
        }
    }
}
