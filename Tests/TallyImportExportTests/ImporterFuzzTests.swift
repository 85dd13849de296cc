import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

/// The CSV and JSON importers, from bytes to validated expenses, against generated files:
/// random byte soup and valid files with a few edits. Every input either plans (and then
/// replays to the same rows) or is refused with a typed error of the import families, in one
/// line. Seeds are fixed, so a failure names an input that reproduces it.
@Suite struct ImporterFuzzTests {
    static let inputsPerGenerator = 10_000

    @Test(arguments: [ImporterFuzzSource.random, .mutated])
    func csvImporter(source: ImporterFuzzSource) {
        var random = FuzzRandom(seed: 0xC5F0_0001 &+ source.seedOffset)
        var failures = FailureLog()
        var accepted = 0
        for index in 0..<Self.inputsPerGenerator {
            var file = CSVFile.valid(using: &random)
            let pristine = source == .mutated && index % 10 == 0
            if source == .random {
                file.bytes = random.soup(CSVFile.tokens, maxCount: 60)
                if random.chance(0.5) { file.bytes = Array("date,budget,name,amount,quantity,tags\n".utf8) + file.bytes }
            } else if !pristine {
                file.mutate(using: &random)
            }
            let label = "input \(index): \(file)"
            switch Self.importCSV(file, using: &random) {
            case .success(let rows):
                accepted += 1
                if pristine { failures.check(rows == file.expenseCount, "\(label): \(rows) expenses, expected \(file.expenseCount)") }
            case .failure(let failure):
                failures.check(!pristine, "\(label): the valid file was refused: \(failure)")
                failures.check(failure.isExpected, "\(label): \(failure)")
            }
        }
        // Both outcomes must be exercised, or the generator has drifted away from the format.
        failures.check(accepted > Self.inputsPerGenerator / 50 || source == .random, "only \(accepted) inputs were accepted")
        failures.check(accepted < Self.inputsPerGenerator * 9 / 10, "\(accepted) inputs were accepted")
        failures.report()
    }

