import Foundation
import TallyCore

public enum ImportFormat: String, CaseIterable, Hashable, Sendable {
    case csv, json

    /// The format a file's extension names, if any.
    public init?(path: String) {
        self.init(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
    }
}

/// Where an import reads from; it can be opened again for the second pass.
public struct ImportInput: Sendable {
    /// The path, or another name for messages.
    public let name: String
    let open: @Sendable () throws(TallyError) -> any ByteSource

    public static func file(_ path: String) -> ImportInput {
        ImportInput(name: path) { () throws(TallyError) -> any ByteSource in try FileSource(path: path) }
    }

    /// Bytes in memory, handed out `chunkSize` at a time; for tests.
    public static func bytes(_ bytes: [UInt8], chunkSize: Int = .max, name: String = "input") -> ImportInput {
        ImportInput(name: name) { () throws(TallyError) -> any ByteSource in MemorySource(bytes, chunkSize: chunkSize) }
    }
}

/// What a file holds, found by the first pass without keeping any row.
public struct ImportSummary: Hashable, Sendable {
    public struct BudgetCount: Hashable, Sendable {
        /// The first spelling met in the file.
        public var name: String
        public var expenseCount: Int
    }

    /// Expenses per budget, ordered by name key; budgets that differ only in case or
    /// diacritics are one entry, as they are one budget in the store.
    public var budgets: [BudgetCount]
    public var skipped: [SkipReason: Int]
    /// Rows per rule, fallback and uncategorized; names folded onto one line.
    public var assignments = ImportAssignments()
    /// Budgets a JSON document declares, validated; empty for CSV.
    public var declaredBudgets: [Budget]
    /// Import rules a JSON document carries, validated; empty for CSV.
    public var declaredRules: [ImportRule] = []
    /// Import profiles a JSON document carries, validated; empty for CSV.
    public var declaredProfiles: [ImportProfile] = []
    /// The ledger settings a JSON document carries, validated; `nil` for CSV and for documents
    /// written before version 2.
    public var declaredSettings: LedgerSettings? = nil
    /// Whether the declared budgets carry their creation times, for the import to keep.
    public var keepsCreationDates = false
    /// The recurring rules a JSON backup declares.
    public var declaredRecurringRules: [DeclaredRecurringRule] = []
    /// The accounts, incomes, transfers and balance assertions a JSON backup declares.
    public var declaredAccounts = DeclaredAccounts()
    /// The exchange rates a JSON backup carries (version 9).
    public var declaredRates: [DayRate] = []
    /// Lines above a CSV file's header, and summary lines after its last row, left out.
    public var frame = CSVFrame()
    /// The days on which rows in each other currency need the table's rate (rows without a rate
    /// cell), for the use case to look the rates up before it writes.
    public var tableRateDays: [Currency: Set<Day>] = [:]
    /// SHA-256 of the file's bytes, as 64 hex digits.
    public var fingerprint: String
    public var byteCount: UInt64

    /// Expenses in the file: a split counts once, though it counts in each of its lines' budgets.
    public var expenseCount: Int { budgets.reduce(0) { $0 + $1.expenseCount } - splitLinesBeyondFirst }
    /// A split's lines after its first, over the file; what ``budgets`` counts more than once.
    var splitLinesBeyondFirst = 0
    public var skippedCount: Int { skipped.values.reduce(0, +) }
    /// Every budget name the expenses refer to.
    public var budgetNames: [String] { budgets.map(\.name) }
}

/// A validated file, ready for the store to write in one transaction.
public struct ImportPlan: Sendable {
    public let input: ImportInput
    public let format: ImportFormat
    public let options: CSVImportOptions
    public let summary: ImportSummary
    /// The decoded JSON document; CSV rows are read again from the file instead.
    let document: LedgerDocument?
    let bufferSize: Int
}

/// Validates an import in one streaming pass, then replays it for the store.
///
/// The store's import is meant to look like this, all in one transaction:
/// ```swift
/// let plan = try ImportPlanner.plan(.file(path), format: .csv, options: options)
/// try store.importExpenses(fingerprint: plan.summary.fingerprint, force: force, newBudgets: budgets) { insert in
///     try ImportPlanner.forEachExpense(in: plan) { row throws(TallyError) in try insert(row.expense, row.budgetName) }
/// }
/// ```
public enum ImportPlanner {
    /// Reads the whole input once: every row is mapped and validated, nothing is kept but counts.
    /// Throws the first bad row, naming its line, column and value.
    public static func plan(
        _ input: ImportInput, format: ImportFormat, options: CSVImportOptions = CSVImportOptions(),
        bufferSize: Int = CSVReader.defaultBufferSize
    ) throws(TallyError) -> ImportPlan {
        try streamingPass(input, format: format, options: options, bufferSize: bufferSize) { _ in }
    }

