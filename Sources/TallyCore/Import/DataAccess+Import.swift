import Foundation

// Applying an import's rows, written once over ``LedgerRows``: ``ImportResolution`` decides, this
// orders the writes inside one transaction and records its change set, and a store only writes
// the new expenses by its fastest path (``LedgerRows/insertExpenses(_:)``).
extension DataAccess {
    /// Imports a file as one transaction: creates `request.newBudgets`, then calls `rows`, which
    /// hands each row to `insert` and returns the file's fingerprint once it has read it all.
    /// Budget names resolve ignoring case and diacritics. Any thrown error, an unknown budget
    /// (unless `request.missingBudgetLimit`) or a fingerprint already imported (unless
    /// `request.force`) rolls everything back; otherwise the fingerprint is remembered.
    ///
    /// `rows` runs on a helper thread while this one writes what it has read (``RowPipeline``).
    /// The change set holds the new expenses as a range of ids and the row keys as a batch, which
    /// undo sets aside whole.
    public func importExpenses(
        _ request: ImportRequest, rows: (_ insert: ImportInsert) throws(TallyError) -> String?
    ) throws(TallyError) -> ImportOutcome {
        try writing { (ledger: any LedgerRows) throws(TallyError) in try ledger.importExpenses(request, rows: rows) }
    }
}

extension LedgerRows {
    fileprivate func importExpenses(
        _ request: ImportRequest, rows: (_ insert: ImportInsert) throws(TallyError) -> String?
    ) throws(TallyError) -> ImportOutcome {
        // The import's row keys carry its change set's id, so undoing it removes them.
        let batch = try history(contentFrom: nil).nextID
        // Every row but the expenses, for the change set: a few hundred, and the entries.
        let before = try rowImages(.all)
        var resolution = ImportResolution(request: request, existing: before.compactMap { row in
            guard case .budget(let budget) = row else { return nil }
            return budget
        })
        if request.settings != nil,
            let settings = resolution.settingsToApply(ledgerHasExpenses: try countExpenses(ExpenseQuery()) > 0)
        {
            try save(.settings(settings))
        }
        try resolution.createDeclaredBudgets { (budget: Budget) throws(TallyError) in
            try saveNew(budget, createdAt: request.creationDate(ofDeclared: budget, importedAt: timestamp))
        }
        if !request.newRules.isEmpty {
            try resolution.createDeclaredRules(existing: try importRules()) { (rule: ImportRule, budgetID: Int64) throws(TallyError) in
                var rule = rule
                rule.id = nil
                try save(.importRule(rule, budgetID: budgetID))
            }
        }
        if !request.newProfiles.isEmpty {
            let existing = try rowImages(.profiles).compactMap { row -> ImportProfile? in
                guard case .profile(let profile) = row else { return nil }
                return profile
            }
            for profile in try resolution.profilesToSave(existing: existing) { try save(.profile(profile)) }
        }
        try resolution.restoreDeclaredAccounts(into: self)
        if let keys = request.rowKeys { keys.known = try importedRowKeys() }

        let create = { (budget: Budget) throws(TallyError) -> Budget in try saveNew(budget, createdAt: timestamp) }
        var fingerprint: String?
        let added = try insertExpenses { (writer: any NewExpenseWriter) throws(TallyError) in
            resolution.nextExpenseID = writer.firstID
            fingerprint = try RowPipeline.run(rows) { (row: ImportRow) throws(TallyError) in
                var expense = row.expense
                guard try resolution.resolveBudgets(of: &expense, named: row.budgetName, create: create) else { return }
                try resolution.resolveAccount(of: &expense)
                try writer.add(expense, nameKey: row.nameKey)
            }
        }
        let count = added?.count ?? 0
        try resolution.restoreLateAccounts(into: self)
        let rates = request.rates.isEmpty ? RateImages() : try writeRates(removing: [], saving: request.rates)

        let earlier = try fingerprint.flatMap { (fingerprint: String) throws(TallyError) in try importRecords()[fingerprint] }
        try resolution.finish(earlier: earlier, importedCount: count)
        if let keys = request.rowKeys {
            // The known keys are not needed any more; their memory goes before the sort.
            keys.known = []
            let new = keys.sortedNewKeys()
            if !new.isEmpty { try save(.importedRows(batch: batch, keys: new)) }
        }
        try restoreRecurringRules(request.recurringRules)
        if let fingerprint {
            try save(.importRecord(ImportRecord(fingerprint: fingerprint, importedAt: timestamp, expenseCount: count)))
        }

        var content = ChangeContent(rows: RowDiff.changes(from: before, to: try rowImages(.all)))
        if !rates.isEmpty { content.rates = rates }
        if let added {
            content.addedExpenses = added
            if request.rowKeys != nil { content.rowKeys = RowKeyChange(batch: batch, added: nil) }
        }
        if !content.isEmpty { try record(ChangeSet(id: batch, when: timestamp, command: ChangeContext.command, content: content)) }
        return ImportOutcome(importedCount: count, createdBudgets: resolution.createdBudgets)
    }

    /// Saves a validated budget the import creates under a new id, created at `createdAt` and
    /// updated at the import's time.
    private func saveNew(_ budget: Budget, createdAt: Date) throws(TallyError) -> Budget {
        var budget = budget
        budget.id = nil
        budget.createdAt = createdAt
        budget.updatedAt = timestamp
        guard case .budget(let saved) = try save(.budget(budget)) else { throw .storage("a saved budget came back as another row") }
        return saved
    }

    /// A backup's recurring rules, with their paid occurrences, into a ledger that has none.
    private func restoreRecurringRules(_ declared: [DeclaredRecurringRule]) throws(TallyError) {
        guard !declared.isEmpty else { return }
        let hasRules = try rowImages(.recurring).contains { row in
            if case .recurringRule = row { return true }
            return false
        }
        guard DeclaredRecurringRule.restores(ledgerHasRules: hasRules) else { return }
        for entry in declared {
            var rule = try entry.rule.validated()
            rule.id = nil
            rule.budgetID = try budget(named: entry.budgetName).id ?? 0
            guard case .recurringRule(let saved) = try save(.recurringRule(rule)) else {
                throw .storage("a saved recurring rule came back as another row")
            }
            for payment in entry.payments(ruleID: saved.id ?? 0) { try save(.recurringPayment(payment)) }
        }
    }
}
