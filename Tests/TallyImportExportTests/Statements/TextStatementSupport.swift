import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

/// The statement fixtures (Fixtures/Statements), by file name.
enum StatementFixtureFiles {
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/Statements/\(name)", withExtension: nil), "no fixture \(name)")
        return Array(try Data(contentsOf: url))
    }

    static func input(_ name: String, chunkSize: Int = .max) throws -> ImportInput {
        .bytes(try bytes(name), chunkSize: chunkSize, name: name)
    }
}

/// Every event of a read, or its error.
func statementEvents(
    _ read: (ImportInput, (StatementEvent) throws(TallyError) -> Void) throws(TallyError) -> Void, _ input: ImportInput
) -> Result<[StatementEvent], TallyError> {
    var events: [StatementEvent] = []
    do throws(TallyError) {
        try read(input) { (event: StatementEvent) throws(TallyError) in events.append(event) }
        return .success(events)
    } catch {
        return .failure(error)
    }
}

func statementEvents(_ reader: any StatementReader.Type, _ input: ImportInput) -> Result<[StatementEvent], TallyError> {
    statementEvents({ (input, visit) throws(TallyError) in try reader.read(input, visit) }, input)
}

extension Result where Success == [StatementEvent], Failure == TallyError {
    var entries: [StatementEntry] {
        guard case .success(let events) = self else { return [] }
        return events.compactMap { if case .entry(let entry) = $0 { entry } else { nil } }
    }

    var begins: [(account: StatementAccount, index: Int, id: String?)] {
        guard case .success(let events) = self else { return [] }
        return events.compactMap { if case .begin(let account, let index, let id) = $0 { (account, index, id) } else { nil } }
    }

    var ends: [StatementSummary] {
        guard case .success(let events) = self else { return [] }
        return events.compactMap { if case .end(let summary) = $0 { summary } else { nil } }
    }

    /// The error's line and message, or `nil` when the read succeeded.
    var failure: (line: Int?, message: String)? {
        guard case .failure(let error) = self else { return nil }
        if case .importFile(let line, let reason, _) = error { return (line, reason) }
        return (nil, error.errorDescription ?? "")
    }
}

/// A day written as a test literal, `YYYY-MM-DD`.
func statementDay(_ text: String) -> Day {
    (try? Day(parsing: text)) ?? Day.today()
}