    /// One pass that both hands every expense to `body` and returns the plan, for a store that
    /// writes inside a transaction and rolls back on any error: half the work of plan-then-replay.
    /// Unknown budgets and a repeated fingerprint are then found at the end, before the commit.
    public static func importInOnePass(
        _ input: ImportInput, format: ImportFormat, options: CSVImportOptions = CSVImportOptions(),
        bufferSize: Int = CSVReader.defaultBufferSize, _ body: (ImportedExpense) throws(TallyError) -> Void
    ) throws(TallyError) -> ImportPlan {
        try streamingPass(input, format: format, options: options, bufferSize: bufferSize, body)
    }

    /// Whether a CSV import with `options` reads each row's currency: a mapped `currency`
    /// column, or under the default header one the file's header names (not in Tally's own
    /// export, whose `currency` is the original's). Reads no further than the header.
    public static func readsRowCurrencies(_ input: ImportInput, options: CSVImportOptions) throws(TallyError) -> Bool {
        guard options.columns.columns[.currency] != nil else { return false }
        guard !options.columns.isExplicit else { return true }
        func header(_ source: some ByteSource) throws(CSVError) -> [String] {
            let reader = options.encoding == .utf8
                ? CSVReader(source: source, delimiter: options.delimiter)
                : CSVReader(source: TranscodingSource(source, encoding: options.encoding), delimiter: options.delimiter)
            return try HeaderSearch.header(reader, columns: options.columns, skip: options.skipLines).0.strings.map(ColumnMapping.key)
        }
        let names: [String]
        do {
            names = try header(try input.open())
        } catch {
            // The import itself reads the header again and says what is wrong with it.
            return false
        }
        return names.contains(ColumnMapping.key(ImportField.currency.rawValue)) && CSVLedgerColumns.Positions(header: names) == nil
    }

    private static func streamingPass(
        _ input: ImportInput, format: ImportFormat, options: CSVImportOptions, bufferSize: Int,
        _ body: (ImportedExpense) throws(TallyError) -> Void
    ) throws(TallyError) -> ImportPlan {
        let source = FingerprintingSource(try input.open())
        var tally = BudgetTally()
        var document: LedgerDocument?
        var frame = CSVFrame()
        switch format {
        case .csv:
            frame = try forEachCSVRow(source: source, options: options, bufferSize: bufferSize) { (outcome: RowOutcome) throws(TallyError) in
                tally.add(outcome)
                if case .expense(let expense) = outcome { try body(expense) }
            }
        case .json:
            let decoded = try LedgerDocument.decode(try readAll(source))
            let defaultBy = decoded.defaultBy(options.by)
            let accounts = try decoded.validatedAccounts()
            for (index, dto) in decoded.expenses.enumerated() {
                let expense = try dto.importedExpense(index: index, defaultBy: defaultBy, accounts: accounts)
                tally.add(.expense(expense))
                try body(expense)
            }
            document = decoded
        }
        var summary = ImportSummary(
            budgets: tally.budgets(), skipped: tally.skipped, assignments: tally.assignments,
            declaredBudgets: try document?.validatedBudgets() ?? [], declaredRules: try document?.validatedRules() ?? [],
            declaredProfiles: try document?.validatedProfiles() ?? [], declaredSettings: try document?.validatedSettings(),
            keepsCreationDates: try document?.keepsCreationDates() ?? false,
            declaredRecurringRules: try document?.validatedRecurringRules() ?? [], declaredAccounts: try document?.validatedAccounts() ?? DeclaredAccounts(),
            declaredRates: try document?.validatedRates() ?? [], frame: frame, tableRateDays: tally.tableRateDays, fingerprint: source.hasher.finalize(), byteCount: source.hasher.byteCount)
        summary.splitLinesBeyondFirst = tally.splitLinesBeyondFirst
        return ImportPlan(input: input, format: format, options: options, summary: summary, document: document, bufferSize: bufferSize)
    }

