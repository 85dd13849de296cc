import ArgumentParser
import TallyCore
import TallyUseCases

/// What `income list` and `transfer list` filter by, as `expense list` does.
struct EntryFilterOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Show only this month's entries, \(PhraseHelp.months).", valueName: "month"))
    var month: String?

    @Option(help: ArgumentHelp("Show only entries whose name contains this text, ignoring case and accents.", valueName: "text"))
    var search: String?

    @Option(help: "Show only this account's entries (a transfer's from either side).", completion: .accountNames)
    var account: String?

    func validate() throws {
        if let month { _ = try ArgumentValue.period(month) }
    }

    /// The entries that match, with each account's name.
    func entries(in ledger: Ledger) throws -> ListEntries.Result {
        let period = try month.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) }
        return try ListEntries(period: period, account: account, search: search, today: Day.today()).run(in: ledger)
    }
}
