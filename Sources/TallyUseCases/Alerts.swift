import TallyCore

/// `check`: every budget's alert level in the current period, for cron jobs and prompts.
public struct CheckBudgets: Sendable {
    public var today: Day
    /// Report only budgets whose level rose since the last such check of the period, and
    /// remember the levels for the next one.
    public var newOnly: Bool

    public init(today: Day = Day.today(), newOnly: Bool = false) {
        self.today = today
        self.newOnly = newOnly
    }

    /// The budgets reported, ordered like `budget list`, and the exit code they call for.
    public func run(in ledger: Ledger) throws(TallyError) -> (alerts: [BudgetAlert], exitCode: Int32) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let calendar = try store.settings().calendar
            let period = calendar.period(containing: today)
            let statuses = try store.budgetStatuses(for: period)
            let paces = try store.paces(for: statuses, today: today, calendar: calendar)
            var alerts = statuses.map { status in
                let pace = paces[status.budget.id ?? 0]
                return BudgetAlert(status: status, pace: pace)
            }
            if newOnly {
                var levels: [Int64: AlertLevel] = [:]
                for alert in alerts { levels[alert.status.budget.id ?? 0] = alert.level }
                let risen = AlertLevel.risen(levels, since: try store.exchangeAlertLevels(levels, for: period))
                alerts = alerts.filter { risen.contains($0.status.budget.id ?? 0) }
            }
            return (alerts, alerts.map(\.level.exitCode).max() ?? 0)
        }
    }
}

/// `check`'s second part: each balance assertion that a later change broke (``AccountBook/brokenAssertions()``),
/// which is `check`'s highest level.
public struct CheckAssertions: Sendable {
    public init() {}

    public func run(in ledger: Ledger) throws(TallyError) -> [BrokenAssertion] {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.accountBook(withEntries: false).brokenAssertions() }
    }
}
