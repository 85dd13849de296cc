import Foundation

/// How to write one imported file; see ``DataAccess/importExpenses(_:rows:)``.
public struct ImportRequest: Hashable, Sendable {
    /// The file's name, for messages.
    public var source: String
    /// Import a file whose fingerprint is already recorded.
    public var force: Bool
    /// Budgets to create before the rows, such as those a JSON backup declares; one that already
    /// exists under the same name key is kept as it is.
    public var newBudgets: [Budget]
    /// Rows naming a budget that does not exist create it with this monthly limit; `nil` fails
    /// the import with ``TallyError/unknownBudgets(_:)`` listing every such name.
    public var missingBudgetLimit: Money?
    /// The settings of the ledger a backup was taken from. The import saves them inside its
    /// transaction, before any budget or row, only when the ledger holds no budget and no expense yet (a
    /// backup restored into an empty ledger); otherwise the ledger keeps its own. See
    /// ``ImportResolution/settingsToApply(ledgerHasExpenses:)``.
    public var settings: LedgerSettings?
    /// `newBudgets` keep their own `createdAt` (a backup's) instead of taking the import's
    /// timestamp: the first period of a rollover budget without a `start` depends on it.
    public var keepsCreationDates: Bool
    /// The recurring rules a backup declares, created after its budgets and rows only when the
    /// ledger has none (``DeclaredRecurringRule/restores(ledgerHasRules:)``).
    public var recurringRules: [DeclaredRecurringRule] = []
    /// Row-level dedupe (``ImportRowKeys``): the import fills in the keys it knows before reading
    /// rows and saves the new ones with them. A file whose fingerprint was recorded is then refused
    /// only when some of its rows were new, which means it was imported before rows had keys.
    /// `nil` for a JSON backup, which is refused whole when repeated.
    public var rowKeys: ImportRowKeys?
    /// Import rules to save after `newBudgets`, such as those a JSON backup carries; one equal
    /// to a rule the ledger has (same pattern, budget, tags, new name and priority) is skipped.
    public var newRules: [ImportRule] = []
    /// Import profiles to save, such as those a JSON backup carries; one whose name the ledger
    /// already uses (ignoring case and diacritics) is skipped: the ledger keeps its own.
    public var newProfiles: [ImportProfile] = []
    /// Accounts with their incomes, transfers and assertions, such as a JSON backup or `db copy`
    /// carries: written after the rows, in the same transaction, by ``LedgerRows/restore(_:)``.
    public var accounts = DeclaredAccounts()
    /// Incomes, transfers and balance assertions known only once `rows` has run, such as a bank
    /// statement's, read as its expenses are written: written after the rows, in the same
    /// transaction (``ImportResolution/restoreLateAccounts(into:)``).
    public var lateAccounts: LateDeclaredAccounts?
    /// Exchange rates a backup or `db copy` carries, saved in the same transaction as its rows,
    /// each replacing the ledger's rate of its day and pair; undoing the import takes them back
    /// (``RateImages``).
    public var rates: [DayRate] = []

    public init(
        source: String, force: Bool = false, newBudgets: [Budget] = [], missingBudgetLimit: Money? = nil,
        settings: LedgerSettings? = nil, keepsCreationDates: Bool = false, rowKeys: ImportRowKeys? = nil
    ) {
        self.rowKeys = rowKeys
        self.source = source
        self.force = force
        self.newBudgets = newBudgets
        self.missingBudgetLimit = missingBudgetLimit
        self.settings = settings
        self.keepsCreationDates = keepsCreationDates
    }

    /// When a budget of `newBudgets` was created: its own `createdAt` (to the millisecond, as
    /// stores keep it) when the request keeps creation dates, else `importedAt`.
    public func creationDate(ofDeclared budget: Budget, importedAt: Date) -> Date {
        keepsCreationDates ? budget.createdAt.roundedToMilliseconds : importedAt
    }
}

/// ``ImportRequest/lateAccounts``: filled by the import's `rows`, read after them.
/// A class, as ``ImportRowKeys`` is, because both sides hold it; they never touch it at once.
public final class LateDeclaredAccounts: @unchecked Sendable, Hashable {
    public var declared = DeclaredAccounts()

    public init() {}

