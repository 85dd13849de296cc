import TallyCore

/// Everything a period's report shows, computed once and drawn by every renderer.
///
/// Plain values only: amounts are exact `Money`, shares are whole basis points, and the
/// order of every list is part of the value, so renderers never sort or sum.
public struct MonthlyReport: Hashable, Sendable {
    /// The period reported, named for the month it starts in.
    public var month: Month
    /// The period's days under the ledger's calendar: the calendar month, or from its month-start
    /// day to the day before the next one (period `2026-11` with month-start 25: 25 Nov – 24 Dec).
    public var periodDays: DayInterval
    /// Ordered like ``DataAccess/budgets()``: by name key, then id.
    public var budgets: [BudgetLine]
    public var totals: Totals
    /// One entry per day of ``periodDays``, days without expenses included.
    public var days: [DaySpending]
    /// The period's ten largest expenses by total, ties by id as the store orders them.
    public var top: [TopExpense]
    /// By amount descending, then tag.
    public var tags: [TagTotal]
    public var trend: Trend
    /// The last day the period has lived through: today in the current period, else its last day.
    /// Charts stop the spending line here instead of drawing a flat future.
    public var through: Day
    /// What the amounts are in, from the ledger's settings; `nil` for bare numbers.
    public var currency: Currency?
    /// The budgets' paces added up, in the current period only.
    public var pace: TotalPace?
    /// Who spent what in the period (``PersonSpending/ordered(_:)``), only when more than one
    /// person appears (``PersonSpending/worthShowing(_:)``); empty otherwise.
    public var people: [PersonSpending] = []
    /// Income, spending (``Totals/spent``), saved, savings rate and net worth at the period's
    /// last day (``MoneyIn``).
    public var moneyIn: MoneyIn = .none
    /// The period's income − ``Totals/available``: positive is money no budget holds, negative
    /// means the budgets promise more than came in.
    public var unbudgeted: Money = .zero
    /// The ledger has an account (archived included): text, HTML and PNG show ``moneyIn`` and
    /// ``unbudgeted`` only then, so a ledger without accounts looks as it always did.
    public var hasAccounts = false
    /// Spending in other currencies than the ledger's, per currency; empty when there is none.
    public var byCurrency: [CurrencySpending] = []

    /// `periodDays` defaults to the calendar month `month`.
    public init(
        month: Month, periodDays: DayInterval? = nil, budgets: [BudgetLine], totals: Totals, days: [DaySpending],
        top: [TopExpense], tags: [TagTotal], trend: Trend, through: Day? = nil
    ) {
        self.month = month
        let periodDays = periodDays ?? month.days
        self.periodDays = periodDays
        self.through = through ?? periodDays.last
        self.budgets = budgets
        self.totals = totals
        self.days = days
        self.top = top
        self.tags = tags
        self.trend = trend
    }

    /// True when the period holds no expense at all.
    public var hasNoExpenses: Bool { totals.expenseCount == 0 }

    /// The budgets in their own currencies, whose limit, carried and available the totals leave
    /// out (their spending is counted in the ledger's currency).
    public var outOfTotals: [BudgetLine] { budgets.filter { $0.currency != nil } }

    /// `Totals leave out Trip's limit (JPY).`, or `nil` when every budget is in the ledger's currency.
    public var outOfTotalsNote: String? {
        let lines = outOfTotals
        guard !lines.isEmpty else { return nil }
        let names = lines.map { "\($0.name)'s (\($0.currency?.code ?? ""))" }.joined(separator: ", ")
        return "Totals leave out the limits of budgets in their own currencies: \(names); their spending counts in the ledger's."
    }

    /// One budget's figures in the view of the period (``BudgetStatus``): a monthly budget's for
    /// the period, a yearly one's for its year to date, a once budget's for its whole range.
    public struct BudgetLine: Hashable, Sendable {
        public var id: Int64?
        public var name: String
        public var period: BudgetPeriod
        /// The days the figures cover (``BudgetStatus/days``).
        public var days: DayInterval
        /// The limit of the budget's period that holds the report's.
        public var limit: Money
        /// What earlier periods carried in; negative when they overspent and the budget carries that too.
        public var carried: Money
        /// `limit + carried`, at most the budget's cap: what the period may spend.
        public var available: Money
        public var spent: Money
        /// `available − spent`; negative when over budget.
        public var remaining: Money
        /// Spent against `available`.
        public var share: Share
        public var isOver: Bool
        public var expenseCount: Int
        /// Why the budget is over or past its warning level (``WhyOver/applies(to:)``); `nil` otherwise.
        public var whyOver: WhyOver?

