import Foundation
import TallyCore

/// Turns CSV records into validated expenses, following a header and the import options.
///
/// Only the cells a row needs become strings, and budget names are validated once per
/// distinct spelling, so mapping a million rows stays cheap.
struct CSVRowMapper {
    /// A timestamp placeholder: the store stamps imported expenses itself.
    static let placeholderDate = Date(timeIntervalSince1970: 0)

    let options: CSVImportOptions
    let fieldCount: Int
    private let date: Int
    var dateColumn: Int { date }
    private let name: Int
    private let amount: Int
    private let budget: Int?
    private let quantity: Int?
    private let tags: Int?
    private let by: Int?
    /// A mapped currency column and rate column (``CSVRowMapper+Currency.swift``).
    let currency: Int?
    let rate: Int?
    var currencies: [String: Currency] = [:]
    /// The `kind` column of Tally's own export of a ledger with incomes or transfers
    /// (``CSVExportWriter``); read only with the default header, not with `--columns`.
    private let kind: Int?
    /// The columns of Tally's own export of splits, refunds and other currencies, when the header
    /// has them all (``CSVLedgerColumns``); read only with the default header.
    private let ledgerColumns: CSVLedgerColumns.Positions?
    private var byNames: [String: String] = [:]
    let headerNames: [String]
    private let defaultBudget: String?
    private var budgetNames: [String: String] = [:]
    private var rules: RuleMatcher
    private let hasRefundRules: Bool
    /// Row keys: the layout's (or profile's) hash, the hash of each non-ASCII name met (bounded), and
    /// the occurrence numbers of identical rows.
    private let scope: UInt64
    private var nameHashes: [String: UInt64] = [:]
    private var occurrences = RowOccurrences()

    init(header: CSVRecord, options: CSVImportOptions) throws(TallyError) {
        let names = header.strings
        let resolved = try options.columns.resolve(header: names, line: header.line)
        guard let date = resolved[.date], let name = resolved[.name], let amount = resolved[.amount] else {
            throw .importFile(line: header.line, reason: "the header needs date, name and amount columns")
        }
        var defaultBudget: String?
        if let budgetName = options.defaultBudget {
            defaultBudget = try CSVRowMapper.validatedBudgetName(budgetName, option: true, line: 0)
        }
        // Without a budget column, rows find their budget through the rules and the fallback;
        // those that find none fail the import once the file is read.
        // A CSV file holds expenses only: transfer rules are for bank statements.
        rules = try RuleMatcher(options.rules.filter { $0.transferTo == nil })
        hasRefundRules = options.rules.contains { $0.refund }
        let trimmedNames = names.map { $0.trimmingCharacters(in: .whitespaces) }
        scope = ImportRowKey.scope(options.dedupeScope.map { "profile\u{1F}" + $0 } ?? "layout\u{1F}" + trimmedNames.joined(separator: "\u{1F}"))
        self.options = options
        self.fieldCount = names.count
        self.date = date
        self.name = name
        self.amount = amount
        self.budget = resolved[.budget]
        self.quantity = resolved[.quantity]
        self.tags = resolved[.tags]
        self.by = resolved[.by]
        let ledgerColumns = options.columns.isExplicit ? nil : CSVLedgerColumns.Positions(header: trimmedNames)
        // Tally's own export keeps `amount` in the ledger's currency and the original beside it.
        self.currency = ledgerColumns == nil ? resolved[.currency] : nil
        self.rate = ledgerColumns == nil ? resolved[.rate] : nil
        self.kind = options.columns.isExplicit ? nil : trimmedNames.firstIndex { ColumnMapping.key($0) == "kind" }
        self.ledgerColumns = ledgerColumns
        self.headerNames = trimmedNames
        self.defaultBudget = defaultBudget
    }

