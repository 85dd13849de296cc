import Foundation

// Undo and redo, written once over the history primitives of ``LedgerRows``: Core decides the
// target, what blocks it and the inverse (``History``, ``ChangeContent/inverse()``); applying the
// inverse orders the rows' writes, and the stores only move rows.
extension DataAccess {
    /// The change sets recorded at or after `since` (every one kept when `nil`), newest first,
    /// at most `limit`, each with whether it stands undone (``History``). Reads no change's rows.
    public func changeSets(since: Date?, limit: Int?) throws(TallyError) -> [ChangeSetEntry] {
        try reading { (rows: any LedgerRows) throws(TallyError) in
            let history = try rows.history(contentFrom: nil)
            // Kept to the millisecond, as every store keeps `when`.
            let from = since.map(Milliseconds.since1970) ?? Int64.min
            let most = limit.map { max($0, 0) } ?? Int.max
            var entries: [ChangeSetEntry] = []
            for changeSet in history.changeSets.reversed() where entries.count < most && Milliseconds.since1970(changeSet.when) >= from {
                entries.append(ChangeSetEntry(changeSet: changeSet, undone: history.isUndone(changeSet.id)))
            }
            return entries
        }
    }

    /// What `undo` does, as one transaction: reverts change set `id`, or the one ``History/target(_:)``
    /// picks, if no later change set that stands touched its rows; puts its rows back with their
    /// ids, removes the rows it added (an import's expenses and row keys by range and batch), and
    /// records the undo as a change set of its own. `dryRun` decides the same and writes nothing.
    public func undo(_ id: Int64?, dryRun: Bool) throws(TallyError) -> UndoOutcome {
        let body = { (rows: any LedgerRows) throws(TallyError) -> UndoOutcome in try rows.undo(id, dryRun: dryRun) }
        return dryRun ? try reading(body) : try writing(body)
    }
}

extension LedgerRows {
    fileprivate func undo(_ id: Int64?, dryRun: Bool) throws(TallyError) -> UndoOutcome {
        let targetID = try history(contentFrom: nil).target(id)
        let history = try self.history(contentFrom: targetID)
        let sets = history.changeSets.filter { $0.id >= targetID }
        guard let target = sets.first, target.id == targetID else { throw .changeSetNotFound(targetID) }
        try history.checkUnblocked(target, later: Array(sets.dropFirst()))
        let undo = target.undo(id: history.nextID, when: timestamp, command: ChangeContext.command)
        if !dryRun {
            // Recorded first: what it sets aside in bulk is kept under its id.
            try record(undo)
            try apply(undo.content, as: undo.id, undoing: target.id)
        }
        return UndoOutcome(undone: target, undo: undo, dryRun: dryRun)
    }

    /// Applies a change forward: removes what it removes (dependents first), then saves what it
    /// saves under the rows' own ids (parents first). Bulk parts move whole: what change set `id`
    /// removes in bulk is set aside under `id`, and what it adds in bulk is what `target`, which
    /// removed it, set aside.
    private func apply(_ content: ChangeContent, as id: Int64, undoing target: Int64) throws(TallyError) {
        let removed = content.rows.filter { $0.after == nil }.compactMap(\.before)
        for image in removed.sorted(by: { $0.dependencyRank > $1.dependencyRank }) where image.dependencyRank > 1 { try delete(image) }
        let kept = Set(content.expensesAfter.ids)
        let gone = try content.expensesBefore.expenses().filter { !kept.contains($0.id ?? 0) }
        if !gone.isEmpty { try delete(gone) }
        let batch = content.rowKeys.flatMap { $0.removedBatch ? $0.batch : nil }
        if content.removedExpenses != nil || batch != nil { try setAside(content.removedExpenses, rowKeysOf: batch, under: id) }
        for image in removed where image.dependencyRank == 1 {
            if case .budget(let budget) = image, let budgetID = budget.id, try isUsed(budget: budgetID) {
                throw .undoNeedsBudget(target, budget: budget.name)
            }
            try delete(image)
        }
        let saved = content.rows.compactMap(\.after).sorted { $0.dependencyRank < $1.dependencyRank }
        for image in saved where image.dependencyRank <= 1 { try save(image) }
        if content.addedExpenses != nil || content.rowKeys.map({ $0.added == nil }) == true { try bringBack(setAsideUnder: target) }
        let expenses = try content.expensesAfter.expenses()
        if !expenses.isEmpty { _ = try save(expenses) }
        for image in saved where image.dependencyRank > 1 { try save(image) }
        if let rates = content.rates, !rates.isEmpty { try writeRates(removing: rates.removals, saving: rates.after) }
        if let keys = content.rowKeys {
            if !keys.removed.isEmpty { try delete(.importedRows(batch: keys.batch, keys: keys.removed)) }
            if let added = keys.added, !added.isEmpty { try save(.importedRows(batch: keys.batch, keys: added)) }
        }
    }

    /// Whether a row still names budget `id`: an expense (a split one in each line's budget,
    /// ``Expense/counts(in:)``), a recurring rule or an import rule. Undo then keeps the budget.
    private func isUsed(budget id: Int64) throws(TallyError) -> Bool {
        if try countExpenses(ExpenseQuery(budgetID: id)) > 0 { return true }
        return try rowImages([.recurring, .importRules]).contains { row in
            switch row {
            case .recurringRule(let rule): rule.budgetID == id
            case .importRule(let rule, let budgetID): rule.uses(budgetID: id, ownBudgetID: budgetID)
            default: false
            }
        }
    }
}

extension RowImage {
    /// Parents before children: budgets and accounts before the rows that name them, payments last.
    var dependencyRank: Int {
        switch self {
        case .budget, .account: 1
        // The settings name the default account.
        case .settings, .recurringRule, .importRule, .profile, .importRecord, .income, .transfer, .balanceAssertion, .serveToken, .alertLevel,
            .importedRows, .tags:
            2
        case .recurringPayment: 3
        }
    }
}
