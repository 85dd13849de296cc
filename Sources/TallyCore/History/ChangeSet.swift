import Foundation

/// One command's changes to the ledger, recorded by the store in the command's own transaction:
/// what `tally log` lists and `tally undo` reverts.
public struct ChangeSet: Hashable, Sendable, Identifiable {
    public var id: Int64
    public var when: Date
    /// The command line, without any password (``ChangeContext/sanitized(_:)``).
    public var command: String
    /// The change set this one reverts, when it is an undo.
    public var undoes: Int64?
    /// What a store read back; `log` reads no content, only the summary recorded with it.
    public var content: ChangeContent
    /// "import bank.csv: 412 expenses added": the command's words before its first option, and
    /// what it changed.
    public var summary: String

    public init(id: Int64, when: Date, command: String, undoes: Int64? = nil, content: ChangeContent, summary: String? = nil) {
        self.id = id
        self.when = when
        self.command = command
        self.undoes = undoes
        self.content = content
        self.summary = summary ?? Self.summary(command: command, content: content)
    }

    static func summary(command: String, content: ChangeContent) -> String {
        let label = ChangeContext.label(of: command)
        let counts = content.countsPhrase
        return label.isEmpty ? counts : "\(label): \(counts)"
    }
}

/// The row a change touched, across every kind the history covers. Derived data (monthly totals,
/// the check memory) has no key: it follows the rows.
public enum RowKey: Hashable, Sendable, Comparable {
    case settings
    case budget(Int64)
    case expense(Int64)
    case recurringRule(Int64)
    case recurringPayment(ruleID: Int64, date: Day)
    case importRule(Int64)
    case profile(nameKey: String)
    case importRecord(fingerprint: String)
    case account(Int64)
    case income(Int64)
    case transfer(Int64)
    case balanceAssertion(accountID: Int64, date: Day)
    case rate(from: String, to: String, day: Day)
    case serveToken(name: String)
    case alertLevel(budgetID: Int64, period: Month)
    case importedRows(batch: Int64)
    case tags
}

/// A row as it was or as it became: the values undo puts back, ids included.
public enum RowImage: Hashable, Sendable, Codable {
    case settings(LedgerSettings)
    /// A budget with its later limits.
    case budget(Budget)
    case recurringRule(RecurringRule)
    case recurringPayment(RecurringPayment)
    /// An import rule and the id of the budget it sends rows to.
    case importRule(ImportRule, budgetID: Int64)
    case profile(ImportProfile)
    case importRecord(ImportRecord)
    case account(Account)
    case income(Income)
    case transfer(Transfer)
    case balanceAssertion(BalanceAssertion)
    /// Never in a change set (``RowKinds/serveTokens``).
    case serveToken(ServeToken)
    /// The level `check --new-only` saw of a budget in a period. Never in a change set
    /// (``RowKinds/alertLevels``).
    case alertLevel(budgetID: Int64, period: Month, level: AlertLevel)
    /// Keys of imported CSV rows (``ImportRowKey``) that import `batch` (its change set id; 0 for
    /// keys from before imports kept one) added. Saving adds the keys not there yet; removing
    /// forgets `keys`. Never in a change set (``RowKinds/importedRows``).
    case importedRows(batch: Int64, keys: [Int64])
    /// Every tag an expense of the ledger has or has had: the stores keep each tag once it is
    /// used. Written with the expenses that carry them, so saving or removing this writes nothing.
    /// Never in a change set (``RowKinds/tags``).
    case tags([String])

    public var key: RowKey {
        switch self {
        case .settings: .settings
        case .budget(let budget): .budget(budget.id ?? 0)
        case .recurringRule(let rule): .recurringRule(rule.id ?? 0)
        case .recurringPayment(let payment): .recurringPayment(ruleID: payment.ruleID, date: payment.date)
        case .importRule(let rule, _): .importRule(rule.id ?? 0)
        case .profile(let profile): .profile(nameKey: profile.nameKey)
        case .importRecord(let record): .importRecord(fingerprint: record.fingerprint)
        case .account(let account): .account(account.id ?? 0)
        case .income(let income): .income(income.id ?? 0)
        case .transfer(let transfer): .transfer(transfer.id ?? 0)
        case .balanceAssertion(let assertion): .balanceAssertion(accountID: assertion.accountID, date: assertion.date)
        case .serveToken(let token): .serveToken(name: token.name)
        case .alertLevel(let budgetID, let period, _): .alertLevel(budgetID: budgetID, period: period)
        case .importedRows(let batch, _): .importedRows(batch: batch)
        case .tags: .tags
        }
    }