    mutating func map(_ record: CSVRecord) throws(TallyError) -> RowOutcome {
        if record.isBlank { return .skipped(.blankLine, line: record.line) }
        guard record.count == fieldCount else {
            throw .importFile(line: record.line, reason: "the row has \(record.count) fields but the header has \(fieldCount)")
        }
        let line = record.line
        var rowKind: EntryKind?
        if let kind { rowKind = try checkKind(record, kind) }

        // Tally's own `-12.50` on the fast path; anything else, and every cell of a file with a
        // decimal comma (where `12.50` is no amount), through `AmountFormat`.
        // A row in another currency is read in its own minor units, always through `AmountFormat`.
        let foreignCurrency = try rowCurrency(record)
        var fast: Int64?
        if foreignCurrency == nil, !options.amountFormat.decimalComma { fast = record.withBytes(at: amount) { CSVRowMapper.signedCents($0) } }
        let signed: Int64
        if let fast {
            signed = fast
        } else if let foreignCurrency {
            signed = try minorUnits(record, amount, in: foreignCurrency)
        } else {
            switch options.amountFormat.signedCents(record.string(at: amount)) {
            case .success(let cents): signed = cents
            case .failure(let problem):
                throw error(record, amount, problem.reason(decimalComma: options.amountFormat.decimalComma), hint: problem.hint)
            }
        }
        if signed == 0 { return .skipped(.zeroAmount, line: line) }
        // Money in is skipped, unless a refund rule takes it (``refundDecision(_:)``).
        var refund: RuleDecision?
        if (signed < 0) != (options.expenseSign == .negative) {
            guard let decision = try refundDecision(record) else { return .skipped(.incoming, line: line) }
            refund = decision
        }

        guard let day = record.withBytes(at: date, { options.dateFormat.day(from: CSVRowMapper.trimmed($0)) }) else {
            throw error(record, date, "use an existing day written as \(options.dateFormat.pattern)")
        }
        let given = try givenRate(record, foreign: foreignCurrency != nil)

        var quantityValue: Int64 = 1
        if let quantity, !record.isEmpty(at: quantity) {
            guard let value = record.withBytes(at: quantity, { CSVRowMapper.wholeNumber($0) }),
                (1...Expense.maximumQuantity).contains(value)
            else { throw error(record, quantity, "use a whole number from 1 to \(Expense.maximumQuantity), or leave it empty for 1") }
            quantityValue = value
        }

        var tagList: [String] = []
        if let tags, !record.isEmpty(at: tags) {
            tagList = record.withBytes(at: tags, CSVRowMapper.tagList)
        }

        // RFC 4180 lets a quoted cell hold line breaks and tabs; a name is one line.
        var rowName = record.string(at: name)
        let folded = record.withBytes(at: name) { bytes in bytes.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }
        if folded { rowName = CSVRowMapper.foldingWhitespace(rowName) }

        // The key reads the name as the file writes it, before a rule renames it.
        // ASCII names are hashed directly (cheaper than a cache lookup); others fold through
        // Foundation first, so their hashes are kept.
        let nameHash: UInt64
        if rowName.utf8.allSatisfy({ $0 < 0x80 }) {
            nameHash = ImportRowKey.nameHash(of: rowName)
        } else if let known = nameHashes[rowName] {
            nameHash = known
        } else {
            if nameHashes.count >= 16_384 { nameHashes.removeAll(keepingCapacity: true) }
            nameHash = ImportRowKey.nameHash(of: rowName)
            nameHashes[rowName] = nameHash
        }
        // A row in another currency is keyed by its amount as written and its code, never by
        // what it converts to: a new rate must not make an imported row new.
        // A refund is money back: keyed as an incoming row, so it never matches an expense.
        let base = ImportRowKey.base(
            scope: scope, day: day, cents: rowKind == .refund ? -signed : signed, nameHash: CSVRowMapper.keyed(nameHash, foreignCurrency))
        let rowKey = ImportRowKey.key(base: base, occurrence: occurrences.next(base))

        var budgetName: String
        var source = BudgetSource.cell
        var split: RuleDecision?
        if let refund {
            budgetName = refund.budget
            source = .rule(refund.ruleID)
            tagList += refund.tags
            if let rename = refund.rename { rowName = rename }
        } else if let cell = try budgetCell(record) {
            budgetName = cell
        } else if let decision = rules.decision(for: rowName) {
            budgetName = decision.budget
            split = decision.split.isEmpty ? nil : decision
            source = .rule(decision.ruleID)
            tagList += decision.tags
            if let rename = decision.rename { rowName = rename }
        } else if let defaultBudget {
            budgetName = defaultBudget
            source = options.tagsFallbackUncategorized ? .uncategorized : .fallback
            if options.tagsFallbackUncategorized { tagList.append(CSVImportOptions.uncategorizedTag) }
        } else {
            return .withoutBudget(line: line, name: rowName)
        }

        // The file's `by` wins over `--by` and the environment's default.
        let spender = try byCell(record) ?? options.by
        var draft = Expense(
            name: rowName, amount: Money(cents: foreignCurrency == nil ? signed.magnitudeClamped : 1),
            quantity: quantityValue, date: day, budgetID: 0, tags: tagList, by: spender,
            createdAt: CSVRowMapper.placeholderDate)
        draft.isRefund = refund != nil
        // A split rule's lines get their amounts as the row is validated; a row in another
        // currency's once it is converted (its stand-in amount would share nothing).
        if let split, foreignCurrency == nil { budgetName = split.apply(to: &draft) }
        var expense: Expense
        do {
            expense = try draft.validated()
            _ = try expense.total()
        } catch {
            let column: Int? =
                switch error {
                case .emptyName, .nameTooLong, .nameHasControlCharacters: name
                case .invalidTag: tags
                case .invalidQuantity: quantity
                default: amount
                }
            throw self.error(record, column ?? amount, error.errorDescription ?? "invalid value")
        }
        if let split, foreignCurrency != nil { budgetName = split.apply(to: &expense) }
        var imported = ImportedExpense(line: line, budgetName: budgetName, expense: expense, source: source, foldedName: folded, rowKey: rowKey)
        if let foreignCurrency {
            imported.foreign = ForeignRow(original: CurrencyAmount(minorUnits: signed.magnitudeClamped, currency: foreignCurrency), given: given)
        }
        if let ledgerColumns {
            try readLedgerColumns(record, ledgerColumns, kind: rowKind, into: &imported)
        } else if rowKind == .refund {
            imported.expense.isRefund = true
        }
        return .expense(imported)
    }

