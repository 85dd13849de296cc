import TallyCore
import TallyReports

/// `report`: the month's report value, computed once for every renderer.
public struct MonthReport: Sendable {
    public var period: PeriodChoice
    /// The day the period has lived through, for a current period.
    public var today: Day
    /// Whether budgets over or past their warning level explain themselves (``WhyOver``), from
    /// the stores' sums per period, name and tag set (see ``ReportBuilder/report(for:today:explain:)``).
    public var explain: Bool

    /// `month` `nil` is the period `today` falls in.
    public init(month: Month?, today: Day = Day.today(), explain: Bool = true) {
        self.init(period: PeriodChoice(month), today: today, explain: explain)
    }

    public init(period: PeriodChoice, today: Day = Day.today(), explain: Bool = true) {
        self.period = period
        self.today = today
        self.explain = explain
    }

    public func run(in ledger: Ledger) throws(TallyError) -> MonthlyReport {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let settings = try store.settings()
            let period = try self.period.resolved(in: settings.calendar, today: today)
            var report = try ReportBuilder(store: store).report(for: period, today: today, explain: explain)
            report.currency = settings.currency
            // The accounts the goals name, read only when one does, as `budget list` shows them.
            let accounts = try store.goalAccounts(
                of: report.budgets.compactMap { $0.goal?.target }, through: goalDay(report.periodDays, today: today))
            for index in report.budgets.indices {
                report.budgets[index].goalAccount = report.budgets[index].goal?.target.accountID.flatMap { accounts[$0] }
            }
            return report
        }
    }
}
