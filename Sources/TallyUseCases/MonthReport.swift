import TallyCore
import TallyReports

/// `report`: the month's report value, computed once for every renderer.
public struct MonthReport: Sendable {
    public var month: Month
    /// The day the month has lived through, for a current month.
    public var today: Day?

    public init(month: Month, today: Day? = nil) {
        self.month = month
        self.today = today
    }

    public func run(in ledger: Ledger) throws(TallyError) -> MonthlyReport {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            try ReportBuilder(store: store).report(for: month, today: today)
        }
    }
}