    /// The refund rule (`rule add … --refund`) the name of a row of money in matches, when the
    /// row has no budget cell: rules apply only to rows without one.
    private mutating func refundDecision(_ record: CSVRecord) throws(TallyError) -> RuleDecision? {
        guard hasRefundRules, try budgetCell(record) == nil else { return nil }
        var rowName = record.string(at: name)
        if record.withBytes(at: name, { bytes in bytes.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D } }) {
            rowName = CSVRowMapper.foldingWhitespace(rowName)
        }
        guard let decision = rules.decision(for: rowName), decision.refund else { return nil }
        return decision
    }

    /// A row of the `kind` column is an expense or a refund (or says nothing). An income or a transfer is
    /// refused rather than read as an expense or left out: a CSV import writes expenses only.
    private func checkKind(_ record: CSVRecord, _ column: Int) throws(TallyError) -> EntryKind? {
        let value = ColumnMapping.key(record.string(at: column))
        switch EntryKind(rawValue: value) {
        case .expense: return .expense
        case .refund: return .refund
        case .income, .transfer:
            throw error(record, column, "a CSV import reads expense rows only; incomes and transfers come back from a JSON export")
        case nil:
            guard !value.isEmpty else { return nil }
            throw error(record, column, "use \(EntryKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// The row's own budget, validated; `nil` when the file has no budget column or the cell is empty.
    private mutating func budgetCell(_ record: CSVRecord) throws(TallyError) -> String? {
        guard let budget, !record.withBytes(at: budget, { CSVRowMapper.trimmed($0).isEmpty }) else { return nil }
        let raw = record.string(at: budget)
        if let known = budgetNames[raw] { return known }
        let validated = try CSVRowMapper.validatedBudgetName(raw, option: false, line: record.line, column: headerNames[budget])
        budgetNames[raw] = validated
        return validated
    }

    /// The row's own `by`, validated once per spelling; `nil` when the file has no `by` column or
    /// the cell is empty.
    private mutating func byCell(_ record: CSVRecord) throws(TallyError) -> String? {
        guard let by, !record.withBytes(at: by, { CSVRowMapper.trimmed($0).isEmpty }) else { return nil }
        let raw = record.string(at: by)
        if let known = byNames[raw] { return known }
        let validated: String
        do {
            validated = try Expense.validatedBy(raw)
        } catch {
            throw self.error(record, by, error.errorDescription ?? "invalid name")
        }
        if byNames.count >= 16_384 { byNames.removeAll(keepingCapacity: true) }
        byNames[raw] = validated
        return validated
    }

    static func validatedBudgetName(_ raw: String, option: Bool, line: Int, column: String = "budget") throws(TallyError) -> String {
        do {
            return try Budget(name: raw, limit: Money(cents: 1), createdAt: placeholderDate).validated().name
        } catch {
            let reason = error.errorDescription ?? "invalid budget name"
            if option { throw .invalidImportOption(.defaultBudget, value: raw, reason: reason) }
            throw .importRow(line: line, column: column, value: raw, reason: reason)
        }
    }

    private func error(_ record: CSVRecord, _ column: Int, _ reason: String, hint: TallyError.ImportHint? = nil) -> TallyError {
        .importRow(line: record.line, column: headerNames[column], value: record.string(at: column), reason: reason, hint: hint)
    }

    // MARK: - Cells

    /// Runs of white space (line breaks and tabs included) as one space.
    static func foldingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var first = 0
        var last = bytes.count
        while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[first..<last])
    }

    /// Cents with their sign: `12.50`, `-12.50`, `+12.50`, and bank layouts with the sign after
    /// the number (`12.50-`). Anything else, such as grouping or currency symbols, is `nil`.
    static func signedCents(_ cell: UnsafeRawBufferPointer) -> Int64? {
        var bytes = trimmed(cell)
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        } else if let last = bytes.last, last == UInt8(ascii: "-") || last == UInt8(ascii: "+") {
            negative = last == UInt8(ascii: "-")
            bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast())
        }
        // Short amounts are small strings, stored inline without allocating.
        guard let money = try? Money(parsing: String(decoding: bytes, as: UTF8.self)) else { return nil }
        return negative ? -money.cents : money.cents
    }

    /// The pieces of a `;`-separated cell. Empty and blank pieces (`a;;b`, a trailing `;`) are
    /// dropped; the models judge the rest. Split on bytes: `;` is one byte in UTF-8 and never
    /// part of another character, and splitting by Character pays for grapheme breaking on every cell.
    static func tagList(_ cell: UnsafeRawBufferPointer) -> [String] {
        var tags: [String] = []
        var start = 0
        for end in 0...cell.count where end == cell.count || cell[end] == UInt8(ascii: ";") {
            let piece = UnsafeRawBufferPointer(rebasing: cell[start..<end])
            start = end + 1
            if piece.allSatisfy({ $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }) { continue }
            let tag = String(decoding: piece, as: UTF8.self)
            // Other white space is not ASCII and rare.
            if piece.contains(where: { $0 >= 0x80 }), tag.allSatisfy(\.isWhitespace) { continue }
            tags.append(tag)
        }
        return tags
    }

    static func wholeNumber(_ cell: UnsafeRawBufferPointer) -> Int64? {
        let bytes = trimmed(cell)
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }
}
