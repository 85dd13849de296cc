import Foundation

/// What a store's ``LedgerRows`` keeps of the transaction it runs in: its time, whether it may
/// write, and what it wrote, which the store records in the change set.
public final class RowsTransaction {
    public let timestamp: Date
    public let writable: Bool
    public private(set) var inserted: [Expense] = []
    public private(set) var removed: [Expense] = []
    /// The rows of ``capturedKinds`` as they were before the transaction's first write that may
    /// change one of them: a write of expenses alone reads none, and an income's write reads
    /// the incomes and transfers, not every row.
    public private(set) var imagesBefore: [RowImage] = []
    public private(set) var capturedKinds: RowKinds = []
    /// The incomes and transfers the transaction wrote, each with what it was: a ledger holds
    /// tens of thousands, so their kind is never read whole for the change set; the store says
    /// what each write replaced (``wrote(entry:after:)``).
    private var entryChanges: [RowKey: RowChange] = [:]

    /// What the transaction's rate writes changed (``LedgerRows/writeRates(removing:saving:)``).
    public var rates = RateImages()
    /// Whether the transaction recorded its change set itself (``LedgerRows/record(_:)``): then
    /// ``record(into:imagesAfter:)`` adds nothing.
    public private(set) var recordsItself = false

    public init(at timestamp: Date, writable: Bool) {
        self.timestamp = timestamp
        self.writable = writable
    }

    /// Expenses about to be inserted, stamped with the transaction's time; throws in a read
    /// transaction.
    public func stampedForInsert(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        try checkWritable()
        return expenses.map { expense in
            var expense = expense
            expense.createdAt = timestamp
            expense.updatedAt = timestamp
            return expense
        }
    }

    /// ``LedgerRows/save(_:)-([Expense])`` as every store makes it: the new expenses through
    /// `insert` (in one call when all are new), which stamps and notes them; each one with an id
    /// through `replace`, which returns it as it was (`nil` when it puts a removed one back),
    /// noted here.
    public func save(
        _ expenses: [Expense], insert: ([Expense]) throws(TallyError) -> [Expense], replace: (Expense) throws(TallyError) -> Expense?
    ) throws(TallyError) -> [Expense] {
        guard expenses.contains(where: { $0.id != nil }) else { return try insert(expenses) }
        var saved: [Expense] = []
        for expense in expenses {
            guard expense.id != nil else {
                saved += try insert([expense])
                continue
            }
            try checkWritable()
            if let before = try replace(expense) { try removing([before]) }
            inserted([expense])
            saved.append(expense)
        }
        return saved
    }

    /// Notes that the transaction recorded its change set itself; throws in a read transaction.
    public func recordedItself() throws(TallyError) {
        try checkWritable()
        recordsItself = true
    }

    /// Throws in a read transaction.
    public func checkWritable() throws(TallyError) {
        guard writable else { throw .storage("a read transaction cannot write") }
    }

    /// Called before a write that may change rows of `kinds` (its own or through a cascade,
    /// ``RowImage/touchedKinds``): keeps the rows of the kinds not kept yet, as they are, for
    /// the change set.
    public func willChangeRows(_ kinds: RowKinds, _ images: (RowKinds) throws(TallyError) -> [RowImage]) throws(TallyError) {
        try checkWritable()
        let missing = kinds.subtracting(capturedKinds)
        guard !missing.isEmpty else { return }
        imagesBefore += try images(missing)
        capturedKinds.formUnion(missing)
    }

    /// Notes an income or transfer written: as it was (`nil` for a new one) and as it is (`nil`
    /// once removed). The first write of a row keeps what it was before the transaction.
    public func wrote(entry before: RowImage?, after: RowImage?) throws(TallyError) {
        try checkWritable()
        guard let key = (after ?? before)?.key else { return }
        entryChanges[key] = RowChange(before: entryChanges[key].map(\.before) ?? before, after: after)
    }

    /// Notes expenses saved, under new ids or over their earlier selves, for ``record(into:imagesAfter:)``.
    public func inserted(_ saved: [Expense]) {
        inserted += saved
    }

    /// Notes expenses about to be removed or replaced, for ``record(into:imagesAfter:)``.
    public func removing(_ expenses: [Expense]) throws(TallyError) {
        try checkWritable()
        removed += expenses
    }

    /// How many new expenses make a bulk write, which the change set holds as a range of ids
    /// (``ChangeContent/addedExpenses``) instead of a copy of each: the rows are there to read
    /// while it stands, and undo moves them aside whole.
    public static let bulkInsert = 1_000

    /// Adds what the transaction wrote to its change set: the expenses it removed and saved, and
    /// the difference between ``imagesBefore`` and `imagesAfter` of the same kinds, read only when
    /// there is one.
    public func record(into content: inout ChangeContent, imagesAfter: (RowKinds) throws(TallyError) -> [RowImage]) throws(TallyError) {
        guard !recordsItself else { return }
        if !rates.isEmpty { content.rates = rates }
        if removed.isEmpty, inserted.count >= Self.bulkInsert, let first = inserted.first?.id, let last = inserted.last?.id,
            last - first + 1 == Int64(inserted.count)
        {
            content.addedExpenses = ExpenseIDRange(first: first, last: last, count: inserted.count)
        } else {
            for expense in removed { content.expensesBefore.append(expense) }
            for expense in inserted { content.expensesAfter.append(expense) }
        }
        var rows = capturedKinds.isEmpty ? [] : RowDiff.changes(from: imagesBefore, to: try imagesAfter(capturedKinds))
        rows += entryChanges.values.filter { $0.before != $0.after }
        content.rows += rows.sorted { ($0.key ?? .settings) < ($1.key ?? .settings) }
    }
}

extension RowImage {
    /// The kinds a write of this row may change: its own, and those its removal cascades to.
    public var touchedKinds: RowKinds {
        switch self {
        case .settings: .settings
        // A budget's later limits and alert memory are part of its image.
        case .budget: .budgets
        case .recurringRule, .recurringPayment: .recurring
        case .importRule: .importRules
        case .profile: .profiles
        case .importRecord: .importRecords
        // The settings' default account is set to none when the account goes.
        case .account: [.accounts, .settings]
        // Written one by one, each noted with what it replaced (`RowsTransaction.wrote(entry:after:)`).
        case .income, .transfer: []
        case .balanceAssertion: .assertions
        // Outside the history: nothing is kept for the change set.
        case .serveToken, .alertLevel, .importedRows, .tags: []
        }
    }

    /// What removing expenses may change: the paid occurrences that named them.
    public static let kindsExpenseRemovalTouches: RowKinds = .recurring
}
