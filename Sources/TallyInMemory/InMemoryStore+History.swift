import Foundation
import TallyCore

// The history, as `SQLiteStore` keeps it: each transaction that changed the ledger records the
// difference between the state before and after; undo (Core's `DataAccess+Undo.swift`) applies
// the inverse of one through `InMemoryRows`. Expenses are kept as images even for an import: the
// whole store is in memory anyway.
extension InMemoryStore {
    // MARK: - Recording

    /// What changed between two states of the ledger; derived data (tags seen, the check memory,
    /// id counters) is not part of it.
    static func changes(from old: State, to new: State) -> ChangeContent {
        var content = ChangeContent(rows: RowDiff.changes(from: images(old), to: images(new)))
        if old.expenses != new.expenses {
            for id in Set(old.expenses.keys).union(new.expenses.keys).sorted() where old.expenses[id] != new.expenses[id] {
                if let before = old.expenses[id] { content.expensesBefore.append(before) }
                if let after = new.expenses[id] { content.expensesAfter.append(after) }
            }
        }
        if old.rates != new.rates {
            let rates = rateChanges(from: old.rates, to: new.rates)
            if !rates.isEmpty { content.rates = rates }
        }
        if old.rowKeys != new.rowKeys {
            let before = Set(old.rowKeys.keys), after = Set(new.rowKeys.keys)
            content.rowKeys = RowKeyChange(
                batch: new.nextChangeSetID, added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted())
        }
        return content
    }

    static func images(_ state: State, _ kinds: RowKinds = .all) -> [RowImage] {
        var images: [RowImage] = kinds.contains(.settings) ? [.settings(state.settings)] : []
        if kinds.contains(.budgets) { images += state.budgets.values.map { .budget($0) } }
        if kinds.contains(.recurring) {
            images += state.rules.values.map { .recurringRule($0) }
            images += state.payments.values.flatMap(\.values).map { .recurringPayment($0) }
        }
        if kinds.contains(.importRules) {
            images += state.importRules.values.map { entry in
                var rule = entry.rule
                // The budget (or account) by id only, as SQLite keeps it: renaming one does not change its rules.
                rule.budget = ""
                rule.transferTo = nil
                return .importRule(rule, budgetID: entry.budgetID)
            }
        }
        if kinds.contains(.profiles) { images += state.profiles.values.map { .profile($0) } }
        if kinds.contains(.importRecords) { images += state.imports.values.map { .importRecord($0) } }
        if kinds.contains(.accounts) { images += state.accounts.values.map { .account($0) } }
        if kinds.contains(.entries) {
            images += state.incomes.values.map { .income($0) }
            images += state.transfers.values.map { .transfer($0) }
        }
        if kinds.contains(.assertions) { images += state.assertions.values.flatMap(\.values).map { .balanceAssertion($0) } }
        if kinds.contains(.serveTokens) { images += state.serveTokens.map { .serveToken($0) } }
        if kinds.contains(.alertLevels) {
            // Only budgets that exist, as SQLite's foreign key keeps them.
            for (period, levels) in state.alertLevels.sorted(by: { $0.key < $1.key }) {
                for (budgetID, level) in levels.sorted(by: { $0.key < $1.key }) where state.budgets[budgetID] != nil {
                    images.append(.alertLevel(budgetID: budgetID, period: period, level: level))
                }
            }
        }
        if kinds.contains(.tags) { images.append(.tags(state.knownTags.sorted())) }
        if kinds.contains(.importedRows) {
            let batches = Dictionary(grouping: state.rowKeys, by: \.value)
            images += batches.keys.sorted().map { batch in .importedRows(batch: batch, keys: (batches[batch] ?? []).map(\.key).sorted()) }
        }
        return images
    }

    /// Saves a change set and prunes those older than the ledger's history length.
    static func record(_ changeSet: ChangeSet, into state: inout State) {
        let cutoff = History.cutoff(days: state.settings.historyDays, now: changeSet.when)
        state.changeSets.removeAll { $0.when < cutoff }
        state.changeSets.append(changeSet)
        // What undo set aside goes with its change set, as SQLite's rows do by cascade.
        let kept = Set(state.changeSets.map(\.id))
        state.setAside = state.setAside.filter { kept.contains($0.key) }
        state.nextChangeSetID = max(state.nextChangeSetID, changeSet.id + 1)
    }

    /// Removes one row; settings have none to remove.
    static func delete(_ image: RowImage, from state: inout State) {
        switch image {
        case .settings: break
        case .budget(let budget): state.budgets[budget.id ?? 0] = nil
        case .recurringRule(let rule): state.rules[rule.id ?? 0] = nil
        case .recurringPayment(let payment): state.payments[payment.ruleID]?[payment.date] = nil
        case .importRule(let rule, _): state.importRules[rule.id ?? 0] = nil
        case .profile(let profile): state.profiles[profile.nameKey] = nil
        case .importRecord(let record): state.imports[record.fingerprint] = nil
        case .account(let account):
            state.accounts[account.id ?? 0] = nil
            // SQLite's `ON DELETE SET NULL`.
            if state.settings.defaultAccountID == account.id { state.settings.defaultAccountID = nil }
        case .income(let income): state.incomes[income.id ?? 0] = nil
        case .transfer(let transfer): state.transfers[transfer.id ?? 0] = nil
        case .balanceAssertion(let assertion): state.assertions[assertion.accountID]?[assertion.date] = nil
        case .serveToken(let token): state.serveTokens.removeAll { $0.name == token.name }
        case .alertLevel(let budgetID, let period, _): state.alertLevels[period]?[budgetID] = nil
        case .importedRows(_, let keys): for key in keys { state.rowKeys[key] = nil }
        case .tags: break
        }
    }

    /// Saves an account or one of its entries under its own id or key.
    static func put(_ image: RowImage, into state: inout State) {
        switch image {
        case .account(let account): state.accounts[account.id ?? 0] = account
        case .income(let income): state.incomes[income.id ?? 0] = income
        case .transfer(let transfer): state.transfers[transfer.id ?? 0] = transfer
        case .balanceAssertion(let assertion): state.assertions[assertion.accountID, default: [:]][assertion.date] = assertion
        case .serveToken(let token):
            // Its name is unique ignoring case, as the stores' tables keep it.
            state.serveTokens.removeAll { $0.name.lowercased() == token.name.lowercased() }
            state.serveTokens.append(token)
        case .alertLevel(let budgetID, let period, let level):
            // Only budgets that exist, as SQLite's foreign key requires.
            if state.budgets[budgetID] != nil { state.alertLevels[period, default: [:]][budgetID] = level }
        case .importedRows(let batch, let keys): for key in keys where state.rowKeys[key] == nil { state.rowKeys[key] = batch }
        default: break
        }
    }
}