    public static func == (lhs: LateDeclaredAccounts, rhs: LateDeclaredAccounts) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What an import wrote.
public struct ImportOutcome: Hashable, Sendable {
    public var importedCount: Int
    /// Names of the budgets the import created, in the order it created them.
    public var createdBudgets: [String]

    public init(importedCount: Int, createdBudgets: [String]) {
        self.importedCount = importedCount
        self.createdBudgets = createdBudgets
    }
}

/// A file the store remembers having imported.
public struct ImportRecord: Hashable, Sendable, Codable {
    /// SHA-256 of the file's bytes, as hex.
    public var fingerprint: String
    public var importedAt: Date
    public var expenseCount: Int

    public init(fingerprint: String, importedAt: Date, expenseCount: Int) {
        self.fingerprint = fingerprint
        self.importedAt = importedAt
        self.expenseCount = expenseCount
    }
}

/// Hands one imported row to the store: a validated expense and the name of its budget.
public typealias ImportInsert = (_ expense: Expense, _ budgetName: String) throws(TallyError) -> Void

/// The import's decisions, which the import (``DataAccess/importExpenses(_:rows:)``, inside its
/// transaction) and the dry run follow: it saves the budgets this hands it, writes each row
/// whose budgets resolve, and looks up and records the file's fingerprint around
/// ``finish(earlier:importedCount:)``.
public struct ImportResolution {
    private let request: ImportRequest
    private var resolver: ImportBudgetResolver
    /// The once budgets by id: their rows must fall within their range.
    private var onceBudgets: [Int64: Budget] = [:]
    /// Whether the ledger held no budget when the import began.
    private let hadNoBudget: Bool
    /// Names of the budgets created so far, in order.
    public private(set) var createdBudgets: [String] = []
    /// The ids of `request.accounts`' accounts, in their order, once restored.
    private var declaredAccountIDs: [Int64] = []
    /// Budgets created without their target's account, which a placeholder named: linked once
    /// the accounts are there (``restoreDeclaredAccounts(into:)``).
    private var pendingGoalAccounts: [(budget: Budget, placeholder: Int64)] = []

    public init(request: ImportRequest, existing: [Budget]) {
        self.request = request
        hadNoBudget = existing.isEmpty
        resolver = ImportBudgetResolver(existing: existing)
        for budget in existing where budget.period == .once { onceBudgets[budget.id ?? 0] = budget }
    }

    /// The settings the import saves first, before ``createDeclaredBudgets(_:)``: the request's when
    /// the ledger holds no budget (as it was when this resolution was made) and no expense, as
    /// when a backup is restored into an empty ledger; `nil` otherwise, and the ledger keeps its
    /// own settings, which its figures were made with.
    public func settingsToApply(ledgerHasExpenses: Bool) -> LedgerSettings? {
        guard hadNoBudget && !ledgerHasExpenses, var settings = request.settings else { return nil }
        // The accounts come later: the declared default account is set once they are there
        // (``restoreDeclaredAccounts(into:)``).
        settings.defaultAccountID = nil
        return settings
    }

    /// Creates `request.newBudgets` that do not exist yet, in order, through `create` (which saves one validated budget and returns it with its id).
    public mutating func createDeclaredBudgets(_ create: (Budget) throws(TallyError) -> Budget) throws(TallyError) {
        for budget in request.newBudgets {
            var budget = try budget.validated()
            guard !resolver.contains(budget) else { continue }
            // A target's declared account has no id yet.
            let placeholder = budget.target?.accountID.flatMap { $0 < 0 ? $0 : nil }
            if placeholder != nil { budget.target?.accountID = nil }
            let saved = try create(budget)
            if let placeholder { pendingGoalAccounts.append((saved, placeholder)) }
            resolver.register(saved)
            if saved.period == .once { onceBudgets[saved.id ?? 0] = saved }
            createdBudgets.append(saved.name)
        }
    }

