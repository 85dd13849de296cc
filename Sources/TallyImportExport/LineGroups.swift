import TallyCore

/// Puts the consecutive rows of one split expense (the same `id`, each with its line amount:
/// ``CSVLedgerColumns``) back together as one expense, before anything downstream sees them:
/// counts, dedupe and the store meet the whole receipt, never a line.
///
/// The rows must agree on everything but their lines' columns, and their line amounts must be
/// what their shares give of the total; else the import fails on the first row that does not.
struct LineGroups {
    private var rows: [ImportedExpense] = []

    /// Hands `outcome` on, after the group it ends; a split's row is held until its group ends.
    mutating func take(_ outcome: RowOutcome, _ body: (RowOutcome) throws(TallyError) -> Void) throws(TallyError) {
        if case .expense(let row) = outcome, row.pendingLine != nil {
            if let first = rows.first, first.expense.id != row.expense.id { try finish(body) }
            guard rows.count < ExpenseLines.maximumLines else {
                throw .importRow(line: row.line, column: "id", value: row.expense.id.map(String.init) ?? "", reason: SplitProblem.tooManyLines(rows.count + 1).message)
            }
            rows.append(row)
            return
        }
        try finish(body)
        try body(outcome)
    }

    /// Hands on the group held, if any: at the end of the file, and before any other row.
    mutating func finish(_ body: (RowOutcome) throws(TallyError) -> Void) throws(TallyError) {
        guard !rows.isEmpty else { return }
        let grouped = try Self.expense(of: rows)
        rows.removeAll(keepingCapacity: true)
        try body(.expense(grouped))
    }

    /// One expense of its rows' lines, checked and keyed as a whole.
    static func expense(of rows: [ImportedExpense]) throws(TallyError) -> ImportedExpense {
        let first = rows[0]
        let id = first.expense.id.map(String.init) ?? ""
        for row in rows.dropFirst() {
            if let differing = difference(row.expense, first.expense) {
                throw .importRow(
                    line: row.line, column: differing.column, value: differing.value,
                    reason: "differs from line \(first.line), expense \(id)'s first line: the lines of a split share all but their line's columns")
            }
        }
        var expense = first.expense
        expense.lines = rows.compactMap(\.pendingLine)
        let validated: Expense
        do {
            validated = try expense.validated()
        } catch {
            let reason = if case .split(let problem) = error { problem.message } else { error.errorDescription ?? "invalid split" }
            throw .importRow(line: first.line, column: "id", value: id, reason: "expense \(id)'s lines: \(reason)")
        }
        for (row, line) in zip(rows, validated.lines) where row.pendingLine?.amount != line.amount {
            throw .importRow(
                line: row.line, column: "line amount", value: row.pendingLine?.amount.plainString ?? "",
                reason: "is not the line's share \(line.share.text) of the total \(((try? expense.total()) ?? .zero).plainString) (\(line.amount.plainString))")
        }
        // The whole receipt's key: its rows' keys and each line's budget, amount and share.
        var hash = ImportRowKey.Hash()
        for row in rows {
            hash.add(UInt64(bitPattern: row.rowKey ?? 0))
            hash.add(NameKey.make(row.budgetName))
            hash.add(UInt64(bitPattern: row.pendingLine?.amount.cents ?? 0))
            hash.add(row.pendingLine?.share.text ?? "")
        }
        var grouped = ImportedExpense(
            line: first.line, budgetName: rows.map(\.budgetName).joined(separator: String(ImportResolution.lineSeparator)), expense: validated,
            source: .cell, foldedName: first.foldedName, rowKey: first.rowKey == nil ? nil : ImportRowKey.key(base: hash.value, occurrence: 0))
        grouped.foreign = first.foreign
        return grouped
    }

    /// The first of the expense's own fields where `row` differs from `first`, as its column and
    /// cell; `nil` when they agree.
    private static func difference(_ row: Expense, _ first: Expense) -> (column: String, value: String)? {
        if row.date != first.date { return ("date", row.date.isoString) }
        if row.name != first.name { return ("name", row.name) }
        if row.amount != first.amount { return ("amount", row.amount.plainString) }
        if row.quantity != first.quantity { return ("quantity", String(row.quantity)) }
        if row.tags != first.tags { return ("tags", row.tags.joined(separator: ";")) }
        if row.by != first.by { return ("by", row.by) }
        if row.foreign != first.foreign { return ("original", row.foreign?.original.description ?? "") }
        if row.isRefund != first.isRefund { return ("kind", row.isRefund ? "refund" : "expense") }
        return nil
    }
}
