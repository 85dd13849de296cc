import TallyCore

/// A report over several periods, computed once (``RangeReportBuilder``) and drawn by every
/// renderer: per budget (or tag) what was spent in each period and its share of what was
/// available, then the total and the average per period, and a total row.
///
/// Plain values only: amounts are exact `Money`, shares whole basis points, and every list is in
/// the order renderers show it, so they never sort or sum.
public struct RangeReport: Hashable, Sendable {
    /// What the rows are.
    public enum RowKind: String, Hashable, Sendable {
        case budget, tag
    }

    /// What a comparison sets the range against.
    public enum Baseline: String, Hashable, Sendable, CaseIterable {
        /// The range of the same length just before.
        case previous
        /// The same periods a year earlier.
        case lastYear = "last-year"

        public func range(before range: PeriodRange) -> PeriodRange {
            switch self {
            case .previous: range.previous
            case .lastYear: range.yearEarlier
            }
        }
    }

    public var kind: RowKind
    public var range: PeriodRange
    /// One per period of ``range``, with its days under the ledger's calendar.
    public var periods: [Period]
    /// Budgets ordered like ``DataAccess/budgets()``; tags by total descending, then name.
    public var rows: [Row]
    /// Every row added up; with tags as rows, each expense counted once however many tags it has.
    public var total: Row
    /// The tag every figure is narrowed to, if any.
    public var tag: String?
    /// The range the ``Row/change`` figures compare against.
    public var comparison: Comparison?
    /// What the amounts are in, from the ledger's settings; `nil` for bare numbers.
    public var currency: Currency?
    /// One per period: income, spending (every budget's, whatever the rows are narrowed to),
    /// saved, savings rate and net worth at the period's last day (``MoneyIn``).
    public var moneyIn: [MoneyIn] = []
    /// The ledger has an account (archived included): text, CSV, HTML and PNG show ``moneyIn``
    /// only then, so a ledger without accounts looks as it always did.
    public var hasAccounts = false
    /// Spending in other currencies than the ledger's over the whole range, per currency; empty when there is none.
    public var byCurrency: [CurrencySpending] = []

    public init(
        kind: RowKind, range: PeriodRange, periods: [Period], rows: [Row], total: Row, tag: String? = nil,
        comparison: Comparison? = nil
    ) {
        self.kind = kind
        self.range = range
        self.periods = periods
        self.rows = rows
        self.total = total
        self.tag = tag
        self.comparison = comparison
    }

    public struct Period: Hashable, Sendable {
        public var month: Month
        public var days: DayInterval

        public init(month: Month, days: DayInterval) {
            self.month = month
            self.days = days
        }
    }

    public struct Comparison: Hashable, Sendable {
        public var baseline: Baseline
        public var range: PeriodRange

        public init(baseline: Baseline, range: PeriodRange) {
            self.baseline = baseline
            self.range = range
        }
    }

    /// One budget, tag or the total over the range.
    public struct Row: Hashable, Sendable {
        public var name: String
        /// One per period, in order.
        public var cells: [Cell]
        public var total: Money
        /// ``total`` over the number of periods, rounded toward zero to the cent (``Money/average(of:over:)``).
        public var average: Money
        /// What was available over the range (each period's added up); `nil` for a tag, which has no limit.
        public var available: Money?
        /// `total` against `available`.
        public var share: Share?
        /// The same row over the comparison's range, when one was asked for.
        public var change: Change?

        public init(name: String, cells: [Cell], total: Money, average: Money, available: Money?, share: Share?, change: Change?) {
            self.name = name
            self.cells = cells
            self.total = total
            self.average = average
            self.available = available
            self.share = share
            self.change = change
        }

        /// The level of a period's cell, or `nil` without a limit.
        public func level(at index: Int) -> BudgetLevel? {
            cells[index].available.map { BudgetLevel(spent: cells[index].spent, limit: $0) }
        }
    }

    /// A row's figures in one period.
    public struct Cell: Hashable, Sendable {
        public var spent: Money
        /// What the budget had available in the period's view, carried-in included; `nil` for a tag.
        public var available: Money?
        public var share: Share?

        public init(spent: Money, available: Money?) {
            self.spent = spent
            self.available = available
            share = available.map { Share(spent: spent, of: $0) }
        }
    }
}
