import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally log`: what changed the ledger, newest first.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "List the changes made to the ledger, newest first.",
        discussion: """
            Every command that changes the ledger records one change set: when, the command line \
            (without any password) and every row it touched, before and after. 'tally undo' \
            reverts them. History is kept for 365 days by default ('tally settings set \
            history-days N').
            """
    )

    @Option(help: ArgumentHelp("Only changes on or after this day (YYYY-MM-DD or a phrase such as -7d).", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("At most this many changes.", valueName: "n"))
    var limit: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var store: CommonOptions

    func validate() throws {
        _ = try sinceDay()
        _ = try limitCount()
    }

    private func sinceDay() throws(ValidationError) -> Day? {
        try since.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) }
    }

    private func limitCount() throws(ValidationError) -> Int? {
        guard let limit else { return nil }
        guard let count = Int(limit), count >= 1 else { throw ValidationError("invalid limit \(quoted(limit)): use a whole number from 1") }
        return count
    }

    func run() throws {
        let entries = try ListChangeSets(since: try sinceDay(), limit: try limitCount()).run(in: store.ledger)
        if output.json {
            Console.write(try ListJSON.encode(entries.map { ListJSON.ChangeSetItem($0) }))
        } else {
            Console.write(HistoryText.log(entries))
        }
    }
}

/// `tally undo [ID]`: reverts one change set, recorded as a change set of its own.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the last change, or the change with the given id.",
        discussion: """
            Without an id, reverts the newest change that is not undone yet; undoing again walks \
            further back. With an id from 'tally log', reverts that change, unless a later \
            change touched the same budgets, expenses or rules: then it names those, to undo \
            first. Rows come back with their ids. An undo is a change itself: undoing it redoes.
            """
    )

    @Argument(help: ArgumentHelp("The change set's id, as shown by 'tally log'.", valueName: "id"), completion: .changeSetIDs)
    var id: String?

    @Flag(help: "Show what would be undone, and change nothing.")
    var dryRun = false

    @OptionGroup var output: OutputOptions
    @OptionGroup var store: CommonOptions

    func validate() throws {
        _ = try changeSetID()
    }

    private func changeSetID() throws(ValidationError) -> Int64? {
        guard let id else { return nil }
        let digits = id.hasPrefix("#") ? String(id.dropFirst()) : id
        guard let number = Int64(digits), number >= 1 else { throw ValidationError("invalid change set id \(quoted(id)): use an id from 'tally log'") }
        return number
    }

    func run() throws {
        let outcome = try UndoChangeSet(id: try changeSetID(), dryRun: dryRun).run(in: store.ledger)
        if output.json {
            Console.write(try ListJSON.encode(ListJSON.UndoItem(outcome)))
        } else {
            Console.write(HistoryText.undo(outcome))
        }
    }
}
