import TallyCore
import TallyReports

/// `prices NAME`: what the things named like NAME cost per unit, period by period.
public struct UnitPriceReport: Sendable {
    /// How many periods the report covers when no first period is named.
    public static let defaultLength = 12

    public var search: String
    /// `nil` for ``defaultLength`` periods up to `to`.
    public var from: PeriodChoice?
    public var to: PeriodChoice
    public var today: Day

    public init(search: String, from: PeriodChoice? = nil, to: PeriodChoice = .current, today: Day = Day.today()) {
        self.search = search
        self.from = from
        self.to = to
        self.today = today
    }

    public func run(in ledger: Ledger) throws(TallyError) -> PriceReport {
        guard !search.allSatisfy(\.isWhitespace) else { throw .emptyName(.expense) }
        if case .month(let first) = from, case .month(let last) = to { _ = try PeriodRange(from: first, to: last) }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let calendar = try store.settings().calendar
            let last = try to.resolved(in: calendar, today: today)
            let first = try from?.resolved(in: calendar, today: today) ?? last.adding(months: 1 - Self.defaultLength)
            return try PriceReportBuilder(store: store).report(matching: search, in: PeriodRange(from: first, to: last))
        }
    }
}
