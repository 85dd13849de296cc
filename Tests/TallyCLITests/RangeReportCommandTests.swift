import Foundation
import TallyTestSupport
import Testing

@Suite(.ownThreads) struct RangeReportCommandTests {
    private func sandboxWithHistory() throws -> Sandbox {
        try Sandbox.seeded("range.history") { sandbox in
            try sandbox.prepare(["budget", "add", "Café", "--limit", "40"])
            try sandbox.prepare(["budget", "add", "Rent", "--limit", "1000"])
            try sandbox.prepare(["add", "Flat white", "4.50", "-b", "cafe", "--quantity", "10", "--date", "2026-11-03", "--tag", "coffee"])
            try sandbox.prepare(["add", "Espresso", "2.00", "-b", "cafe", "--date", "2026-10-03", "--tag", "coffee", "--tag", "work"])
            try sandbox.prepare(["add", "Rent", "1000", "-b", "rent", "--date", "2026-10-01"])
            try sandbox.prepare(["add", "Rent", "1000", "-b", "rent", "--date", "2025-10-01"])
        }
    }

    @Test func everyFormatOfARangeReport() throws {
        let sandbox = try sandboxWithHistory()
        let json = try sandbox.ok(["report", "--from", "2026-10", "--to", "2026-11", "--format", "json", "--compare", "last-year"]).jsonObject
        #expect(json["from"] as? String == "2026-10" && json["to"] as? String == "2026-11")
        let rows = json["rows"] as? [[String: Any]] ?? []
        #expect(rows.map { $0["name"] as? String } == ["Café", "Rent"])
        #expect(rows.first?["total"] as? String == "47.00")
        #expect(rows.last?["base"] as? String == "1000.00" && rows.last?["changeShare"] as? String == "0.0000")
        let total = json["total"] as? [String: Any] ?? [:]
        #expect(total["total"] as? String == "1047.00")

        let text = try sandbox.ok(["report", "--year", "2026", "-b", "café"]).stdout
        #expect(text.hasPrefix("Spending by budget, Jan 2026 – Dec 2026 (12 periods)\n"))
        #expect(text.contains("Café") && !text.contains("Rent"))

        let csv = try sandbox.ok(["report", "--from", "2026-10", "--to", "2026-11", "--format", "csv", "--by", "tag"]).stdout
        #expect(csv.hasPrefix("period,kind,key,measure,value\n"))
        #expect(csv.contains("2026-10,tag,work,spent,2.00\n") && csv.contains("2026-10,total,Total,spent,2.00\n"))

        let tagged = try sandbox.ok(["report", "--from", "2026-10", "--to", "2026-11", "--tag", "work", "--format", "json"]).jsonObject
        #expect((tagged["total"] as? [String: Any])?["total"] as? String == "2.00")

        for format in ["png", "html"] {
            let outcome = try sandbox.run(["report", "--year", "2026", "--format", format], currentDirectory: sandbox.directory)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout == "tally-report-2026-01--2026-12.\(format)\n")
            let data = try Data(contentsOf: sandbox.directory.appendingPathComponent("tally-report-2026-01--2026-12.\(format)"))
            #expect(data.count > 1_000)
        }
    }

    @Test func monthPhrasesNameTheRangesEnds() throws {
        let sandbox = try sandboxWithHistory()
        let outcome = try sandbox.ok(["report", "--from", "-1", "--to", "this", "--format", "json"])
        let periods = outcome.jsonObject["periods"] as? [[String: Any]] ?? []
        #expect(periods.count == 2)
    }

    @Test func badRangeArgumentsAreOneLineUsageErrorsThatWriteNothing() throws {
        let sandbox = try sandboxWithHistory()
        let before = try sandbox.databaseSnapshot()
        let cases: [([String], String)] = [
            (["--from", "2026-11", "--to", "2026-10"], "2026-11"),
            (["--year", "2026", "--month", "2026-11"], "--year"),
            (["--from", "2016-01", "--to", "2026-12"], "132 periods"),
            (["--year", "2026", "--compare", "yesterday"], "'yesterday'"),
            (["--year", "2026", "--by", "budget"], "'budget'"),
            (["--year", "20x6"], "'20x6'"),
            (["--year", "2026", "--from", "2026-01"], "--year"),
            (["--to", "2026-01"], "--to"),
            (["--compare", "previous"], "--compare"),
            (["--format", "csv"], "csv"),
            (["--year", "2026", "--template", "x.mustache", "--format", "html"], "--template"),
            (["--from", "2026-13", "--to", "2026-12"], "2026-13"),
        ]
        for (arguments, named) in cases {
            let outcome = try sandbox.run(["report"] + arguments + ["--output", sandbox.directory.appendingPathComponent("out").path])
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.isOneLineFailure, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains(named), "\(arguments): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("out").path), "\(arguments)")
        }
        // A phrase that lands after --to is found once the ledger's calendar is known.
        let phrase = try sandbox.run(["report", "--from", "this", "--to", "2020-01"])
        #expect(phrase.status == 64 && phrase.isOneLineFailure, "\(phrase.stderr)")
        #expect(try sandbox.databaseSnapshot() == before)
    }

    @Test func anOutputPathInAMissingFolderFailsWithExitOne() throws {
        let sandbox = try sandboxWithHistory()
        for format in ["json", "png", "csv"] {
            let path = sandbox.directory.appendingPathComponent("missing/report.\(format)").path
            let outcome = try sandbox.run(["report", "--year", "2026", "--format", format, "--output", path])
            #expect(outcome.status == 1, "\(format): \(outcome.stderr)")
            #expect(outcome.isOneLineFailure, "\(format): \(outcome.stderr)")
            #expect(outcome.stderr.contains("cannot write"))
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