    @Test(arguments: [ImporterFuzzSource.random, .mutated])
    func jsonImporter(source: ImporterFuzzSource) {
        var random = FuzzRandom(seed: 0x750F_0001 &+ source.seedOffset)
        var failures = FailureLog()
        var accepted = 0
        for index in 0..<Self.inputsPerGenerator {
            let pristine = source == .mutated && index % 10 == 0
            var document = JSONDocument.valid(using: &random)
            var bytes: [UInt8]
            if source == .random {
                bytes = random.soup(JSONDocument.tokens, maxCount: 40)
                if random.chance(0.3) { bytes = Array(#"{"version": 1, "budgets": [], "expenses": ["#.utf8) + bytes }
            } else {
                if !pristine { document.mutate(using: &random) }
                bytes = document.value.serialized(using: &random)
                if !pristine, random.chance(0.2) { bytes = random.mutateBytes(bytes, tokens: JSONDocument.tokens) }
            }
            let label = "input \(index): \(String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription)"
            switch Self.importJSON(bytes) {
            case .success(let rows):
                accepted += 1
                if pristine { failures.check(rows == document.expenseCount, "\(label): \(rows) expenses, expected \(document.expenseCount)") }
            case .failure(let failure):
                failures.check(!pristine, "\(label): the valid document was refused: \(failure)")
                failures.check(failure.isExpected && failure.error.isJSONFamily, "\(label): \(failure)")
            }
        }
        failures.check(accepted > Self.inputsPerGenerator / 50 || source == .random, "only \(accepted) inputs were accepted")
        failures.check(accepted < Self.inputsPerGenerator * 9 / 10, "\(accepted) inputs were accepted")
        failures.report()
    }

    /// Strings a JSON parser could let through as U+FFFD: bytes that are not UTF-8, overlong and
    /// surrogate encodings, and escaped lone surrogates. All of them refuse the document.
    @Test(arguments: [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], Array(#"\ud800"#.utf8), Array(#"\udc00x"#.utf8)])
    func invalidUTF8InAStringRefusesTheDocument(bytes: [UInt8]) {
        let document = Array(#"{"version": 1, "budgets": [], "expenses": [{"name": "A"#.utf8) + bytes
            + Array(#"B", "amount": "1.00", "quantity": 1, "total": "1.00", "date": "2024-01-01", "budget": "Food", "tags": []}]}"#.utf8)
        #expect(throws: TallyError.importFile(line: nil, reason: "not a Tally JSON document: the text is not valid JSON")) {
            try ImportPlanner.plan(.bytes(document), format: .json)
        }
    }

    /// Found by the fuzzer: a header without the needed columns was listed whole in the message,
    /// so a file whose first line is a megabyte long printed a megabyte to stderr.
    @Test func aHeaderWithoutTheNeededColumnsIsListedShortened() {
        let header = (0..<1_000).map { "column \($0) " + String(repeating: "x", count: 100) }.joined(separator: ",")
        do {
            _ = try ImportPlanner.plan(.bytes(Array((header + "\n").utf8)), format: .csv)
            Issue.record("a header without date, name and amount was accepted")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.hasPrefix("line 1: the header has no column 'date' for date (columns: column 0 xxx"), "\(message)")
            #expect(message.hasSuffix("…, … (1000 columns))"), "\(message)")
            #expect(message.count < 700)
        }
    }

    /// Nesting deep enough to exhaust a recursive parser's stack, under every key.
    @Test(arguments: ["", "version", "budgets", "expenses"])
    func deeplyNestedDocumentsAreRefused(key: String) {
        for depth in [64, 512, 513, 10_000, 200_000] {
            for (open, close) in [("[", "]"), (#"{"a":"#, "}")] {
                let nested = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
                let fields = ["version": "1", "budgets": "[]", "expenses": "[]"].merging([key: nested]) { $1 }
                let document = fields.sorted { $0.key < $1.key }.map { #""\#($0.key)": \#($0.value)"# }.joined(separator: ", ")
                let bytes = Array((key.isEmpty ? nested : "{\(document)}").utf8)
                switch Self.importJSON(bytes) {
                case .success: Issue.record("depth \(depth) under \(key.debugDescription) was accepted")
                case .failure(let failure): #expect(failure.isExpected && failure.error.isJSONFamily, "depth \(depth): \(failure)")
                }
            }
        }
    }

    // MARK: - Running one input

    /// Plans the file, replays the plan, and runs the one-pass import with other chunk and buffer
    /// sizes: all three must agree. Returns the number of expenses.
    static func importCSV(_ file: CSVFile, using random: inout FuzzRandom) -> Result<Int, ImportFailure> {
        let options: CSVImportOptions
        do throws(TallyError) {
            options = try file.options()
        } catch {
            return .failure(ImportFailure(error: error, stage: "options", allowed: [.invalidImportOption]))
        }
        let allowed: Set<ImportFailure.Family> = [.importRow, .importFile, .invalidImportOption]
        let chunks = [random.chunkSize(), random.chunkSize()]
        let buffers = [random.bufferSize(), random.bufferSize()]
        let planned: ImportPlan
        do throws(TallyError) {
            planned = try ImportPlanner.plan(
                .bytes(file.bytes, chunkSize: chunks[0]), format: .csv, options: options, bufferSize: buffers[0])
        } catch {
            let again = Result { () throws(TallyError) in
                try ImportPlanner.importInOnePass(
                    .bytes(file.bytes, chunkSize: chunks[1]), format: .csv, options: options, bufferSize: buffers[1]) { _ in }
            }
            let failure = ImportFailure(error: error, stage: "plan", allowed: allowed)
            guard case .failure(let other) = again, other == error else {
                return .failure(failure.with(problem: "the one-pass import with chunks of \(chunks[1]) ended in \(again)"))
            }
            return .failure(failure)
        }
        var replayed: [ImportedExpense] = []
        var streamed: [ImportedExpense] = []
        do throws(TallyError) {
            try ImportPlanner.forEachExpense(in: planned) { replayed.append($0) }
            let onePass = try ImportPlanner.importInOnePass(
                .bytes(file.bytes, chunkSize: chunks[1]), format: .csv, options: options, bufferSize: buffers[1]
            ) { streamed.append($0) }
            guard onePass.summary == planned.summary else {
                return .failure(ImportFailure(error: nil, stage: "one pass", problem: "summaries differ: \(onePass.summary) and \(planned.summary)"))
            }
        } catch {
            return .failure(ImportFailure(error: error, stage: "replay", problem: "a planned file failed when replayed"))
        }
        if let problem = validate(replayed, streamed: streamed, summary: planned.summary) {
            return .failure(ImportFailure(error: nil, stage: "rows", problem: problem))
        }
        return .success(replayed.count)
    }

    static func importJSON(_ bytes: [UInt8]) -> Result<Int, ImportFailure> {
        let planned: ImportPlan
        do throws(TallyError) {
            planned = try ImportPlanner.plan(.bytes(bytes), format: .json)
        } catch {
            return .failure(ImportFailure(error: error, stage: "plan", allowed: [.importFile]))
        }
        var replayed: [ImportedExpense] = []
        var streamed: [ImportedExpense] = []
        do throws(TallyError) {
            try ImportPlanner.forEachExpense(in: planned) { replayed.append($0) }
            _ = try ImportPlanner.importInOnePass(.bytes(bytes), format: .json) { streamed.append($0) }
        } catch {
            return .failure(ImportFailure(error: error, stage: "replay", problem: "a planned document failed when replayed"))
        }
        if planned.summary.declaredBudgets.contains(where: { (try? $0.validated()) == nil }) {
            return .failure(ImportFailure(error: nil, stage: "budgets", problem: "a declared budget is not valid"))
        }
        if let problem = validate(replayed, streamed: streamed, summary: planned.summary) {
            return .failure(ImportFailure(error: nil, stage: "rows", problem: problem))
        }
        return .success(replayed.count)
    }

    /// What the store relies on: valid expenses with computable totals, counted as the summary says.
    static func validate(_ rows: [ImportedExpense], streamed: [ImportedExpense], summary: ImportSummary) -> String? {
        guard rows == streamed else { return "the replay and the one-pass import yield different rows" }
        guard rows.count == summary.expenseCount else { return "\(rows.count) rows but the summary counts \(summary.expenseCount)" }
        for row in rows {
            guard (try? row.expense.validated()) == row.expense, (try? row.expense.total()) != nil, row.expense.amount.cents > 0 else {
                return "row \(row.line) is not a valid expense: \(row.expense)"
            }
            guard (try? CSVRowMapper.validatedBudgetName(row.budgetName, option: false, line: row.line)) == row.budgetName else {
                return "row \(row.line) has an invalid budget name \(row.budgetName.debugDescription)"
            }
        }
        return nil
    }
}

enum ImporterFuzzSource: String, CustomTestStringConvertible, Sendable {
    case random, mutated

    var seedOffset: UInt64 { self == .random ? 0 : 0x1_0000 }
    var testDescription: String { rawValue }
}

/// A refusal, or something worse: an error outside the families a stage may throw, a message
/// on more than one line, or passes that disagree.
struct ImportFailure: Error, CustomStringConvertible {
    enum Family: Hashable { case importRow, importFile, invalidImportOption, other }

    let error: TallyError?
    let stage: String
    var problem: String?

    init(error: TallyError?, stage: String, allowed: Set<Family>) {
        self.error = error
        self.stage = stage
        if let error {
            let message = error.errorDescription ?? ""
            if !allowed.contains(Self.family(error)) {
                problem = "unexpected error family"
            } else if message.isEmpty || message.contains(where: \.isNewline) {
                problem = "the message is not one line"
            } else if message.count > 1_000 {
                // Values are quoted and shortened; a long header or cell must not flood a terminal.
                problem = "the message is \(message.count) characters long"
            } else if case .importRow(let line, let column, _, _) = error, line < 1 || column.isEmpty {
                problem = "the row error names no line or column"
            } else if case .importFile(let line?, _) = error, line < 1 {
                problem = "the file error names line \(line)"
            }
        }
    }

    init(error: TallyError?, stage: String, problem: String) {
        self.error = error
        self.stage = stage
        self.problem = problem
    }

    func with(problem: String) -> ImportFailure {
        ImportFailure(error: error, stage: stage, problem: problem)
    }

    var isExpected: Bool { problem == nil }

    var description: String {
        let text = error.map { "\($0) (\($0.errorDescription ?? ""))" } ?? "no error"
        return "\(stage): \(problem.map { "\($0): " } ?? "")\(text)"
    }

    static func family(_ error: TallyError) -> Family {
        switch error {
        case .importRow: .importRow
        case .importFile: .importFile
        case .invalidImportOption: .invalidImportOption
        default: .other
        }
    }
}

extension Optional where Wrapped == TallyError {
    /// JSON documents have no lines or cells: every refusal is a file error without a line.
    var isJSONFamily: Bool {
        if case .importFile(nil, _)? = self { return true }
        return false
    }
}

// MARK: - CSV files

/// A CSV file with the options it is imported with, kept as text so that a mutation can break
/// the options as well as the bytes.
struct CSVFile: CustomStringConvertible {
    var bytes: [UInt8]
    var columns: String?
    var dateFormat: String?
    var defaultBudget: String?
    var expenseSign: ExpenseSign
    var delimiter: CSVReader.Delimiter
    var expenseCount: Int

    static let names = [
        "Bread", "Bread, rye", #"Bus "12""#, "Café au lait", "カフェ", "שלום עליכם", "💸 Taxi", "<b>bold</b>",
        "'; DROP TABLE expense; --", "  padded  ", "a", String(repeating: "x", count: 200), "Line;with;semicolons",
    ]
    static let budgets = ["Food", "food", "Café", "Cafe", "Travel & Fun", "Ünïcödé", "日用品"]
    static let tags = ["", "weekly", "a;b", ";;x;", "Gift", "tag with space", "ＷＩＤＥ"]
    static let dateFormats = ["yyyy-MM-dd", "dd.MM.yyyy", "d/M/yyyy", "MM/dd/yyyy", "yyyyMMdd", "yyyy.M.d"]
    /// Headers a bank export might use instead of Tally's, for `--columns`.
    static let bankHeaders: [ImportField: String] = [
        .date: "Buchungstag", .budget: "Kategorie", .name: "Verwendungszweck", .amount: "Betrag (EUR)",
        .quantity: "Menge", .tags: "Labels",
    ]

    /// Pieces that CSV readers and cell parsers trip over, including bytes that are not UTF-8.
    static let tokens: [[UInt8]] = [
        ",", ",", "\"", "\"", "\n", "\n", "\r\n", "\r", ";", "\t", " ", "-", "+", ".", "0", "1", "9", "12.50", "-3.00",
        "2024-02-29", "2023-02-29", "29.02.2024", "0000-00-00", "99999999999.99", "1000000000.01", "1e3", "0x10",
        "Food", "date", "budget", "name", "amount", "quantity", "tags", "\u{FEFF}", "\u{0}", "\u{7}", "\u{202E}",
        "💸", "é", "\u{301}", "NaN", "１２", "\"\"", "\",\"", String(repeating: "long,", count: 400),
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]]

    var description: String {
        let text = String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
        return "\(text) columns: \(columns ?? "-"), date format: \(dateFormat ?? "-"), budget: \(defaultBudget ?? "-"), "
            + "\(expenseSign), \(delimiter)"
    }

    func options() throws(TallyError) -> CSVImportOptions {
        var options = CSVImportOptions(defaultBudget: defaultBudget, expenseSign: expenseSign, delimiter: delimiter)
        if let columns { options.columns = try ColumnMapping(parsing: columns) }
        if let dateFormat { options.dateFormat = try DateFormat(pattern: dateFormat) }
        return options
    }

    /// A file that imports: the default header (any case, order and optional columns) or a
    /// bank's header named with `--columns`, any date format, sign and delimiter, quoted cells,
    /// blank lines, incoming money and zero amounts.
    static func valid(using random: inout FuzzRandom) -> CSVFile {
        let explicit = random.chance(0.35)
        var fields: [ImportField] = [.date, .name, .amount]
        for optional in [ImportField.budget, .quantity, .tags] where random.chance(0.75) { fields.append(optional) }
        fields.shuffle(using: &random)
        var header = fields.map { field in
            explicit ? bankHeaders[field] ?? field.rawValue : random.chance(0.2) ? " \(field.rawValue.uppercased()) " : field.rawValue
        }
        var extra: Int?
        if random.chance(0.3) {
            extra = Int.random(in: 0...header.count, using: &random)
            header.insert("Notes", at: extra ?? 0)
        }
        var file = CSVFile(
            bytes: [], columns: nil, dateFormat: nil, defaultBudget: nil,
            expenseSign: random.chance(0.3) ? .negative : .positive,
            delimiter: random.pick([.comma, .comma, .semicolon, .tab]), expenseCount: 0)
        if explicit {
            file.columns = fields.shuffled(using: &random).map { "\($0.rawValue)=\(bankHeaders[$0] ?? "")" }.joined(separator: ",")
        }
        if !fields.contains(.budget) || random.chance(0.2) { file.defaultBudget = random.pick(budgets) }
        let format = random.chance(0.4) ? random.pick(dateFormats) : "yyyy-MM-dd"
        if format != "yyyy-MM-dd" || random.chance(0.1) { file.dateFormat = format }

        let lineEnd = random.chance(0.3) ? "\r\n" : "\n"
        var lines = [file.record(header, using: &random)]
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let kind = Int.random(in: 0..<10, using: &random)
            if kind == 0 {
                lines.append("")
                continue
            }
            let cents = Int64.random(in: 1...(random.chance(0.1) ? 100_000_000_000 : 100_000), using: &random)
            var amount = Money(cents: cents).plainString
            if kind == 1 {
                amount = "0.00"
            } else {
                let incoming = kind == 2
                if (file.expenseSign == .negative) != incoming { amount = random.chance(0.5) ? "-" + amount : amount + "-" }
                if !incoming { file.expenseCount += 1 }
            }
            let cells: [String] = fields.map { field in
                switch field {
                case .date: CSVFile.format(random.day(), format)
                case .name: random.pick(names)
                case .amount: amount
                case .budget: file.defaultBudget != nil && random.chance(0.5) ? "" : random.pick(budgets)
                case .quantity: random.chance(0.3) ? "" : String(Int.random(in: 1...(random.chance(0.5) ? 9 : 1_000_000), using: &random))
                case .tags: random.pick(tags)
                }
            }
            var row = cells
            if let extra { row.insert(random.chance(0.5) ? "" : "note, \"quoted\"", at: extra) }
            lines.append(file.record(row, using: &random))
        }
        var text = lines.joined(separator: lineEnd) + (random.chance(0.7) ? lineEnd : "")
        if random.chance(0.1) { text = "\u{FEFF}" + text }
        file.bytes = Array(text.utf8)
        return file
    }

    /// Cells joined by the delimiter, quoted when they must be and sometimes when they need not be.
    func record(_ cells: [String], using random: inout FuzzRandom) -> String {
        let delimiter = Character(Unicode.Scalar(self.delimiter.rawValue))
        return cells.map { cell in
            let needsQuotes = cell.contains(where: { $0 == delimiter || $0 == "\"" || $0.isNewline })
            guard needsQuotes || random.chance(0.1) else { return cell }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: String(delimiter))
    }

    static func format(_ day: (year: Int, month: Int, day: Int), _ pattern: String) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        var text = pattern
        for (token, value) in [("yyyy", padded(day.year, 4)), ("MM", padded(day.month, 2)), ("dd", padded(day.day, 2))] {
            text = text.replacingOccurrences(of: token, with: value)
        }
        if !pattern.contains("MM") { text = text.replacingOccurrences(of: "M", with: String(day.month)) }
        if !pattern.contains("dd") { text = text.replacingOccurrences(of: "d", with: String(day.day)) }
        return text
    }

    /// One to four edits of the bytes, and sometimes of an option.
    mutating func mutate(using random: inout FuzzRandom) {
        bytes = random.mutateBytes(bytes, tokens: CSVFile.tokens)
        guard random.chance(0.1) else { return }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: columns = random.mutateText(columns ?? "date=date,name=name,amount=amount")
        case 1: dateFormat = random.mutateText(dateFormat ?? "yyyy-MM-dd")
        case 2: defaultBudget = random.mutateText(defaultBudget ?? "Food")
        default: delimiter = random.pick([.comma, .semicolon, .tab])
        }
    }
}

// MARK: - JSON documents

/// A JSON value written by hand, so that a document can hold what `JSONEncoder` never writes:
/// duplicate keys, numbers beyond any integer, lone surrogates and raw bytes that are not UTF-8.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case raw([UInt8])
    case array([JSONValue])
    case object([(String, JSONValue)])

    func serialized(using random: inout FuzzRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes, using: &random)
        return bytes
    }

