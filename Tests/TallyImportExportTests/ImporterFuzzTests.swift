import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

/// The CSV and JSON importers, from bytes to validated expenses, against generated files:
/// random byte soup and valid files with a few edits. Every input either plans (and then
/// replays to the same rows) or is refused with a typed error of the import families, in one
/// line. Seeds are fixed, so a failure names an input that reproduces it.
@Suite(.ownThreads) struct ImporterFuzzTests {
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
            } else if case .importRow(let line, let column, _, _, _) = error, line < 1 || column.isEmpty {
                problem = "the row error names no line or column"
            } else if case .importFile(let line?, _, _) = error, line < 1 {
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
        // Rows without a budget are counted for the whole file.
        case .importFile, .rowsWithoutBudget: .importFile
        case .invalidImportOption: .invalidImportOption
        default: .other
        }
    }
}

extension Optional where Wrapped == TallyError {
    /// JSON documents have no lines or cells: every refusal is a file error without a line.
    var isJSONFamily: Bool {
        if case .importFile(nil, _, _)? = self { return true }
        return false
    }
}