    /// The kind's name for summaries, singular and plural.
    var noun: (one: String, many: String) {
        switch self {
        case .settings: ("settings", "settings")
        case .budget: ("budget", "budgets")
        case .recurringRule: ("recurring rule", "recurring rules")
        case .recurringPayment: ("recurring payment", "recurring payments")
        case .importRule: ("import rule", "import rules")
        case .profile: ("import profile", "import profiles")
        case .importRecord: ("import record", "import records")
        case .account: ("account", "accounts")
        case .income: ("income", "incomes")
        case .transfer: ("transfer", "transfers")
        case .balanceAssertion: ("balance assertion", "balance assertions")
        case .serveToken: ("serve token", "serve tokens")
        case .alertLevel: ("alert level", "alert levels")
        case .importedRows: ("imported row keys", "imported row keys")
        case .tags: ("tags", "tags")
        }
    }

    /// The rows this one needs to exist: undoing the change that created one of them must wait
    /// until this row is gone.
    var references: [RowKey] {
        switch self {
        case .recurringRule(let rule): [.budget(rule.budgetID)]
        case .recurringPayment(let payment): [.recurringRule(payment.ruleID)] + (payment.expenseID.map { [.expense($0)] } ?? [])
        case .importRule(let rule, let budgetID): rule.transferAccountID.map { [.account($0)] } ?? [.budget(budgetID)]
        case .income(let income): [.account(income.accountID)]
        case .transfer(let transfer): [.account(transfer.fromAccountID), .account(transfer.toAccountID)]
        case .balanceAssertion(let assertion): [.account(assertion.accountID)]
        case .settings(let settings): settings.defaultAccountID.map { [.account($0)] } ?? []
        case .budget(let budget): budget.target?.accountID.map { [.account($0)] } ?? []
        default: []
        }
    }
}

/// One row before and after a change: `nil` before for a row the change added, `nil` after for
/// one it removed.
public struct RowChange: Hashable, Sendable, Codable {
    public var before: RowImage?
    public var after: RowImage?

    public init(before: RowImage?, after: RowImage?) {
        self.before = before
        self.after = after
    }

    public var key: RowKey? { (after ?? before)?.key }

    /// The change that puts the row back.
    public var inverse: RowChange { RowChange(before: after, after: before) }
}

/// The ids of the expenses an import or a bulk write added, first to last: one change set holds
/// the range, not a copy of each row (the rows are there to read while the range is undone).
/// Undoing it may remove the range in bulk too (``ChangeContent/removedExpenses``).
public struct ExpenseIDRange: Hashable, Sendable, Codable {
    public var first: Int64
    public var last: Int64
    public var count: Int

    public init(first: Int64, last: Int64, count: Int) {
        self.first = first
        self.last = last
        self.count = count
    }

    public func contains(_ id: Int64) -> Bool { first <= id && id <= last }
}

/// The import row keys (``ImportRowKey``) a change added or removed. Each key remembers the
/// import that added it (`batch`, that import's change set id); an import records only the batch,
/// and undo reads the keys when it needs them.
public struct RowKeyChange: Hashable, Sendable, Codable {
    public var batch: Int64
    /// `nil`: every key of `batch`, not read yet.
    public var added: [Int64]?
    public var removed: [Int64]
    /// Every key of `batch` removed in bulk, the store keeping them beside the change set (as it
    /// keeps ``ChangeContent/removedExpenses``): what undoing an import does where `added` is nil.
    public var removedBatch: Bool

    public init(batch: Int64, added: [Int64]?, removed: [Int64] = [], removedBatch: Bool = false) {
        self.batch = batch
        self.added = added
        self.removed = removed
        self.removedBatch = removedBatch
    }

    /// The change that puts the keys back: the whole batch stays whole.
    var inverse: RowKeyChange {
        RowKeyChange(batch: batch, added: removedBatch ? nil : removed, removed: added ?? [], removedBatch: added == nil)
    }