    /// Reads the input again and hands each expense to `body`, in file order. Rows are validated
    /// again, so a file changed since ``plan(_:format:options:bufferSize:)`` fails rather than
    /// importing something unchecked; a changed size or row count fails at the end, before the
    /// store commits.
    public static func forEachExpense(
        in plan: ImportPlan, _ body: (ImportedExpense) throws(TallyError) -> Void
    ) throws(TallyError) {
        try forEachRow(in: plan) { (outcome: RowOutcome) throws(TallyError) in
            if case .expense(let expense) = outcome { try body(expense) }
        }
    }

    /// ``forEachExpense(in:_:)`` with the skipped rows too, for a dry run that shows every row.
    public static func forEachRow(in plan: ImportPlan, _ body: (RowOutcome) throws(TallyError) -> Void) throws(TallyError) {
        if let document = plan.document {
            let defaultBy = document.defaultBy(plan.options.by)
            let accounts = plan.summary.declaredAccounts
            for (index, dto) in document.expenses.enumerated() {
                try body(.expense(try dto.importedExpense(index: index, defaultBy: defaultBy, accounts: accounts)))
            }
            return
        }
        let source = CountingSource(try plan.input.open())
        var expenses = 0
        var skipped = 0
        try forEachCSVRow(source: source, options: plan.options, bufferSize: plan.bufferSize) { (outcome: RowOutcome) throws(TallyError) in
            switch outcome {
            case .expense:
                expenses += 1
            case .skipped, .withoutBudget:
                skipped += 1
            }
            try body(outcome)
        }
        guard source.byteCount == plan.summary.byteCount, expenses == plan.summary.expenseCount,
            skipped == plan.summary.skippedCount
        else {
            throw .importFile(line: nil, reason: "\(quoted(plan.input.name)) changed while it was being imported")
        }
    }

    /// Maps every record after the header (``HeaderSearch``), leaving out a trailing block of
    /// summary lines (``TrailingLines``); says how many lines each left out.
    @discardableResult
    static func forEachCSVRow(
        source: some ByteSource, options: CSVImportOptions, bufferSize: Int,
        _ body: (RowOutcome) throws(TallyError) -> Void
    ) throws(TallyError) -> CSVFrame {
        guard options.encoding == .utf8 else {
            return try forEachUTF8Row(source: TranscodingSource(source, encoding: options.encoding), options: options, bufferSize: bufferSize, body)
        }
        return try forEachUTF8Row(source: source, options: options, bufferSize: bufferSize, body)
    }

