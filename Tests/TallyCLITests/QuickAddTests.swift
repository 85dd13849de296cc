import Foundation
import TallyCore
import TallyTestSupport
import Testing

@testable import TallyCLI

@Suite(.ownThreads) struct QuickAddTests {
    /// What ArgumentParser makes of the arguments, as the same plain value; `nil` when it refuses them.
    static func argumentParserAddition(_ arguments: [String], defaultBudget: String? = nil) -> ExpenseAddition? {
        switch try? Tally.parseAsRoot(arguments) {
        case let command as Tally.Add: command.options.addition(defaultBudget: defaultBudget)
        case let command as ExpenseCommand.Add: command.options.addition(defaultBudget: defaultBudget)
        default: nil
        }
    }

    static let usualSpellings: [[String]] = [
        ["add", "Coffee", "3.50", "--budget", "Groceries"],
        ["add", "Coffee", "3.50", "-b", "Groceries"],
        ["add", "Coffee", "3.50", "--budget=Groceries"],
        ["add", "--budget", "Groceries", "Coffee", "3.50"],
        ["add", "Coffee", "-b", "Groceries", "3.50"],
        ["expense", "add", "Coffee", "3.50", "--budget", "Groceries"],
        ["add", "Coffee beans", "12", "-b", "Café", "--quantity", "3", "--date", "2026-03-10"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--tag", "work", "--tag", "morning", "--db", "/tmp/x.sqlite"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--tag=work", "--quantity=007", "--date=2026-02-28"],
        ["add", "Ünïcode 名前 🎉", "0.01", "-b", "  Spaced  ", "--tag", "Été"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "yesterday"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "-3d"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date=-3d"],
        ["add", "--date", "-3d", "Coffee", "3.50", "-b", "Groceries"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "3d ago"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "Last Fri"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "nov 20"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "20 nov"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "11-20"],
        ["expense", "add", "Coffee", "3.50", "-b", "Groceries", "--date", "1"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--locale", "de_DE", "--color=never"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--account", "Visa"],
        ["expense", "add", "Coffee", "3.50", "--account=cash", "-b", "Groceries"],
    ]

    /// With `default-budget` in the config file, `-b` may go; given, it wins.
    @Test(arguments: [
        ["add", "Coffee", "3.50"],
        ["expense", "add", "Coffee", "3.50", "--tag", "work", "--date", "yesterday"],
        ["add", "Coffee", "3.50", "-b", "Groceries"],
    ])
    func readsTheDefaultBudgetAsArgumentParserDoes(arguments: [String]) throws {
        let quick = try #require(QuickAdd.parse(arguments, defaultBudget: "Food"))
        #expect(quick.budget == (arguments.contains("-b") ? "Groceries" : "Food"))
        #expect(quick == Self.argumentParserAddition(arguments, defaultBudget: "Food"))
    }

    @Test(arguments: usualSpellings)
    func readsTheUsualSpellingsAsArgumentParserDoes(arguments: [String]) throws {
        let quick = try #require(QuickAdd.parse(arguments))
        #expect(quick == Self.argumentParserAddition(arguments))
    }

    static let declined: [[String]] = [
        ["add", "--help"],
        ["add", "-h"],
        ["add", "help"],
        ["help", "add"],
        ["add", "Coffee", "3.50"],
        ["add", "Coffee", "3.50", "-b"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "extra"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "-b", "Food"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "2026-03-10", "--date", "2026-03-11"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--db", ""],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--", "x"],
        ["add", "Coffee", "3.50", "-bGroceries"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--quantity", "+2"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--quantity", "0"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--quantity", "99999999999999999999"],
        ["add", "Coffee", "3,50", "-b", "Groceries"],
        ["add", "Coffee", "-3.50", "-b", "Groceries"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "2026-02-30"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "feb 30"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "-99999999d"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "-b"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "--tag", "x"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "--"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--date", "-3"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--tag", "a,b"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--color"],
        ["add", "Coffee", "3.50", "-b", "Groceries", "--version"],
        ["add", "", "3.50", "-b", "Groceries"],
        ["expense", "list"],
        ["budget", "add", "Food", "100"],
        [],
    ]

    @Test(arguments: declined)
    func leavesEverythingElseToArgumentParser(arguments: [String]) {
        #expect(QuickAdd.parse(arguments) == nil)
    }

    /// Every add in the hostile-input corpus: where the quick reader answers, ArgumentParser must
    /// give the same value, and where ArgumentParser refuses, the quick reader must decline.
    @Test func agreesWithArgumentParserOnTheHostileInputs() throws {
        let url = try #require(Bundle.module.url(forResource: "hostile-inputs", withExtension: "json", subdirectory: "Fixtures"))
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        let adds = cases.compactMap { $0["args"] as? [String] }.filter { $0.first == "add" || $0.starts(with: ["expense", "add"]) }
        #expect(adds.count > 20)
        for arguments in adds {
            if let quick = QuickAdd.parse(arguments) {
                #expect(quick == Self.argumentParserAddition(arguments), "\(arguments)")
            }
        }
    }

    /// Seeded random command lines: two positionals and options in any order, with values that
    /// are valid, invalid or look like options, and now and then a stray token.
    @Test func agreesWithArgumentParserOnRandomCommandLines() {
        let names = ["Coffee", "Été", "help", "-", " ", "3.50"]
        let amounts = ["3.50", "12", "0", "-5", "1e3", "Coffee"]
        let options: [(spellings: [String], values: [String])] = [
            (["-b", "--budget"], ["Food", "Café", "-x", ""]),
            (["--quantity"], ["2", "007", "+4", "0", "-1", "x"]),
            (["--date"], ["2026-03-10", "2026-13-01", "2026-02-29", "today", "-3d", "-b", "feb 30", "last fri"]),
            (["--tag"], ["work", "a,b", "Home", ""]),
            (["--db"], ["/tmp/t.sqlite", ""]),
        ]
        let strays = ["--", "-h", "--help", "--x", "-B", "--Budget", "extra"]
        var generator = SeededGenerator(seed: 2026)
        var accepted = 0
        // ArgumentParser's answer per distinct line: lines repeat, and its debug build checks
        // the whole command's definition on every parse.
        var parsed: [[String]: ExpenseAddition?] = [:]
        for _ in 0..<700 {
            // Mostly the first, valid, choice, so that a fair share of lines is read by both.
            func pick(_ choices: [String]) -> String {
                Int.random(in: 0..<3, using: &generator) > 0 ? choices[0] : choices.randomElement(using: &generator) ?? ""
            }
            var tokens: [[String]] = [[pick(names)], [pick(amounts)]]
            for option in options where Int.random(in: 0..<3, using: &generator) > 0 {
                for _ in 0..<(option.spellings[0] == "--tag" ? Int.random(in: 1...2, using: &generator) : 1) {
                    let spelling = option.spellings.randomElement(using: &generator) ?? ""
                    let value = pick(option.values)
                    tokens.append(Bool.random(using: &generator) && spelling.hasPrefix("--") ? ["\(spelling)=\(value)"] : [spelling, value])
                }
            }
            if Int.random(in: 0..<8, using: &generator) == 0 {
                tokens.append([strays.randomElement(using: &generator) ?? ""])
            }
            let head: [String] = Bool.random(using: &generator) ? ["add"] : ["expense", "add"]
            // The name stays before the amount; options may go anywhere.
            var shuffled = tokens.dropFirst(2).shuffled(using: &generator)
            let amountPosition = Int.random(in: 0...shuffled.count, using: &generator)
            shuffled.insert(tokens[1], at: amountPosition)
            shuffled.insert(tokens[0], at: Int.random(in: 0...amountPosition, using: &generator))
            let arguments = head + shuffled.flatMap { $0 }
            if let quick = QuickAdd.parse(arguments) {
                accepted += 1
                if parsed.index(forKey: arguments) == nil { parsed.updateValue(Self.argumentParserAddition(arguments), forKey: arguments) }
                #expect(quick == parsed[arguments] ?? nil, "\(arguments)")
            }
        }
        // The comparison means something only if the quick reader answered often enough.
        #expect(accepted > 70)
    }
}
