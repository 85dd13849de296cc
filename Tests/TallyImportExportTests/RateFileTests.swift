import Foundation
import TallyCore
@testable import TallyImportExport
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct RateFileTests {
    func read(_ text: String) throws(TallyError) -> [DayRate] {
        var rates: [DayRate] = []
        try RateFile.read(MemorySource(Array(text.utf8))) { (batch: [DayRate]) throws(TallyError) in rates += batch }
        return rates
    }

    @Test func readsTheECBsLayoutSkippingGapsAndTheTrailingColumn() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/Rates/eurofxref-hist", withExtension: "csv"))
        let rates = try read(try String(contentsOf: url, encoding: .utf8))
        // 3 days × 4 quoted currencies, less ISK's N/A; CYP is N/A throughout.
        #expect(rates.count == 11)
        #expect(rates.allSatisfy { $0.from.code == "EUR" })
        #expect(!rates.contains { $0.to.code == "CYP" })
        let friday = rates.filter { $0.day == (try? Day(parsing: "2026-03-06")) }
        #expect(friday.map(\.to.code) == ["USD", "JPY", "GBP"])
        #expect(friday.map(\.rate.plainString) == ["1.0823", "161.54", "0.8451"])
    }

    @Test func readsThePlainLayout() throws {
        let rates = try read("date,from,to,rate\n2026-03-06,JPY,EUR,0.0062\n\n2026-03-07,USD,EUR,0.92\n")
        #expect(rates.map(\.rate.plainString) == ["0.0062", "0.92"])
        #expect(rates.map(\.from.code) == ["JPY", "USD"])
    }

    @Test(arguments: [
        ("Day,USD\n2026-03-06,1\n", 1, "unknown header"),
        ("Date,USD,usd\n", 1, "column 3 'usd' is not a currency code"),
        ("Date,USD,JPY,\n2026-03-06,1.08,abc,\n", 2, "invalid rate 'abc'"),
        ("Date,USD\n2026-02-30,1.08\n", 2, "invalid date '2026-02-30'"),
        ("date,from,to,rate\n2026-03-06,JPY,JPY,1\n", 2, "a rate from JPY to itself"),
        ("date,from,to,rate\n2026-03-06,JPY,EUR,-1\n", 2, "invalid rate '-1'"),
        ("date,from,to,rate\n2026-03-06,JPY,EUR\n", 2, "expected 4 fields"),
    ] as [(String, Int, String)])
    func aBadLineFailsNamingTheLineAndValue(text: String, line: Int, problem: String) {
        do {
            _ = try read(text)
            Issue.record("read \(text)")
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.hasPrefix("line \(line): "), "\(message)")
            #expect(message.contains(problem), "\(message)")
        }
    }

    @Test func anEmptyFileHasNoHeader() {
        #expect(throws: TallyError.self) { try read("") }
    }

    @Test func longFilesGoToTheStoreInBatches() throws {
        var text = "date,from,to,rate\n"
        var day = try Day(parsing: "1990-01-01")
        for _ in 0..<(RateFile.batchSize * 2 + 5_000) {
            text += "\(day.isoString),JPY,EUR,0.0062\n"
            day = try #require(Day(ordinal: day.ordinal + 1))
        }
        var batches: [Int] = []
        try RateFile.read(MemorySource(Array(text.utf8))) { (batch: [DayRate]) throws(TallyError) in batches.append(batch.count) }
        #expect(batches == [RateFile.batchSize, RateFile.batchSize, 5_000])
    }
}
