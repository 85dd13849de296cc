/// `recurring post`, written once for every store over its ``LedgerRows``.
extension DataAccess {
    /// What `recurring post` does, as one transaction: every occurrence due through `last`
    /// (``RecurringSchedule/unpaid(_:payments:through:)``) is paid by a recorded expense
    /// (``RecurringSchedule/plan(_:linked:candidates:)``) or posted as a new one, and remembered
    /// as paid. An occurrence whose budget does not take its day (a once budget's range) is not
    /// posted and comes back as ``RecurringPost/Outcome/outsideBudget(_:)``. Idempotent: an
    /// occurrence is paid once, whoever posts at the same time, since writes take turns.
    /// `dryRun` decides the same in a read transaction and writes nothing.
    public func postRecurring(through last: Day, dryRun: Bool) throws(TallyError) -> [RecurringPost] {
        let post = { (rows: any LedgerRows) throws(TallyError) -> [RecurringPost] in
            try RecurringPosting.post(through: last, dryRun: dryRun, rows)
        }
        return dryRun ? try reading(post) : try writing(post)
    }
}

enum RecurringPosting {
    static func post(through last: Day, dryRun: Bool, _ rows: any LedgerRows) throws(TallyError) -> [RecurringPost] {
        // Nothing due reads rules and payments only, never an expense.
        let (rules, payments) = try rows.recurring()
        guard !rules.isEmpty else { return [] }
        let unpaid = RecurringSchedule.unpaid(rules, payments: payments, through: last)
        guard !unpaid.isEmpty else { return [] }
        var budgets: [Int64: Budget] = [:]
        for budget in try rows.budgets() { budgets[budget.id ?? 0] = budget }
        // An occurrence its budget refuses is not due: it neither posts nor takes a match.
        var outside: [RecurringOccurrence: DayInterval] = [:]
        for occurrence in unpaid {
            if let budget = budgets[occurrence.rule.budgetID], !budget.accepts(occurrence.date), let range = budget.range {
                outside[occurrence] = range
            }
        }
        let due = unpaid.filter { outside[$0] == nil }
        let plan = try RecurringSchedule.plan(due, linked: Set(payments.compactMap(\.expenseID))) {
            (budgetID: Int64, days: DayInterval) throws(TallyError) in
            try rows.expenses(ExpenseQuery(budgetID: budgetID, days: days))
        }
        // The plan keeps the order of `due`, which keeps the order of `unpaid`.
        var planned = plan.makeIterator()
        var done: [RecurringPost] = []
        for occurrence in unpaid {
            if let range = outside[occurrence] {
                done.append(RecurringPost(occurrence: occurrence, outcome: .outsideBudget(range)))
                continue
            }
            guard var post = planned.next() else { break }
            if !dryRun {
                let ruleID = occurrence.rule.id ?? 0
                switch post.outcome {
                case .posted(let expense):
                    let validated = try expense.validated()
                    try validated.checkBudget(budgets[validated.budgetID])
                    let saved = try rows.save([validated])[0]
                    try rows.save(.recurringPayment(RecurringPayment(ruleID: ruleID, date: occurrence.date, expenseID: saved.id, kind: .posted)))
                    post.outcome = .posted(saved)
                case .matched(let expense):
                    try rows.save(.recurringPayment(RecurringPayment(ruleID: ruleID, date: occurrence.date, expenseID: expense.id, kind: .matched)))
                case .outsideBudget:
                    break
                }
            }
            done.append(post)
        }
        return done
    }
}