    private static func forEachUTF8Row(
        source: some ByteSource, options: CSVImportOptions, bufferSize: Int,
        _ body: (RowOutcome) throws(TallyError) -> Void
    ) throws(TallyError) -> CSVFrame {
        let reader = CSVReader(source: source, delimiter: options.delimiter, bufferSize: bufferSize)
        var frame = CSVFrame()
        var withoutBudget = (count: 0, names: [String]())
        // A split's rows in Tally's own export reach `body` as one expense.
        var lineGroups = LineGroups()
        func handle(_ outcome: RowOutcome) throws(TallyError) {
            if case .withoutBudget(_, let name) = outcome {
                withoutBudget.count += 1
                if withoutBudget.names.count < 5 { withoutBudget.names.append(name) }
                return
            }
            try lineGroups.take(outcome, body)
        }
        var trailing = TrailingLines()
        do throws(CSVError) {
            let (header, preamble) = try HeaderSearch.header(reader, columns: options.columns, skip: options.skipLines)
            frame.preambleLines = preamble
            var mapper = try mapper(header, options)
            while let record = try reader.next() {
                if record.isBlank, !trailing.isEmpty {
                    trailing.hold(.success(.skipped(.blankLine, line: record.line)), blank: true)
                    continue
                }
                if !record.isBlank, mapper.mayBeSummaryLine(record) {
                    if trailing.isFull { try shim { () throws(TallyError) in try trailing.release(handle) } }
                    // Read now: the record is gone after the next one. Such a line never gets a
                    // row key, so reading it early changes no other row's.
                    let outcome: Result<RowOutcome, TallyError>
                    do { outcome = .success(try mapper.map(record)) } catch { outcome = .failure(error) }
                    trailing.hold(outcome)
                    continue
                }
                if !trailing.isEmpty { try shim { () throws(TallyError) in try trailing.release(handle) } }
                let outcome = try map(&mapper, record)
                try shim { () throws(TallyError) in try handle(outcome) }
            }
            frame.footerLines = try shim { () throws(TallyError) in try trailing.end(handle) }
            try shim { () throws(TallyError) in try lineGroups.finish(body) }
        } catch {
            // A held line that fails, fails first, as it would have where it stands: a later
            // line the reader refuses does not hide it.
            throw trailing.firstFailure ?? error.tallyError
        }
        // All or nothing: rows without a budget fail the import once every one is counted.
        if withoutBudget.count > 0 {
            throw .rowsWithoutBudget(count: withoutBudget.count, names: withoutBudget.names)
        }
        return frame
    }

    private static func shim<T>(_ work: () throws(TallyError) -> T) throws(CSVError) -> T {
        do { return try work() } catch { throw .source(error) }
    }

    // Typed-throw shims: the loop above mixes CSVError and TallyError.
    private static func mapper(_ header: CSVRecord, _ options: CSVImportOptions) throws(CSVError) -> CSVRowMapper {
        do { return try CSVRowMapper(header: header, options: options) } catch { throw .source(error) }
    }

    private static func map(_ mapper: inout CSVRowMapper, _ record: CSVRecord) throws(CSVError) -> RowOutcome {
        do { return try mapper.map(record) } catch { throw .source(error) }
    }

    private static func readAll(_ source: some ByteSource) throws(TallyError) -> Data {
        var source = source
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try source.read(into: &chunk, chunk.indices)
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
        }
    }
}

/// Counts expenses per budget name key, remembering the first spelling.
struct BudgetTally {
    private var counts: [String: (name: String, count: Int)] = [:]
    /// Folding a name is the costly part, and a file spells its budgets only a few ways.
    private var keys: [String: String] = [:]
    private(set) var skipped: [SkipReason: Int] = [:]
    private(set) var assignments = ImportAssignments()
    private(set) var tableRateDays: [Currency: Set<Day>] = [:]
    private(set) var splitLinesBeyondFirst = 0

    mutating func add(_ outcome: RowOutcome) {
        switch outcome {
        case .skipped(let reason, _):
            skipped[reason, default: 0] += 1
        case .withoutBudget:
            break
        case .expense(let expense):
            assignments.add(expense)
            if let foreign = expense.foreign, foreign.given == nil {
                tableRateDays[foreign.original.currency, default: []].insert(expense.expense.date)
            }
            // A split counts once in each of its lines' budgets.
            guard !expense.expense.lines.isEmpty else { return count(expense.budgetName) }
            var counted = Set<String>()
            for name in expense.budgetName.split(separator: ImportResolution.lineSeparator).map(String.init) where counted.insert(NameKey.make(name)).inserted {
                count(name)
            }
            splitLinesBeyondFirst += counted.count - 1
        }
    }

    private mutating func count(_ name: String) {
        let key: String
        if let known = keys[name] {
            key = known
        } else {
            key = NameKey.make(name)
            keys[name] = key
        }
        counts[key, default: (name, 0)].count += 1
    }

    func budgets() -> [ImportSummary.BudgetCount] {
        counts.sorted { $0.key < $1.key }.map { ImportSummary.BudgetCount(name: $0.value.name, expenseCount: $0.value.count) }
    }
}