    // Keys as packed columns (``PackedColumn``), as expenses are: undoing a million-row import
    // removes a million keys.
    private enum CodingKeys: String, CodingKey { case batch, added, addedCount, removed, removedCount, removedBatch }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        batch = try container.decode(Int64.self, forKey: .batch)
        func keys(_ key: CodingKeys, _ count: CodingKeys) throws -> [Int64]? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            let count = try container.decode(Int.self, forKey: count)
            return count == 0 ? [] : try PackedColumn.numbers(text, count: count, key)
        }
        added = try keys(.added, .addedCount)
        removed = try keys(.removed, .removedCount) ?? []
        removedBatch = try container.decodeIfPresent(Bool.self, forKey: .removedBatch) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(batch, forKey: .batch)
        if let added {
            try container.encode(PackedColumn.pack(added), forKey: .added)
            try container.encode(added.count, forKey: .addedCount)
        }
        try container.encode(PackedColumn.pack(removed), forKey: .removed)
        try container.encode(removed.count, forKey: .removedCount)
        if removedBatch { try container.encode(true, forKey: .removedBatch) }
    }
}

/// What a change set changed.
public struct ChangeContent: Hashable, Sendable, Codable {
    /// Every row but expenses: few, so each is kept whole.
    public var rows: [RowChange]
    /// Expenses as they were, for those the change edited or removed.
    public var expensesBefore: ExpenseImages
    /// Expenses as they became, for those the change edited or added one at a time.
    public var expensesAfter: ExpenseImages
    /// Expenses added in bulk, by id range.
    public var addedExpenses: ExpenseIDRange?
    /// Expenses removed in bulk, by id range: the store keeps their rows beside the change set
    /// (SQLite's `removedExpense`), so undoing a million-row import copies no row into the content.
    public var removedExpenses: ExpenseIDRange?
    public var rowKeys: RowKeyChange?
    /// Rows of the rate table the change saved over (`rates import`, `rates set`).
    public var rates: RateImages?

    public init(
        rows: [RowChange] = [], expensesBefore: ExpenseImages = ExpenseImages(), expensesAfter: ExpenseImages = ExpenseImages(),
        addedExpenses: ExpenseIDRange? = nil, removedExpenses: ExpenseIDRange? = nil, rowKeys: RowKeyChange? = nil,
        rates: RateImages? = nil
    ) {
        self.rows = rows
        self.expensesBefore = expensesBefore
        self.expensesAfter = expensesAfter
        self.addedExpenses = addedExpenses
        self.removedExpenses = removedExpenses
        self.rowKeys = rowKeys
        self.rates = rates
    }

    /// Whether the change changed nothing: such a command records no change set.
    public var isEmpty: Bool {
        rows.isEmpty && expensesBefore.isEmpty && expensesAfter.isEmpty && (addedExpenses?.count ?? 0) == 0
            && (removedExpenses?.count ?? 0) == 0
            && (rowKeys.map { ($0.added?.isEmpty ?? false) && $0.removed.isEmpty && !$0.removedBatch } ?? true)
            && (rates?.isEmpty ?? true)
    }

    /// The change that reverts this one. Bulk parts stay bulk: a range added becomes a range
    /// removed and back, and a batch of row keys stays a batch; the file and server stores keep
    /// the rows a bulk part removes beside its change set. (The in-memory store records images
    /// only, so it never meets a bulk part.)
    public func inverse() -> ChangeContent {
        ChangeContent(
            rows: rows.map(\.inverse).reversed(), expensesBefore: expensesAfter, expensesAfter: expensesBefore,
            addedExpenses: removedExpenses, removedExpenses: addedExpenses, rowKeys: rowKeys?.inverse, rates: rates?.inverse)
    }

    /// The bulk ranges, added or removed.
    var bulkRanges: [ExpenseIDRange] { [addedExpenses, removedExpenses].compactMap { $0 } }

    // MARK: - Touched rows

    /// Every row key the change touched, expenses by id (ranges aside).
    public var touchedKeys: Set<RowKey> {
        var keys = Set(rows.compactMap(\.key))
        for id in expensesBefore.ids { keys.insert(.expense(id)) }
        for id in expensesAfter.ids { keys.insert(.expense(id)) }
        if let rates { keys.formUnion(rates.keys) }
        return keys
    }

