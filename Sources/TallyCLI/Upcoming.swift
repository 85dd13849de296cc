import ArgumentParser
import Foundation
import TallyCore
import TallyImportExport
import TallyReports
import TallyUseCases

struct Upcoming: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upcoming",
        abstract: "List recurring bills due soon, overdue ones first.",
        discussion: """
            Overdue bills (due before today, neither posted, matched nor skipped) come first, then \
            those due from today through the next --days − 1 days. --ics writes them as an \
            iCalendar file a calendar app can subscribe to. Then each budget goal's need this \
            period (text only: 'budget list --json' has the goals).
            """
    )

    @Option(help: ArgumentHelp("How many days to look ahead, today included (default \(ListUpcoming.defaultDays)).", valueName: "n"))
    var days: Int = ListUpcoming.defaultDays

    @Option(help: ArgumentHelp("Write the bills to this iCalendar (.ics) file instead of listing them.", valueName: "file"), completion: .file(extensions: ["ics"]))
    var ics: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var store: CommonOptions

    func validate() throws {
        guard (1...3660).contains(days) else { throw ValidationError("invalid number of days \(days): use 1 to 3660") }
        if let ics, ics.isEmpty { throw ValidationError("--ics needs a file path") }
        if ics != nil, output.json { throw ValidationError("--ics and --json cannot be combined") }
    }

    func run() throws {
        let ledger = store.ledger
        let (occurrences, names) = try ListUpcoming(days: days).run(in: ledger)
        if let ics {
            let text = try ICalendarRenderer.render(occurrences, budgetNames: names, stamp: Date())
            try AtomicFile.write(Array(text.utf8), to: ics, durable: false)
            Console.write("Wrote \(occurrences.count) bill\(occurrences.count == 1 ? "" : "s") to \(ics)")
        } else if output.json {
            var entries: [RecurringJSON.Occurrence] = []
            for occurrence in occurrences {
                entries.append(try RecurringJSON.Occurrence(occurrence, budgetName: names[occurrence.rule.budgetID] ?? ""))
            }
            Console.write(try ListJSON.encode(entries))
        } else {
            let money = try Preferences.current.moneyFormat(for: ledger)
            var text = occurrences.isEmpty
                ? "No bills are due in the next \(days) day\(days == 1 ? "" : "s")."
                : try RecurringRenderers.upcomingAsTable(occurrences, budgetNames: names, money: money)
            let goals = try ListGoals().run(in: ledger)
            if !goals.isEmpty { text += "\n\nGoals this period\n\n" + GoalText.goalsAsTable(goals, money: money) }
            Console.write(text)
        }
    }
}
