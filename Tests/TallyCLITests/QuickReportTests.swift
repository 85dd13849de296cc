import Foundation
import TallyCore
import TallyTestSupport
import Testing

@testable import TallyCLI

@Suite(.ownThreads) struct QuickReportTests {
    /// What ArgumentParser makes of the arguments, as the same plain value; `nil` when it
    /// refuses them or reads a report over several periods.
    static func argumentParserRequest(_ arguments: [String]) -> MonthReportRequest? {
        guard let command = try? Tally.parseAsRoot(arguments) as? Tally.Report, !command.range.asksForRange else { return nil }
        return command.request
    }

    static let usualSpellings: [[String]] = [
        ["report"],
        ["report", "--month", "2026-10"],
        ["report", "--month=2026-10", "--format=json"],
        ["report", "--format", "json", "--month", "2026-10", "--db", "/tmp/x.sqlite"],
        ["report", "--month", "last month", "--format", "text"],
        ["report", "--month", "-1", "--format", "png", "--output", "out.png"],
        ["report", "--format", "html", "--output=r.html", "--explain"],
        ["report", "--explain", "--month", "oct", "--locale", "de_DE", "--color=never"],
        ["report", "--no-explain", "--format", "json"],
    ]

    @Test(arguments: usualSpellings)
    func readsTheUsualSpellingsAsArgumentParserDoes(arguments: [String]) throws {
        let quick = try #require(QuickReport.parse(arguments))
        #expect(quick == Self.argumentParserRequest(arguments))
    }

    static let declined: [[String]] = [
        ["report", "--help"],
        ["report", "-h"],
        ["help", "report"],
        ["report", "extra"],
        ["report", "--month", "2026-10", "--month", "2026-11"],
        ["report", "--explain", "--explain"],
        ["report", "--explain", "--no-explain"],
        ["report", "--month", "2026-13"],
        ["report", "--month"],
        ["report", "--format", "csv"],
        ["report", "--format", "pdf"],
        ["report", "--output", ""],
        ["report", "--output", "-x"],
        ["report", "--db", ""],
        ["report", "--year", "2026"],
        ["report", "--from", "2026-01", "--to", "2026-03"],
        ["report", "--scale", "2", "--format", "png"],
        ["report", "--template", "t.mustache", "--format", "html"],
        ["report", "--explain=yes"],
        ["report", "-o", "x"],
        ["report", "--", "x"],
        ["expense", "list"],
        [],
    ]

    @Test(arguments: declined)
    func leavesEverythingElseToArgumentParser(arguments: [String]) {
        #expect(QuickReport.parse(arguments) == nil)
    }

    /// Seeded random command lines: options in any order, with values that are valid, invalid or
    /// look like options, and now and then a stray token. Where the quick reader answers,
    /// ArgumentParser must give the same value.
    @Test func agreesWithArgumentParserOnRandomCommandLines() {
        let options: [(spellings: [String], values: [String])] = [
            (["--month"], ["2026-10", "2026-13", "-1", "oct", "last month", "-x", ""]),
            (["--format"], ["json", "text", "png", "html", "csv", "JSON", ""]),
            (["--output"], ["out.json", "-", "-o", ""]),
            (["--db"], ["/tmp/t.sqlite", ""]),
            (["--explain"], []),
            (["--no-explain"], []),
        ]
        let strays = ["--", "-h", "--help", "--x", "--Month", "extra", "--year", "--scale"]
        var generator = SeededGenerator(seed: 2026)
        var accepted = 0
        // ArgumentParser's answer per distinct line: lines repeat, and its debug build checks
        // the whole command's definition on every parse.
        var parsed: [[String]: MonthReportRequest?] = [:]
        for _ in 0..<500 {
            var arguments = ["report"]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let option = options.randomElement(using: &generator) ?? options[0]
                let spelling = option.spellings[0]
                guard let value = Int.random(in: 0..<3, using: &generator) > 0 ? option.values.first : option.values.randomElement(using: &generator) else {
                    arguments.append(spelling)
                    continue
                }
                if Bool.random(using: &generator) { arguments.append("\(spelling)=\(value)") } else { arguments += [spelling, value] }
            }
            if Int.random(in: 0..<6, using: &generator) == 0 {
                arguments.insert(strays.randomElement(using: &generator) ?? "--", at: Int.random(in: 1...arguments.count, using: &generator))
            }
            if let quick = QuickReport.parse(arguments) {
                accepted += 1
                if parsed.index(forKey: arguments) == nil { parsed.updateValue(Self.argumentParserRequest(arguments), forKey: arguments) }
                #expect(quick == parsed[arguments] ?? nil, "\(arguments)")
            }
        }
        #expect(accepted > 100)
    }
}
