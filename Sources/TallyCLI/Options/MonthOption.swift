import ArgumentParser
import TallyCore

/// The period whose figures a command shows, named by the month it starts in; `nil` (the
/// current period, which depends on the ledger's month start) by default.
struct MonthOption: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Use the period that starts in this month, \(PhraseHelp.months) (default: the current one).", valueName: "month"))
    var month: String?

    func validate() throws {
        if let month { _ = try ArgumentValue.period(month) }
    }

    func resolved() throws(ValidationError) -> PeriodChoice {
        try month.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) } ?? .current
    }
}
