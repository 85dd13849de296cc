import TallyCore

/// Everything a month's report shows, computed once and drawn by every renderer.
///
/// Plain values only: amounts are exact `Money`, shares are whole basis points, and the
/// order of every list is part of the value, so renderers never sort or sum.
public struct MonthlyReport: Hashable, Sendable {
    public var month: Month
    /// Ordered like ``DataAccess/budgets()``: by name key, then id.
    public var budgets: [BudgetLine]
    public var totals: Totals
    /// One entry per day of the month, days without expenses included.
    public var days: [DaySpending]
    /// The month's ten largest expenses by total, ties by id as the store orders them.
    public var top: [TopExpense]
    /// By amount descending, then tag.
    public var tags: [TagTotal]
    public var trend: Trend
    /// The last day the month has lived through: today in the current month, else its last day.
    /// Charts stop the spending line here instead of drawing a flat future.
    public var through: Day

    public init(
        month: Month, budgets: [BudgetLine], totals: Totals, days: [DaySpending], top: [TopExpense],
        tags: [TagTotal], trend: Trend, through: Day? = nil
    ) {
        self.month = month
        self.through = through ?? month.lastDay
        self.budgets = budgets
        self.totals = totals
        self.days = days
        self.top = top
        self.tags = tags
        self.trend = trend
    }

    /// True when the month holds no expense at all.
    public var hasNoExpenses: Bool { totals.expenseCount == 0 }

    /// One budget's figures for the month.
    public struct BudgetLine: Hashable, Sendable {
        public var id: Int64?
        public var name: String
        public var limit: Money
        public var spent: Money
        /// Negative when over budget.
        public var remaining: Money
        public var share: Share
        public var isOver: Bool
        public var expenseCount: Int

        public init(
            id: Int64?, name: String, limit: Money, spent: Money, remaining: Money, share: Share, isOver: Bool,
            expenseCount: Int
        ) {
            self.id = id
            self.name = name
            self.limit = limit
            self.spent = spent
            self.remaining = remaining
            self.share = share
            self.isOver = isOver
            self.expenseCount = expenseCount
        }

        /// The Core rule's level of this line: ok, near its limit, or over.
        public var level: BudgetLevel { BudgetLevel(spent: spent, limit: limit) }
    }

    public struct Totals: Hashable, Sendable {
        public var limit: Money
        public var spent: Money
        public var remaining: Money
        public var share: Share
        public var expenseCount: Int

        public init(limit: Money, spent: Money, remaining: Money, share: Share, expenseCount: Int) {
            self.limit = limit
            self.spent = spent
            self.remaining = remaining
            self.share = share
            self.expenseCount = expenseCount
        }

        public var isOver: Bool { level == .over }

        public var level: BudgetLevel { BudgetLevel(spent: spent, limit: limit) }
    }

    public struct DaySpending: Hashable, Sendable {
        public var day: Day
        public var spent: Money
        /// Spent from the first of the month through this day.
        public var cumulative: Money

        public init(day: Day, spent: Money, cumulative: Money) {
            self.day = day
            self.spent = spent
            self.cumulative = cumulative
        }
    }

    public struct TopExpense: Hashable, Sendable {
        public var id: Int64?
        public var name: String
        public var budgetName: String
        public var date: Day
        public var amount: Money
        public var quantity: Int64
        public var total: Money
        public var tags: [String]

        public init(
            id: Int64?, name: String, budgetName: String, date: Day, amount: Money, quantity: Int64, total: Money,
            tags: [String]
        ) {
            self.id = id
            self.name = name
            self.budgetName = budgetName
            self.date = date
            self.amount = amount
            self.quantity = quantity
            self.total = total
            self.tags = tags
        }
    }

    public struct TagTotal: Hashable, Sendable {
        public var tag: String
        public var spent: Money

        public init(tag: String, spent: Money) {
            self.tag = tag
            self.spent = spent
        }
    }

    /// Spent per budget over six months, the report's month last.
    public struct Trend: Hashable, Sendable {
        public var months: [Month]
        /// Ordered like ``MonthlyReport/budgets``; `spent` has one amount per month.
        public var budgets: [Series]
        /// All budgets together, one amount per month.
        public var totals: [Money]

        public init(months: [Month], budgets: [Series], totals: [Money]) {
            self.months = months
            self.budgets = budgets
            self.totals = totals
        }

        public struct Series: Hashable, Sendable {
            public var name: String
            public var spent: [Money]

            public init(name: String, spent: [Money]) {
                self.name = name
                self.spent = spent
            }
        }
    }
}