    /// Rows that must exist for this change's rows to exist.
    var referencedKeys: Set<RowKey> {
        var keys = Set(rows.compactMap(\.after).flatMap(\.references))
        for id in expensesAfter.budgetIDs { keys.insert(.budget(id)) }
        for id in expensesAfter.lineBudgetIDs { keys.insert(.budget(id)) }
        for id in expensesAfter.accountIDs { keys.insert(.account(id)) }
        return keys
    }

    /// The rows this change created, which undoing it removes.
    var createdKeys: Set<RowKey> {
        var keys = Set(rows.filter { $0.before == nil }.compactMap(\.key))
        let before = Set(expensesBefore.ids)
        for id in expensesAfter.ids where !before.contains(id) { keys.insert(.expense(id)) }
        return keys
    }

    /// Whether `later`, made after this change, touched a row this one touched, or needs a row
    /// this one created.
    public func isTouched(by later: ChangeContent) -> Bool {
        let mine = touchedKeys
        let theirs = later.touchedKeys
        if !mine.isDisjoint(with: theirs) { return true }
        if !createdKeys.isDisjoint(with: later.referencedKeys) { return true }
        for range in bulkRanges {
            if theirs.contains(where: { if case .expense(let id) = $0 { range.contains(id) } else { false } }) { return true }
            if later.bulkRanges.contains(where: { $0.first <= range.last && range.first <= $0.last }) { return true }
        }
        for range in later.bulkRanges
        where mine.contains(where: { if case .expense(let id) = $0 { range.contains(id) } else { false } }) {
            return true
        }
        return false
    }

    // MARK: - Summary

    /// "1 budget, 318 expenses removed; 1 expense changed". Recurring payments and import
    /// records follow the expenses they belong to, so they are not counted.
    public var countsPhrase: String {
        let kinds = ["settings", "budget", "expense", "recurring rule", "import rule", "import profile", "account", "income", "transfer",
                     "balance assertion", "rate"]
        let plural = ["settings": "settings", "budget": "budgets", "expense": "expenses", "recurring rule": "recurring rules",
                      "import rule": "import rules", "import profile": "import profiles", "account": "accounts", "income": "incomes",
                      "transfer": "transfers", "balance assertion": "balance assertions", "rate": "rates"]
        var counts: [String: [String: Int]] = ["added": [:], "changed": [:], "removed": [:]]
        for change in rows {
            guard let noun = (change.after ?? change.before)?.noun.one, plural[noun] != nil else { continue }
            let verb = change.before == nil ? "added" : change.after == nil ? "removed" : "changed"
            counts[verb, default: [:]][noun, default: 0] += 1
        }
        let before = Set(expensesBefore.ids), after = Set(expensesAfter.ids)
        let expenses = ["added": after.subtracting(before).count + (addedExpenses?.count ?? 0),
                        "changed": after.intersection(before).count,
                        "removed": before.subtracting(after).count + (removedExpenses?.count ?? 0)]
        for (verb, n) in expenses where n > 0 { counts[verb, default: [:]]["expense"] = n }
        if let rates {
            // A rate saved over another is changed; the inverse of an added one removes it. One
            // side's keys are among the other's (``RateImages``), so counts tell them apart
            // without hashing a quarter of a million keys.
            let replaced = rates.before.count, saved = rates.after.count
            for (verb, n) in [("added", max(saved - replaced, 0)), ("changed", min(saved, replaced)), ("removed", max(replaced - saved, 0))]
            where n > 0 {
                counts[verb, default: [:]]["rate"] = n
            }
        }
        var parts: [String] = []
        for verb in ["added", "changed", "removed"] {
            let words = kinds.compactMap { kind -> String? in
                guard let n = counts[verb]?[kind] else { return nil }
                return kind == "settings" ? "settings" : "\(n) \(n == 1 ? kind : plural[kind] ?? kind)"
            }
            if !words.isEmpty { parts.append(words.joined(separator: ", ") + " " + verb) }
        }
        return parts.isEmpty ? "nothing changed" : parts.joined(separator: "; ")
    }
}
