import ArgumentParser
import TallyCore

/// The month whose figures a command shows; the current local month by default.
struct MonthOption: ParsableArguments {
    @Option(help: ArgumentHelp("Use this month (default: the current month).", valueName: "YYYY-MM"))
    var month: String?

    func validate() throws {
        if let month { _ = try ArgumentValue.month(month) }
    }

    func resolved() throws(ValidationError) -> Month {
        guard let month else { return Month.current() }
        return try ArgumentValue.month(month)
    }
}
