import TallyCore

/// What the things whose name contains a word cost per unit, period by period: `tally prices`.
/// Only periods with such purchases have a line; each compares its average with the first's.
public struct PriceReport: Hashable, Sendable {
    /// The word as the user typed it.
    public var search: String
    public var range: PeriodRange
    public var lines: [Line]
    /// Every purchase of the range together; `nil` when there is none.
    public var overall: UnitPriceFigures?

    public init(search: String, range: PeriodRange, lines: [Line], overall: UnitPriceFigures?) {
        self.search = search
        self.range = range
        self.lines = lines
        self.overall = overall
    }

    public struct Line: Hashable, Sendable {
        public var month: Month
        public var days: DayInterval
        public var figures: UnitPriceFigures
        /// The average against the first line's: a personal inflation figure.
        public var change: Change

        public init(month: Month, days: DayInterval, figures: UnitPriceFigures, change: Change) {
            self.month = month
            self.days = days
            self.figures = figures
            self.change = change
        }
    }
}

/// Computes a ``PriceReport`` from the store's unit prices per day, grouped into the ledger's periods.
public struct PriceReportBuilder: Sendable {
    private let store: any DataAccess

    public init(store: any DataAccess) {
        self.store = store
    }

    public func report(matching search: String, in range: PeriodRange) throws(TallyError) -> PriceReport {
        let calendar = try store.settings().calendar
        let days = DayInterval(first: calendar.days(of: range.first).first, last: calendar.days(of: range.last).last)
        var byPeriod: [Month: UnitPriceFigures] = [:]
        for (day, figures) in try store.unitPrices(matching: search, in: days) {
            let period = calendar.period(containing: day)
            byPeriod[period] = try byPeriod[period].map { (sum: UnitPriceFigures) throws(TallyError) in try sum.adding(figures) } ?? figures
        }
        var lines: [PriceReport.Line] = []
        var overall: UnitPriceFigures?
        for month in range.months {
            guard let figures = byPeriod[month] else { continue }
            let first = lines.first?.figures.average ?? figures.average
            lines.append(PriceReport.Line(month: month, days: calendar.days(of: month), figures: figures, change: try Change(from: first, to: figures.average)))
            overall = try overall.map { (sum: UnitPriceFigures) throws(TallyError) in try sum.adding(figures) } ?? figures
        }
        return PriceReport(search: search, range: range, lines: lines, overall: overall)
    }
}
