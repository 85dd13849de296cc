import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

struct CSVWriterTests {
    private func write(_ records: [[String]]) throws -> [UInt8] {
        let sink = MemorySink()
        let writer = CSVWriter(sink: sink)
        for record in records { try writer.writeRecord(record) }
        try writer.flush()
        return sink.bytes
    }

    @Test func quotesOnlyWhenNeeded() throws {
        let bytes = try write([["plain", "a,b", "say \"hi\"", "two\nlines", "", " padded", "cr\r"]])
        #expect(String(decoding: bytes, as: UTF8.self) == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",,\" padded\",\"cr\r\"\n")
    }

    @Test func trickyValuesRoundTrip() throws {
        let records = [
            ["date", "name", "note"], ["", "\"", "\"\""], [",", "\r\n", "\n\n"], ["Café 😀", "a;b", "  "], ["x", "", ""],
        ]
        for chunk in [1, 3, .max] {
            #expect(try read(try write(records), chunkSize: chunk, bufferSize: chunk == .max ? 1 << 20 : 4).map(\.fields) == records)
        }
    }

    @Test func randomRecordsRoundTrip() throws {
        var generator = SeededGenerator(seed: 42)
        let pieces = ["a", "b", ",", "\"", "\n", "\r", "\r\n", " ", "é", ";", ""]
        for _ in 0..<500 {
            let records = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 2...4, using: &generator)).map { _ in
                    (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
                }
            }
            #expect(try read(try write(records)).map(\.fields) == records)
        }
    }

    @Test func exportImportExportIsByteIdentical() throws {
        let epoch = Date(timeIntervalSince1970: 0)
        let expenses = [
            (Expense(name: "Bread, rye", amount: Money(cents: 250), quantity: 2, date: try Day(parsing: "2024-01-02"), budgetID: 1, tags: ["bakery", "weekly"], createdAt: epoch), "Food"),
            (Expense(name: "Bus \"12\"", amount: Money(cents: 300), date: try Day(parsing: "2024-01-04"), budgetID: 2, createdAt: epoch), "Transport"),
        ]
        let first = MemorySink()
        let exporter = CSVExportWriter(sink: first)
        try exporter.begin()
        for (expense, budget) in expenses { try exporter.write(expense, budgetName: budget) }
        try exporter.finish()

        let plan = try ImportPlanner.plan(.bytes(first.bytes), format: .csv)
        let second = MemorySink()
        let again = CSVExportWriter(sink: second)
        try again.begin()
        try ImportPlanner.forEachExpense(in: plan) { (row: ImportedExpense) throws(TallyError) in
            try again.write(row.expense, budgetName: row.budgetName)
        }
        try again.finish()
        #expect(second.bytes == first.bytes)
        #expect(first.string.hasPrefix("date,budget,name,amount,quantity,tags,by\n2024-01-02,Food,\"Bread, rye\",2.50,2,bakery;weekly,\n"))
    }
}
