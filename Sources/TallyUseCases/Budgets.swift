import Foundation
import TallyCore

/// `budget add`: a new budget.
public struct AddBudget: Sendable {
    public var budget: Budget
    /// `--warn`; `nil` takes the ledger's default (``LedgerSettings/warn``).
    public var warn: Int?
    /// Its target, if any (`TargetChange/accountID` is found from ``targetAccount``).
    public var target: TargetChange
    /// The name of the account the target's money sits in.
    public var targetAccount: String?

    /// `budget` as the user described it; the store gives it its id and timestamps.
    public init(_ budget: Budget, warn: Int? = nil, target: TargetChange = TargetChange(), targetAccount: String? = nil) {
        self.budget = budget
        self.warn = warn
        self.target = target
        self.targetAccount = targetAccount
    }

    public init(name: String, limit: Money) {
        self.init(Budget(name: name, limit: limit))
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Budget {
        var budget = try budget.validated()
        if let warn {
            try BudgetLevel.checkWarn(warn)
            budget.warn = warn
        }
        try budget.apply(target)
        budget = try budget.validated()
        let (given, target, targetAccount) = (warn, target, targetAccount)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            if given == nil { budget.warn = try store.settings().warn }
            if let targetAccount {
                var change = target
                change.accountID = try store.accountBook(withEntries: false).account(named: targetAccount).id
                try budget.apply(change)
            }
            return try store.addBudget(budget)
        }
    }
}

/// `budget edit`: renames a budget, changes its limit from a period on, its rollover, cap or start.
public struct EditBudget: Sendable {
    public var name: String
    public var newName: String?
    public var newLimit: Money?
    /// The period the new limit applies from; the current one when `nil`.
    public var limitFrom: PeriodChoice?
    public var rollover: RolloverPolicy?
    public var cap: Money?
    /// Take the cap away.
    public var removesCap: Bool
    public var start: Month?
    /// `--warn`: the budget's new warning level, percent.
    public var warn: Int?
    /// A change to its target (`TargetChange/accountID` is found from ``targetAccount``).
    public var target: TargetChange
    /// The name of the account the target's money sits in.
    public var targetAccount: String?
    /// `--currency`: `.some(nil)` takes the budget back to the ledger's currency.
    public var currency: Currency??
    /// The day that tells the current period.
    public var today: Day

    public init(
        name: String, newName: String? = nil, newLimit: Money? = nil, limitFrom: PeriodChoice? = nil, rollover: RolloverPolicy? = nil,
        cap: Money? = nil, removesCap: Bool = false, start: Month? = nil, warn: Int? = nil, target: TargetChange = TargetChange(),
        targetAccount: String? = nil, currency: Currency?? = nil, today: Day = Day.today()
    ) {
        self.currency = currency
        self.target = target
        self.targetAccount = targetAccount
        self.name = name
        self.newName = newName
        self.newLimit = newLimit
        self.limitFrom = limitFrom
        self.rollover = rollover
        self.cap = cap
        self.removesCap = removesCap
        self.start = start
        self.warn = warn
        self.today = today
    }

    /// The budget before and after the change.
    public func run(in ledger: Ledger) throws(TallyError) -> (before: Budget, after: Budget) {
        // The new values obey the budget rules before the store is touched.
        if let newName { _ = try Budget.validatedName(newName) }
        if let newLimit { try Budget.checkLimit(newLimit) }
        if let cap { try Budget.checkCap(cap) }
        if let warn { try BudgetLevel.checkWarn(warn) }
        if let amount = target.amount { try BudgetTarget(amount: amount).checkAmount() }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let before = try store.budget(named: name)
            var changed = before
            if let newName { changed.name = newName }
            if let rollover { changed.rollover = rollover }
            if let cap { changed.cap = cap }
            if removesCap { changed.cap = nil }
            if let start { changed.start = start }
            if let warn { changed.warn = warn }
            if let currency { changed.currency = currency }
            var target = target
            if let targetAccount { target.accountID = try store.accountBook(withEntries: false).account(named: targetAccount).id }
            try changed.apply(target)
            if let newLimit {
                let calendar = try store.settings().calendar
                let earliest = try store.expenses(ExpenseQuery(budgetID: before.id, sort: .date, limit: 1)).first?.date
                try changed.setLimit(
                    newLimit, from: try (limitFrom ?? .current).resolved(in: calendar, today: today),
                    firstPeriod: changed.firstPeriod(in: calendar, earliestExpense: earliest))
            }
            return (before, try store.updateBudget(changed))
        }
    }
}

/// `budget remove`: a budget, and its expenses when confirmed.
public struct RemoveBudget: Sendable {
    public var name: String
    /// Remove the expenses too without asking.
    public var includingExpenses: Bool

    public init(name: String, includingExpenses: Bool) {
        self.name = name
        self.includingExpenses = includingExpenses
    }