    /// Saves `request.newRules` the ledger does not have yet, in order, through `create` (which
    /// saves one validated rule for the budget id it is given). A rule naming a missing budget
    /// is remembered as missing, like a row's. Returns how many were saved.
    @discardableResult
    public mutating func createDeclaredRules(
        existing: [ImportRule], _ create: (ImportRule, Int64) throws(TallyError) -> Void
    ) throws(TallyError) -> Int {
        var known = Set(existing.map(\.identity))
        var saved = 0
        // Transfer rules name accounts, which come later (``restoreDeclaredAccounts(into:)``).
        for rule in request.newRules where rule.transferTo == nil {
            var rule = try rule.validated()
            guard known.insert(rule.identity).inserted else { continue }
            guard let budgetID = resolver.id(for: rule.budget) else {
                resolver.markMissing(rule.budget)
                continue
            }
            let lines = rule.split.map { resolver.id(for: $0.budget) }
            if let missing = rule.split.indices.first(where: { lines[$0] == nil }) {
                resolver.markMissing(rule.split[missing].budget)
                continue
            }
            rule.splitBudgetIDs = lines.compactMap { $0 }
            try create(rule, budgetID)
            saved += 1
        }
        return saved
    }

    /// The profiles of `request.newProfiles` to save, validated: those whose name `existing` does
    /// not use yet, the first of each name.
    public func profilesToSave(existing: [ImportProfile]) throws(TallyError) -> [ImportProfile] {
        var taken = Set(existing.map(\.nameKey))
        var result: [ImportProfile] = []
        for profile in request.newProfiles {
            let profile = try profile.validated()
            if taken.insert(profile.nameKey).inserted { result.append(profile) }
        }
        return result
    }

    /// The id of the budget `name` names, for a row dated `day` (which a once budget must
    /// cover); a missing one is created through `create` with the request's limit, or remembered
    /// as missing (nil: the row is not written).
    public mutating func budgetID(
        for name: String, on day: Day? = nil, create: (Budget) throws(TallyError) -> Budget
    ) throws(TallyError) -> Int64? {
        var budgetID = resolver.id(for: name)
        if budgetID == nil, let limit = request.missingBudgetLimit {
            let saved = try create(try Budget(name: name, limit: limit).validated())
            resolver.register(saved, spelling: name)
            createdBudgets.append(saved.name)
            budgetID = saved.id
        }
        guard let budgetID else {
            resolver.markMissing(name)
            return nil
        }
        if let day, let once = onceBudgets[budgetID] { try once.checkAccepts(day) }
        return budgetID
    }

    /// The id the next row written gets, set before the row loop (ids run on from it in the
    /// order rows are written); 0 when unknown. A document's refund then links
    /// to the new id of the expense it returns, as exported ids are not kept.
    public var nextExpenseID: Int64 = 0
    /// Each written row's exported id, to its new id.
    private var newIDs: [Int64: Int64] = [:]

    /// A split row names each line's budget, joined by ``lineSeparator`` (which names cannot
    /// hold), where a plain row names its one budget: the documents write them so.
    public static let lineSeparator: Character = "\u{1E}"

    /// Sets `expense`'s budget, or each of its lines' budgets, from `name`
    /// (``budgetID(for:on:create:)``); `false` when one is missing and the row is not written.
    public mutating func resolveBudgets(
        of expense: inout Expense, named name: String, create: (Budget) throws(TallyError) -> Budget
    ) throws(TallyError) -> Bool {
        guard try resolveBudgetIDs(of: &expense, named: name, create: create) else { return false }
        guard nextExpenseID != 0 else { return true }
        if expense.isRefund, let original = expense.refundOf, let renumbered = newIDs[original] { expense.refundOf = renumbered }
        if let exported = expense.id { newIDs[exported] = nextExpenseID }
        nextExpenseID += 1
        return true
    }

    private mutating func resolveBudgetIDs(
        of expense: inout Expense, named name: String, create: (Budget) throws(TallyError) -> Budget
    ) throws(TallyError) -> Bool {
        guard name.contains(Self.lineSeparator) else {
            guard let id = try budgetID(for: name, on: expense.date, create: create) else { return false }
            expense.budgetID = id
            return true
        }
        let names = name.split(separator: Self.lineSeparator).map(String.init)
        guard names.count == expense.lines.count else { throw .split(.tooFewLines) }
        for (index, line) in names.enumerated() {
            guard let id = try budgetID(for: line, on: expense.date, create: create) else { return false }
            expense.lines[index].budgetID = id
        }
        expense.budgetID = expense.lines[0].budgetID
        return true
    }