        public init(
            id: Int64?, name: String, period: BudgetPeriod, days: DayInterval, limit: Money, carried: Money,
            available: Money, spent: Money, remaining: Money, share: Share, isOver: Bool, expenseCount: Int
        ) {
            self.id = id
            self.name = name
            self.period = period
            self.days = days
            self.limit = limit
            self.carried = carried
            self.available = available
            self.spent = spent
            self.remaining = remaining
            self.share = share
            self.isOver = isOver
            self.expenseCount = expenseCount
        }

        /// The line of `status`, with every figure as Core computed it.
        public init(_ status: BudgetStatus) {
            self.init(
                id: status.budget.id, name: status.budget.name, period: status.budget.period, days: status.days,
                limit: status.limit, carried: status.carried, available: status.available, spent: status.spent,
                remaining: status.remaining, share: status.share, isOver: status.isOverBudget,
                expenseCount: status.expenseCount)
            warn = status.budget.warn
            goal = status.goal
            currency = status.budget.currency
            ledgerSpent = status.ledgerSpent
        }

        /// The budget's own currency, which its figures are in (``BudgetCurrency``); `nil` for the ledger's.
        public var currency: Currency?
        /// For a budget in its own currency: what it spent in the ledger's, which the totals count.
        public var ledgerSpent: Money?

        /// Its figures against its target (``GoalFigures``); `nil` without one.
        public var goal: GoalFigures?
        /// The account its target names, with its balance at the end of the period (or today,
        /// within the current one); `nil` when it names none.
        public var goalAccount: GoalAccount?

        /// The budget's warning level, percent.
        public var warn = BudgetLevel.defaultWarnPercent
        /// Its pace, in the current period only.
        public var pace: BudgetPace?

        /// The Core rule's level of this line against what was available: ok, near, or over.
        public var level: BudgetLevel { BudgetLevel(spent: spent, limit: available, warnPercent: warn) }
    }

    /// The paces of the budget lines added up: the period's share gone, the sum of their
    /// projections (`nil`, too early, when any is) and of what each can spend a day.
    public struct TotalPace: Hashable, Sendable {
        public var elapsed: Share
        public var projected: Money?
        public var perDay: Money

        /// `nil` when no line has a pace.
        public init?(_ lines: [BudgetLine], elapsed: Share) throws(TallyError) {
            let paces = lines.compactMap(\.pace)
            guard !paces.isEmpty else { return nil }
            self.elapsed = elapsed
            let projections = paces.compactMap(\.projected)
            projected = projections.count == paces.count ? try Money.sum(projections) : nil
            perDay = try Money.sum(paces.map(\.perDay))
        }
    }

    /// The budget lines added up.
    public struct Totals: Hashable, Sendable {
        public var limit: Money
        public var carried: Money
        public var available: Money
        public var spent: Money
        /// `available − spent`.
        public var remaining: Money
        /// Spent against `available`.
        public var share: Share
        public var expenseCount: Int

        public init(
            limit: Money, carried: Money, available: Money, spent: Money, remaining: Money, share: Share, expenseCount: Int
        ) {
            self.limit = limit
            self.carried = carried
            self.available = available
            self.spent = spent
            self.remaining = remaining
            self.share = share
            self.expenseCount = expenseCount
        }

        public var isOver: Bool { level == .over }

        public var level: BudgetLevel { BudgetLevel(spent: spent, limit: available) }
    }

    public struct DaySpending: Hashable, Sendable {
        public var day: Day
        public var spent: Money
        /// Spent from the period's first day through this day.
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

        /// `expense` of budget `budgetName`; its total as 0 in the impossible case that it overflows,
        /// which the store refuses to save.
        public init(_ expense: Expense, budgetName: String) {
            self.init(
                id: expense.id, name: expense.name, budgetName: budgetName, date: expense.date, amount: expense.amount,
                quantity: expense.quantity, total: (try? expense.total()) ?? .zero, tags: expense.tags)
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

    /// Spent per budget over six periods, the report's last.
    public struct Trend: Hashable, Sendable {
        /// The periods, each named for the month it starts in.
        public var months: [Month]
        /// Ordered like ``MonthlyReport/budgets``; `spent` has one amount per period, each what the
        /// budget's figures showed in that period's view (``DataAccess/spentByMonth(in:)``).
        public var budgets: [Series]
        /// All budgets together, one amount per period.
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
