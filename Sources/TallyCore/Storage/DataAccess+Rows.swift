import Foundation

// What the commands read and write of the ledger's rows, written once for every store over its
// ``LedgerRows``: the rules (validation, unique names, what must exist) are the models', the
// rows are the store's.
extension DataAccess {
    // MARK: - Reads

    /// The ledger's settings: how its periods run.
    public func settings() throws(TallyError) -> LedgerSettings {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.settings() }
    }

    /// Every budget, ordered by name key then id.
    public func budgets() throws(TallyError) -> [Budget] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.budgets() }
    }

    /// Finds a budget by name, ignoring case and diacritics (``Budget/named(_:found:)``).
    public func budget(named name: String) throws(TallyError) -> Budget {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.budget(named: name) }
    }

    /// The expenses matching `query`, sorted and paged as it asks.
    public func expenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.expenses(query) }
    }

    /// Hands every expense matching `query` to `body` in its order, one at a time and in one
    /// read transaction, so an export of any size holds one page at a time.
    public func forEachExpense(_ query: ExpenseQuery, _ body: (Expense) throws(TallyError) -> Void) throws(TallyError) {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.forEachExpense(query, body) }
    }

    /// How many expenses match `query`, ignoring its sort and paging.
    public func countExpenses(_ query: ExpenseQuery) throws(TallyError) -> Int {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.countExpenses(query) }
    }

    /// The expenses with these ids that exist, by id, from one read.
    public func expenses(ids: [Int64]) throws(TallyError) -> [Expense] {
        guard !ids.isEmpty else { return [] }
        return try expenses(ExpenseQuery(ids: ids)).sorted { ($0.id ?? 0) < ($1.id ?? 0) }
    }

    /// The expense with id `id`; ``TallyError/expenseNotFound(_:)`` when there is none.
    public func expense(id: Int64) throws(TallyError) -> Expense {
        guard let expense = try expenses(ids: [id]).first else { throw .expenseNotFound(id) }
        return expense
    }

    /// Every recurring rule, by id, with its skips.
    public func recurringRules() throws(TallyError) -> [RecurringRule] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.recurringRules() }
    }

    /// The recurring rule with id `id`; ``TallyError/recurringRuleNotFound(_:)`` when there is none.
    public func recurringRule(id: Int64) throws(TallyError) -> RecurringRule {
        guard let rule = try recurringRules().first(where: { $0.id == id }) else { throw .recurringRuleNotFound(id) }
        return rule
    }

    /// Every paid occurrence, by rule id then date.
    public func recurringPayments() throws(TallyError) -> [RecurringPayment] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.recurringPayments() }
    }

    /// Every recurring rule and every paid occurrence, from one read (``LedgerRows/recurring()``).
    public func recurring() throws(TallyError) -> (rules: [RecurringRule], payments: [RecurringPayment]) {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.recurring() }
    }

    /// Every import rule, in the order an import tries them: priority, then id
    /// (``ImportRule/ordered(_:)``), each naming its budget as the ledger spells it now.
    public func rules() throws(TallyError) -> [ImportRule] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.importRules() }
    }

    /// Every import profile, ordered by name key.
    public func profiles() throws(TallyError) -> [ImportProfile] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.profiles() }
    }

    /// The import recorded under `fingerprint`, if any.
    public func importRecord(fingerprint: String) throws(TallyError) -> ImportRecord? {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.importRecords()[fingerprint] }
    }

    // MARK: - Settings and budgets

    /// Saves new settings. Figures follow them from then on; the expenses stay as they are. A
    /// budget in the new ledger currency keeps `nil` (``Budget/currency``), in the same change;
    /// taking the currency away while a budget has its own is refused.
    public func updateSettings(_ settings: LedgerSettings) throws(TallyError) -> LedgerSettings {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let budgets = try rows.budgets().filter { $0.currency != nil }
            if settings.currency == nil, let budget = budgets.first {
                throw .foreignMoney(.budgetInOwnCurrency(budget.name, currency: budget.currency?.code ?? ""))
            }
            for var budget in budgets where budget.currency == settings.currency {
                budget.currency = nil
                budget.updatedAt = rows.timestamp
                try rows.save(.budget(budget))
            }
            try rows.save(.settings(settings))
            return settings
        }
    }

    /// Validates and saves a new budget under a new id; names clash ignoring case and diacritics.
    public func addBudget(_ budget: Budget) throws(TallyError) -> Budget {
        var budget = try budget.validated()
        // A new budget gets its id from the store; one it carries must not pass for its own in the name check.
        budget.id = nil
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            try budget.checkNameIsFree(heldBy: try rows.budgets().first { $0.nameKey == budget.nameKey }?.id)
            budget = try rows.keptCurrency(of: budget)
            budget.createdAt = rows.timestamp
            budget.updatedAt = rows.timestamp
            guard case .budget(let saved) = try rows.save(.budget(budget)) else { throw .storage("a budget was saved as another row") }
            return saved
        }
    }

    /// Saves a changed name, limit or period of an existing budget; its creation time stays.
    public func updateBudget(_ budget: Budget) throws(TallyError) -> Budget {
        var budget = try budget.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let budgets = try rows.budgets()
            guard let id = budget.id, let existing = budgets.first(where: { $0.id == id }) else { throw .budgetNotFound(budget.name) }
            try budget.checkNameIsFree(heldBy: budgets.first { $0.nameKey == budget.nameKey }?.id)
            budget = try rows.keptCurrency(of: budget)
            budget.createdAt = existing.createdAt
            budget.updatedAt = rows.timestamp
            try rows.save(.budget(budget))
            return budget
        }
    }

    /// Removes the budget named `name` (found as ``budget(named:)`` finds it) and, when
    /// `includingExpenses` is true, its expenses with it; without, a budget that has expenses is
    /// refused (``Budget/checkRemoval(expenseCount:includingExpenses:)``). Its recurring rules
    /// with their paid occurrences and its import rules (split rules with a line in it too) go with it; the occurrences its expenses
    /// paid stay paid. One transaction; returns how many expenses were removed.
    @discardableResult
    public func removeBudget(named name: String, includingExpenses: Bool) throws(TallyError) -> Int {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let budget = try rows.budget(named: name)
            let expenses = try rows.expenses(ExpenseQuery(budgetID: budget.id))
            try budget.checkRemoval(expenseCount: expenses.count, includingExpenses: includingExpenses)
            try rows.delete(expenses)
            let (rules, payments) = try rows.recurring()
            for rule in rules where rule.budgetID == budget.id {
                for payment in payments where payment.ruleID == rule.id { try rows.delete(.recurringPayment(payment)) }
                try rows.delete(.recurringRule(rule))
            }
            for row in try rows.rowImages() {
                if case .importRule(let rule, let budgetID) = row, rule.uses(budgetID: budget.id ?? 0, ownBudgetID: budgetID) { try rows.delete(row) }
            }
            try rows.delete(.budget(budget))
            return expenses.count
        }
    }

    // MARK: - Expenses

    /// Validates and saves a new expense in an existing budget that takes its day
    /// (``Expense/checkBudget(_:)``), as one transaction.
    public func addExpense(_ expense: Expense) throws(TallyError) -> Expense {
        let expense = try expense.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let budgets = try rows.budgets()
            try expense.checkBudgets { id in budgets.first { $0.id == id } }
            if let budget = budgets.first(where: { $0.id == expense.budgetID }) { try rows.checkCounts(expense, in: budget) }
            try rows.checkAccount(of: expense, replacing: nil, force: false)
            return try rows.save([expense])[0]
        }
    }

    /// Validates and saves many new expenses in existing budgets as one transaction: all are
    /// saved or none. Returns how many were saved.
    @discardableResult
    public func addExpenses(_ expenses: [Expense]) throws(TallyError) -> Int {
        let validated = try Expense.validated(expenses)
        guard !validated.isEmpty else { return 0 }
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            var budgets: [Int64: Budget] = [:]
            for budget in try rows.budgets() { budgets[budget.id ?? 0] = budget }
            for expense in validated {
                try expense.checkBudgets { budgets[$0] }
                if let budget = budgets[expense.budgetID], budget.currency != nil { try rows.checkCounts(expense, in: budget) }
            }
            if validated.contains(where: { $0.accountID != nil }) {
                let book = try rows.accountBook(withEntries: false)
                for expense in validated { if let id = expense.accountID { try book.account(id: id).checkAccepts(expense.date) } }
            }
            return try rows.save(validated).count
        }
    }

    /// What `tally add` does, as one transaction: saves a new expense in the budget named `name`
    /// (whatever its `budgetID` says), paid from the account named `account` or else the
    /// ledger's default account, if any, and returns it with that budget's status for the
    /// expense's period. An unknown budget or account, or a period whose total would overflow,
    /// saves nothing.
    public func addExpense(
        _ expense: Expense, toBudgetNamed name: String, accountNamed account: String? = nil
    ) throws(TallyError) -> (expense: Expense, status: BudgetStatus) {
        let expense = try expense.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in try rows.save(expense, inBudgetNamed: name, accountNamed: account) }
    }

    /// Saves changes to an existing expense in a budget that takes its day; `createdAt` is kept.
    /// One an account reconciled, before or after the change, needs `force`.
    public func updateExpense(_ expense: Expense, force: Bool = false) throws(TallyError) -> Expense {
        var expense = try expense.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            guard let id = expense.id, let existing = try rows.expenses(ExpenseQuery(ids: [id])).first else {
                throw .expenseNotFound(expense.id ?? 0)
            }
            let budgets = try rows.budgets()
            try expense.checkBudgets { id in budgets.first { $0.id == id } }
            if let budget = budgets.first(where: { $0.id == expense.budgetID }) { try rows.checkCounts(expense, in: budget) }
            try rows.checkAccount(of: expense, replacing: existing, force: force)
            expense.createdAt = existing.createdAt
            expense.updatedAt = rows.timestamp
            return try rows.save([expense])[0]
        }
    }

    /// Removes an expense; ``TallyError/expenseNotFound(_:)`` when there is none. An occurrence it
    /// paid stays paid. One an account reconciled needs `force`.
    public func removeExpense(id: Int64, force: Bool = false) throws(TallyError) {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            guard let existing = try rows.expenses(ExpenseQuery(ids: [id])).first else { throw .expenseNotFound(id) }
            try rows.checkAccount(of: nil, replacing: existing, force: force)
            try rows.delete([existing])
        }
    }

    /// Total spent per day within `days`; days without expenses are absent (``Spending/byDay(in:of:)``).
    public func spendingByDay(in days: DayInterval) throws(TallyError) -> [Day: Money] {
        try Spending.byDay(in: days, of: try expenses(ExpenseQuery(days: days)))
    }

    /// Total spent per tag within `days`; an expense with several tags counts in each
    /// (``Spending/byTag(in:of:)``).
    public func spendingByTag(in days: DayInterval) throws(TallyError) -> [String: Money] {
        try Spending.byTag(in: days, of: try expenses(ExpenseQuery(days: days)))
    }
}

extension LedgerRows {
    /// What `tally add` and `tally refund` write: `expense` in budget `name` (and account
    /// `account`, else the ledger's default), with that budget's status for the expense's period.
    func save(_ expense: Expense, inBudgetNamed name: String, accountNamed account: String?) throws(TallyError) -> (expense: Expense, status: BudgetStatus) {
        var expense = expense
        let budget = try budget(named: name)
        expense.budgetID = budget.id ?? 0
        try expense.checkBudget(budget)
        expense.accountID = try accountID(named: account)
        try checkAccount(of: expense, replacing: nil, force: false)
        let saved = try save([expense])[0]
        let period = try settings().calendar.period(containing: saved.date)
        guard let status = try statuses(for: period, of: [budget]).first else { throw .budgetNotFound(name) }
        return (saved, status)
    }
}