    /// Writes `request.accounts` (``LedgerRows/restore(_:)``) before the rows, so that rows can
    /// name them.
    public mutating func restoreDeclaredAccounts(into rows: any LedgerRows) throws(TallyError) {
        guard !request.accounts.isEmpty else { return }
        declaredAccountIDs = try rows.restore(request.accounts)
        for (budget, placeholder) in pendingGoalAccounts {
            let place = Int(-(placeholder + 1))
            guard declaredAccountIDs.indices.contains(place) else { throw .storage("an imported budget's target names an account not declared") }
            var linked = budget
            linked.target?.accountID = declaredAccountIDs[place]
            _ = try rows.save(.budget(linked))
        }
        // The transfer rules of `request.newRules`, now that their accounts are there; one equal
        // to a rule the ledger has is skipped, as budget rules are.
        let transferRules = request.newRules.filter { $0.transferTo != nil }
        guard !transferRules.isEmpty else { return }
        var known = Set(try rows.importRules().map(\.identity))
        let book = try rows.accountBook(withEntries: false)
        for rule in transferRules {
            var rule = try rule.validated()
            guard known.insert(rule.identity).inserted else { continue }
            rule.id = nil
            rule.transferAccountID = try book.account(named: rule.transferTo ?? "").id
            try rows.save(.importRule(rule, budgetID: 0))
        }
    }

    /// Writes ``ImportRequest/lateAccounts`` once the rows are in, after the row loop. Its
    /// entries name accounts the ledger has.
    public func restoreLateAccounts(into rows: any LedgerRows) throws(TallyError) {
        guard let late = request.lateAccounts?.declared, !late.isEmpty else { return }
        try rows.restore(late)
    }

    /// An expense naming a declared account by its placeholder
    /// (``DeclaredAccounts/placeholder(forAccountNamed:)``) gets that account's id; one that
    /// names an account by id keeps it.
    public func resolveAccount(of expense: inout Expense) throws(TallyError) {
        guard let id = expense.accountID, id < 0 else { return }
        let place = Int(-(id + 1))
        guard declaredAccountIDs.indices.contains(place) else { throw .storage("an imported expense names an account not declared") }
        expense.accountID = declaredAccountIDs[place]
    }

    /// Throws `unknownBudgets` listing every missing name, else `alreadyImported` when `earlier` is
    /// a record of the same file and the request does not force, unless the request dedupes rows
    /// and `importedCount` is 0: every row of the file was found already there.
    public func finish(earlier: ImportRecord?, importedCount: Int = 1) throws(TallyError) {
        let missing = resolver.missingNames
        guard missing.isEmpty else { throw .unknownBudgets(missing) }
        if let earlier, !request.force, request.rowKeys == nil || importedCount > 0 {
            throw .alreadyImported(file: request.source, importedAt: earlier.importedAt, expenseCount: earlier.expenseCount)
        }
    }
}

/// Resolves budget names of imported rows the way both stores must: by name key, folding
/// each distinct spelling only once. ``ImportResolution`` is built on it.
struct ImportBudgetResolver {
    private var idsByKey: [String: Int64] = [:]
    private var idsBySpelling: [String: Int64] = [:]
    /// Missing budgets by name key, with the first spelling met.
    private var missing: [String: String] = [:]
    private var missingSpellings: Set<String> = []

    init(existing budgets: [Budget]) {
        for budget in budgets { register(budget) }
    }

    func contains(_ budget: Budget) -> Bool { idsByKey[budget.nameKey] != nil }

    mutating func register(_ budget: Budget, spelling: String? = nil) {
        idsByKey[budget.nameKey] = budget.id ?? 0
        if let spelling { idsBySpelling[spelling] = budget.id ?? 0 }
    }

    /// The id of the budget `name` names; `nil` when no such budget exists yet.
    mutating func id(for name: String) -> Int64? {
        if let known = idsBySpelling[name] { return known }
        if missingSpellings.contains(name) { return nil }
        let key = NameKey.lookup(name)
        guard let existing = idsByKey[key] else { return nil }
        idsBySpelling[name] = existing
        return existing
    }

    /// Remembers that `name` names no budget, to list it in the error.
    mutating func markMissing(_ name: String) {
        guard missingSpellings.insert(name).inserted else { return }
        let key = NameKey.lookup(name)
        if missing[key] == nil { missing[key] = name }
    }

    /// The missing budget names, ordered by name key.
    var missingNames: [String] { missing.sorted { $0.key < $1.key }.map(\.value) }
}
