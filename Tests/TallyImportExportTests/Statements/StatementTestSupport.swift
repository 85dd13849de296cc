import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

/// One statement as a reader handed it on, collected for comparison.
struct CollectedStatement: Equatable {
    var account: StatementAccount
    var index: Int
    var id: String?
    var entries: [StatementEntry] = []
    var summary: StatementSummary?
}

/// Reads `bytes` with `reader`, checking the events come in their order: begin, entries, end.
func readStatements(_ reader: any StatementReader.Type, _ bytes: [UInt8], chunkSize: Int = .max) throws(TallyError) -> [CollectedStatement] {
    var statements: [CollectedStatement] = []
    var open = false
    try reader.read(.bytes(bytes, chunkSize: chunkSize)) { event throws(TallyError) in
        switch event {
        case .begin(let account, let index, let id):
            #expect(!open)
            open = true
            statements.append(CollectedStatement(account: account, index: index, id: id))
        case .entry(let entry):
            #expect(open)
            statements[statements.count - 1].entries.append(entry)
        case .end(let summary):
            #expect(open)
            open = false
            statements[statements.count - 1].summary = summary
        }
    }
    #expect(!open)
    return statements
}

/// The reason a read fails with, or `nil` when it does not fail with an import error.
func failure(_ reader: any StatementReader.Type, _ bytes: [UInt8], chunkSize: Int = .max) -> (line: Int?, reason: String)? {
    do {
        try reader.read(.bytes(bytes, chunkSize: chunkSize)) { _ throws(TallyError) in }
    } catch {
        if case .importFile(let line, let reason, _) = error { return (line, reason) }
        Issue.record("not an import error: \(error)")
    }
    return nil
}

func failure(_ reader: any StatementReader.Type, _ text: String) -> (line: Int?, reason: String)? {
    failure(reader, Array(text.utf8))
}

func fixture(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: "Fixtures/Statements/\(name)", withExtension: nil))
    return Array(try Data(contentsOf: url))
}

func day(_ text: String) -> Day {
    // Written by the tests themselves, so a typo fails the test rather than a file.
    (try? Day(parsing: text)) ?? Day.epochForTests
}

func cents(_ value: Int64) -> Money { Money(cents: value) }

extension Day {
    fileprivate static let epochForTests = (try? Day(year: 1970, month: 1, day: 1))!
}