    /// The budget removed and how many expenses went with it. A budget that has expenses, when
    /// not `includingExpenses`, is removed only if `confirm(name, expenseCount)` says yes;
    /// otherwise ``TallyError/budgetNotEmpty(_:expenseCount:)`` is thrown.
    public func run(
        in ledger: Ledger, confirm: (_ name: String, _ expenseCount: Int) -> Bool = { _, _ in false }
    ) throws(TallyError) -> (budget: Budget, removedExpenses: Int) {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let budget = try store.budget(named: name)
            do throws(TallyError) {
                return (budget, try store.removeBudget(named: name, includingExpenses: includingExpenses))
            } catch {
                guard case .budgetNotEmpty(let budgetName, let count) = error, confirm(budgetName, count) else { throw error }
                return (budget, try store.removeBudget(named: name, includingExpenses: true))
            }
        }
    }
}

/// `budget list`: every budget's figures for a period, filtered and ordered.
public struct ListBudgets: Sendable {
    public var period: PeriodChoice
    public var search: String?
    public var order: BudgetOrder
    public var descending: Bool
    public var today: Day

    /// `month` `nil` is the current period.
    public init(month: Month?, search: String? = nil, order: BudgetOrder = .name, descending: Bool = false, today: Day = Day.today()) {
        self.init(period: PeriodChoice(month), search: search, order: order, descending: descending, today: today)
    }

    public init(period: PeriodChoice, search: String? = nil, order: BudgetOrder = .name, descending: Bool = false, today: Day = Day.today()) {
        self.period = period
        self.search = search
        self.order = order
        self.descending = descending
        self.today = today
    }

    public struct Result: Sendable {
        public var period: Month
        public var days: DayInterval
        public var statuses: [BudgetStatus]
        /// Each budget's pace by id, in the current period only.
        public var paces: [Int64: BudgetPace] = [:]
        /// The accounts the targets name, by account id, with their balance (``goalDay``).
        public var goalAccounts: [Int64: GoalAccount] = [:]
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Result {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let calendar = try store.settings().calendar
            let period = try self.period.resolved(in: calendar, today: today)
            let statuses = BudgetStatus.arranged(
                try store.budgetStatuses(for: period), search: search, order: order, descending: descending)
            let paces = try store.paces(for: statuses, today: today, calendar: calendar)
            let days = calendar.days(of: period)
            return Result(
                period: period, days: days, statuses: statuses, paces: paces,
                goalAccounts: try store.goalAccounts(of: statuses.map(\.budget), through: goalDay(days, today: today)))
        }
    }
}

/// `budget show`: one budget's figures and expenses for a period.
public struct ShowBudget: Sendable {
    public var name: String
    public var period: PeriodChoice
    public var today: Day

    /// `month` `nil` is the current period.
    public init(name: String, month: Month?, today: Day = Day.today()) {
        self.init(name: name, period: PeriodChoice(month), today: today)
    }

    public init(name: String, period: PeriodChoice, today: Day = Day.today()) {
        self.name = name
        self.period = period
        self.today = today
    }

    public struct Result: Sendable {
        public var status: BudgetStatus
        /// The expenses within the figures' days, by date.
        public var expenses: [Expense]
        /// The key of the budget's first period, where its first limit starts.
        public var firstPeriod: Month
        /// Its pace, in the current period only.
        public var pace: BudgetPace?
        /// The names of the accounts the expenses name, by id.
        public var accountNames: [Int64: String] = [:]
        /// The account its target names, with its balance (``goalDay``).
        public var goalAccount: GoalAccount?
    }

    public func run(in ledger: Ledger) throws(TallyError) -> Result {
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let calendar = try store.settings().calendar
            let budget = try store.budget(named: name)
            let status = try store.status(of: budget, in: period.resolved(in: calendar, today: today))
            let expenses = try store.expenses(ExpenseQuery(budgetID: budget.id, days: status.days, sort: .date))
            let earliest = try store.expenses(ExpenseQuery(budgetID: budget.id, sort: .date, limit: 1)).first?.date
            let pace = try store.paces(for: [status], today: today, calendar: calendar)[budget.id ?? 0]
            let goalAccounts = try store.goalAccounts(of: [budget], through: goalDay(status.days, today: today))
            return Result(
                status: status, expenses: expenses, firstPeriod: budget.firstPeriod(in: calendar, earliestExpense: earliest), pace: pace,
                accountNames: try store.accountNames(of: expenses), goalAccount: budget.target?.accountID.flatMap { goalAccounts[$0] })
        }
    }
}

/// The day a target's account balance is read at: the end of the period viewed, or today while
/// it runs, so a balance is never one of days still to come.
func goalDay(_ days: DayInterval, today: Day) -> Day {
    min(days.last, max(today, days.first))
}

/// `upcoming`'s goals: the figures of every budget with a target in the current period, for
/// what each needs set aside now.
public struct ListGoals: Sendable {
    public var today: Day

    public init(today: Day = Day.today()) {
        self.today = today
    }

    public func run(in ledger: Ledger) throws(TallyError) -> [BudgetStatus] {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let budgets = try store.budgets().filter { $0.target != nil }
            guard !budgets.isEmpty else { return [] }
            let period = try store.settings().calendar.period(containing: today)
            return try store.budgetStatuses(for: period).filter { $0.budget.target != nil }
        }
    }
}