    private func write(into bytes: inout [UInt8], using random: inout FuzzRandom) {
        switch self {
        case .null: bytes += Array("null".utf8)
        case .bool(let value): bytes += Array(String(value).utf8)
        case .number(let text): bytes += Array(text.utf8)
        case .raw(let raw): bytes += raw
        case .string(let text): JSONValue.writeString(text, into: &bytes, escapingAll: random.chance(0.1))
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes += Array(random.chance(0.2) ? ", ".utf8 : ",".utf8) }
                value.write(into: &bytes, using: &random)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let pairs):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { bytes += Array(random.chance(0.2) ? ",\n  ".utf8 : ",".utf8) }
                JSONValue.writeString(key, into: &bytes, escapingAll: false)
                bytes.append(UInt8(ascii: ":"))
                value.write(into: &bytes, using: &random)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into bytes: inout [UInt8], escapingAll: Bool) {
        bytes.append(UInt8(ascii: "\""))
        for unit in text.utf16 {
            switch unit {
            case 0x22: bytes += Array(#"\""#.utf8)
            case 0x5C: bytes += Array(#"\\"#.utf8)
            case 0..<0x20: bytes += Array(String(format: "\\u%04x", unit).utf8)
            default:
                if escapingAll || unit >= 0xD800 && unit < 0xE000 {
                    bytes += Array(String(format: "\\u%04x", unit).utf8)
                } else {
                    bytes += Array(String(decoding: [unit], as: UTF16.self).utf8)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

struct JSONDocument {
    var value: JSONValue
    var expenseCount: Int

    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", ":", ",", "\"", "\"version\"", "\"budgets\"", "\"expenses\"", "\"amount\"", "1", "-1", "0",
        "1e400", "-0", "1.5", "99999999999999999999", "null", "true", "false", " ", "\n", "\\", "\\u", "\\ud800",
        "\"12.50\"", "\"2024-02-30\"", "\"\"", "\u{0}", "💸", "\u{202E}", "[[[[[[[[", "]]]]",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xEF, 0xBB, 0xBF]]

    /// Values of every JSON type and of the wrong shape for each field.
    static let strangeValues: [JSONValue] = [
        .null, .bool(true), .number("0"), .number("-1"), .number("1.5"), .number("1e400"), .number("-1e400"),
        .number("99999999999999999999"), .number("9223372036854775807"), .number("-9223372036854775808"),
        .number("9223372036854775808"), .number("1E2"), .number("-0"), .number("1.0"), .string(""), .string(" "),
        .string("12.50"), .string("12.345"), .string("-5.00"), .string("1,000.00"), .string("1000000000.01"),
        .string("99999999999999999999.99"), .string("NaN"), .string("2024-02-30"), .string("2024-2-3"),
        .string("\u{0}"), .string("\n"), .string("\u{D7FF}\u{202E}"), .string(String(repeating: "é", count: 300)),
        .raw(Array("\"\u{FF}\"".utf8)), .raw([0x22, 0xFF, 0xFE, 0x22]), .raw([0x22, 0xC3, 0x22]),
        .raw(Array(#""\ud800""#.utf8)), .raw(Array(#""\udc00\ud800""#.utf8)), .raw(Array(#""\u00""#.utf8)),
        .array([]), .array([.string("a"), .number("1")]), .object([]), .object([("name", .string("x"))]),
    ]

    static func valid(using random: inout FuzzRandom) -> JSONDocument {
        var budgets: [JSONValue] = []
        var keys: Set<String> = []
        for name in CSVFile.budgets.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))
        where keys.insert(NameKey.make(name)).inserted {
            budgets.append(.object([
                ("name", .string(name)), ("limit", .string(Money(cents: Int64.random(in: 1...10_000_000, using: &random)).plainString)),
                ("period", .string("monthly")),
            ]))
        }
        var expenses: [JSONValue] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let amount = Money(cents: Int64.random(in: 1...(random.chance(0.1) ? 100_000_000_000 : 100_000), using: &random))
            let quantity = Int64.random(in: 1...(random.chance(0.2) ? 1_000 : 5), using: &random)
            let total = (try? amount.multiplied(by: quantity))?.plainString ?? "0.00"
            let day = random.day()
            var pairs: [(String, JSONValue)] = [
                ("id", random.chance(0.3) ? .null : .number(String(Int64.random(in: 1...Int64.max, using: &random)))),
                ("name", .string(random.pick(CSVFile.names))), ("amount", .string(amount.plainString)),
                ("quantity", .number(String(quantity))), ("total", .string(total)),
                ("date", .string(CSVFile.format(day, "yyyy-MM-dd"))), ("budget", .string(random.pick(CSVFile.budgets))),
                ("tags", .array(["weekly", "Gift", "ÉTÉ"].filter { _ in random.chance(0.3) }.map { .string($0) })),
            ]
            if random.chance(0.2) { pairs.removeFirst() }
            pairs.shuffle(using: &random)
            expenses.append(.object(pairs))
        }
        var top: [(String, JSONValue)] = [("version", .number("1")), ("budgets", .array(budgets)), ("expenses", .array(expenses))]
        if random.chance(0.1) { top.append(("exportedBy", .string("a newer Tally"))) }
        top.shuffle(using: &random)
        return JSONDocument(value: .object(top), expenseCount: expenses.count)
    }

    /// One to three edits of the tree: a key dropped, added or repeated, a value of the wrong
    /// type or size, an entry duplicated, a value buried under deep nesting.
    mutating func mutate(using random: inout FuzzRandom) {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            value = JSONDocument.mutate(value, depth: 0, using: &random)
        }
    }

    private static func mutate(_ value: JSONValue, depth: Int, using random: inout FuzzRandom) -> JSONValue {
        // Stop at this node, or go down into one of its children.
        let descend = depth < 4 && random.chance(0.7)
        switch value {
        case .object(var pairs) where !pairs.isEmpty:
            let index = Int.random(in: 0..<pairs.count, using: &random)
            if descend {
                pairs[index].1 = mutate(pairs[index].1, depth: depth + 1, using: &random)
                return .object(pairs)
            }
            switch Int.random(in: 0..<6, using: &random) {
            case 0: pairs.remove(at: index)
            case 1: pairs.append((random.pick(["version", "budgets", "expenses", "name", "amount", "id", "extra"]), random.pick(strangeValues)))
            case 2: pairs.append(pairs[index])
            case 3: pairs[index].1 = nested(pairs[index].1, using: &random)
            default: pairs[index].1 = random.pick(strangeValues)
            }
            return .object(pairs)
        case .array(var values) where !values.isEmpty:
            let index = Int.random(in: 0..<values.count, using: &random)
            if descend {
                values[index] = mutate(values[index], depth: depth + 1, using: &random)
                return .array(values)
            }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: values.remove(at: index)
            case 1: values.append(contentsOf: Array(repeating: values[index], count: Int.random(in: 1...3, using: &random)))
            case 2: values[index] = nested(values[index], using: &random)
            default: values[index] = random.pick(strangeValues)
            }
            return .array(values)
        default:
            return random.chance(0.1) ? nested(value, using: &random) : random.pick(strangeValues)
        }
    }

    private static func nested(_ value: JSONValue, using random: inout FuzzRandom) -> JSONValue {
        var result = value
        for _ in 0..<Int.random(in: 1...(random.chance(0.1) ? 5_000 : 20), using: &random) { result = .array([result]) }
        return result
    }
}

// MARK: - Randomness

/// SplitMix64: tiny, fast and the same on every platform, unlike the system generator.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &self)]
    }

    /// Days near the edges: the first years, leap days, and days some months do not have.
    mutating func day() -> (year: Int, month: Int, day: Int) {
        let year = pick([1, 4, 1900, 1999, 2000, 2024, 2025, 2026, 9999])
        let month = Int.random(in: 1...12, using: &self)
        let lengths = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (year, month, Int.random(in: 1...lengths[month - 1], using: &self))
    }

    mutating func soup(_ tokens: [[UInt8]], maxCount: Int) -> [UInt8] {
        (0..<Int.random(in: 0...maxCount, using: &self)).flatMap { _ in pick(tokens) }
    }

    /// The whole input at once most of the time, otherwise in small pieces across buffer edges.
    mutating func chunkSize() -> Int {
        chance(0.5) ? .max : Int.random(in: 1...64, using: &self)
    }

    mutating func bufferSize() -> Int {
        pick([16, 17, 64, 1024, 65_536])
    }

    /// One to four byte edits: insert a token, delete, replace, duplicate or swap a range, truncate.
    mutating func mutateBytes(_ input: [UInt8], tokens: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &self) {
            let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &self)
            let end = min(bytes.count, index + Int.random(in: 1...12, using: &self))
            switch Int.random(in: 0..<7, using: &self) {
            case 0, 1: bytes.insert(contentsOf: pick(tokens), at: index)
            case 2: bytes.removeSubrange(index..<end)
            case 3: if !bytes.isEmpty { bytes[index] = UInt8.random(in: 0...255, using: &self) }
            case 4: bytes.insert(contentsOf: Array(bytes[index..<end]), at: index)
            case 5: if end < bytes.count { bytes.swapAt(index, end) }
            default: bytes.removeSubrange(index...)
            }
        }
        return bytes
    }

    mutating func mutateText(_ text: String) -> String {
        let tokens = ["=", ",", "date", "name", "amount", "budget", "yyyy", "MM", "M", "dd", "d", "y", "Q", "é", " ", "", "\u{0}"]
        var pieces = text.map(String.init)
        for _ in 0..<Int.random(in: 1...3, using: &self) {
            let index = pieces.isEmpty ? 0 : Int.random(in: 0..<pieces.count, using: &self)
            switch Int.random(in: 0..<3, using: &self) {
            case 0: pieces.insert(pick(tokens), at: index)
            case 1: if !pieces.isEmpty { pieces.remove(at: index) }
            default: pieces = Array(pieces.prefix(index))
            }
        }
        return pieces.joined()
    }
}

