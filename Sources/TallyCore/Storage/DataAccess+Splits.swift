/// A split's line as a person names it: a budget by name, its share, and maybe a name and tags.
public struct NamedLine: Hashable, Sendable {
    public var budget: String
    public var share: LineShare
    public var name: String
    public var tags: [String]

    public init(budget: String, share: LineShare, name: String = "", tags: [String] = []) {
        self.budget = budget
        self.share = share
        self.name = name
        self.tags = tags
    }

    /// The line with its budget's id.
    func line(budgetID: Int64) -> ExpenseLine {
        ExpenseLine(budgetID: budgetID, share: share, name: name, tags: tags)
    }

    /// Checks `lines` against `total` before any store opens: the shares alone decide whether a
    /// split is possible, whatever the budgets turn out to be.
    public static func check(_ lines: [NamedLine], total: Money) throws(TallyError) {
        _ = try ExpenseLines.allocate(lines.map { $0.line(budgetID: 0) }, total: total)
    }
}

/// A rule keeps its lines (``ImportRule/split``) in change sets.
extension NamedLine: Codable {}

// Splits, unsplits and refunds: written once above the stores, each one transaction.
extension DataAccess {
    /// `tally add --split`: saves `expense` split into `lines`, each budget found by name, and
    /// returns it with the statuses of the budgets its lines are in, in the lines' order.
    public func addSplitExpense(
        _ expense: Expense, lines: [NamedLine], accountNamed account: String? = nil
    ) throws(TallyError) -> (expense: Expense, statuses: [BudgetStatus]) {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            var expense = expense
            var budgets: [Budget] = []
            for line in lines { budgets.append(try rows.budget(named: line.budget)) }
            expense.lines = zip(lines, budgets).map { $0.line(budgetID: $1.id ?? 0) }
            expense = try expense.validated()
            try expense.checkBudgets { id in budgets.first { $0.id == id } }
            expense.accountID = try rows.accountID(named: account)
            try rows.checkAccount(of: expense, replacing: nil, force: false)
            let saved = try rows.save([expense])[0]
            let period = try rows.settings().calendar.period(containing: saved.date)
            var unique: [Budget] = []
            for budget in budgets where !unique.contains(where: { $0.id == budget.id }) { unique.append(budget) }
            return (saved, try rows.budgetStatuses(for: period, of: unique))
        }
    }

    /// `tally expense split`: the saved expense `id` as the `lines` of its whole total.
    public func splitExpense(id: Int64, lines: [NamedLine]) throws(TallyError) -> Expense {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            guard var expense = try rows.expenses(ExpenseQuery(ids: [id])).first else { throw .expenseNotFound(id) }
            guard !expense.isRefund else { throw .split(.refundSplit) }
            var budgets: [Budget] = []
            for line in lines { budgets.append(try rows.budget(named: line.budget)) }
            expense.lines = zip(lines, budgets).map { $0.line(budgetID: $1.id ?? 0) }
            expense = try expense.validated()
            try expense.checkBudgets { id in budgets.first { $0.id == id } }
            expense.updatedAt = rows.timestamp
            return try rows.save([expense])[0]
        }
    }

    /// `tally expense unsplit`: the split expense `id` whole again, in the budget named `budget`.
    public func unsplitExpense(id: Int64, budgetNamed name: String) throws(TallyError) -> Expense {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            guard var expense = try rows.expenses(ExpenseQuery(ids: [id])).first else { throw .expenseNotFound(id) }
            guard !expense.lines.isEmpty else { throw .split(.notSplit(id)) }
            let budget = try rows.budget(named: name)
            expense.lines = []
            expense.budgetID = budget.id ?? 0
            expense = try expense.validated()
            try expense.checkBudget(budget)
            expense.updatedAt = rows.timestamp
            return try rows.save([expense])[0]
        }
    }

    /// `tally refund`: money back into the budget named `name`, lowering its period's spending;
    /// `of`, when given, is the expense it returns, which must exist. Returns the budget's status.
    public func addRefund(
        _ refund: Expense, toBudgetNamed name: String, of original: Int64? = nil, accountNamed account: String? = nil
    ) throws(TallyError) -> (expense: Expense, status: BudgetStatus) {
        var refund = refund
        refund.isRefund = true
        refund.refundOf = original
        refund.lines = []
        refund = try refund.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            if let original, try rows.countExpenses(ExpenseQuery(ids: [original])) == 0 { throw .expenseNotFound(original) }
            return try rows.save(refund, inBudgetNamed: name, accountNamed: account)
        }
    }
}
