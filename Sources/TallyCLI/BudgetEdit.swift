import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension BudgetCommand {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Rename a budget, or change its limit, rollover, cap, first period, warning level or target.",
            discussion: """
                A new --limit applies from --from on (default: the current period); earlier periods \
                keep the limit they had. From the budget's first period, it replaces the first limit. \
                --target sets what the budget saves toward (a new one needs --by or --every; a \
                changed amount keeps its date), --target none removes it.
                """
        )

        @Argument(help: "The budget's current name, ignoring case and accents.", completion: .budgetNames)
        var name: String

        @Option(name: .customLong("name"), help: ArgumentHelp("Give the budget this new name.", valueName: "new-name"))
        var newName: String?

        @Option(help: ArgumentHelp("Set this new limit, from --from on.", valueName: "amount"))
        var limit: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("The period the new limit applies from, \(PhraseHelp.months) (default: the current one).", valueName: "month"))
        var from: String?

        @Option(help: "What a period carries into the next: nothing, what is left, or also what is overspent.")
        var rollover: RolloverPolicy?

        @Option(help: ArgumentHelp("The most a period may have available, carried amount included.", valueName: "amount"))
        var cap: String?

        @Flag(help: "Take the cap away.")
        var noCap = false

        @Option(parsing: .unconditional, help: ArgumentHelp("The budget's first period, \(PhraseHelp.months).", valueName: "month"))
        var start: String?

        @Option(help: ArgumentHelp("The percent of the limit from which the budget shows a warning, 1 to 100.", valueName: "percent"))
        var warn: Int?

        @Option(help: ArgumentHelp("The budget's own currency, an ISO 4217 code like JPY, or none for the ledger's; its amounts are read in it, so give --limit with it.", valueName: "code"))
        var currency: String?

        @OptionGroup var goal: TargetOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            if from != nil, limit == nil { throw ValidationError("--from applies only with --limit") }
            guard newName != nil || limit != nil || rollover != nil || cap != nil || noCap || start != nil || warn != nil || goal.isGiven else {
                throw ValidationError("nothing to change: give --name, --limit, --rollover, --cap, --start, --warn or --target")
            }
            if let warn { try ArgumentValue.check(warn, BudgetLevel.checkWarn) }
            if cap != nil, noCap { throw ValidationError("--cap and --no-cap cannot be used together") }
            if let limit { _ = try ArgumentValue.limit(limit) }
            if let cap { _ = try ArgumentValue.money(cap) }
            if let start { _ = try ArgumentValue.month(start) }
            if let from { _ = try ArgumentValue.period(from) }
            if let currency {
                let amounts = (try limit.map { [try ArgumentValue.limit($0)] } ?? []) + (try cap.map { [try ArgumentValue.money($0)] } ?? [])
                    + (try goal.change().change.amount.map { [$0] } ?? [])
                try ArgumentValue.check(amounts, in: try ArgumentValue.budgetCurrency(currency))
            }
        }

        func run() throws {
            let edit = EditBudget(
                name: name, newName: newName,
                newLimit: try limit.map { (text: String) throws(ValidationError) in try ArgumentValue.limit(text) },
                limitFrom: try from.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) },
                rollover: rollover, cap: try cap.map { (text: String) throws(ValidationError) in try ArgumentValue.money(text) },
                removesCap: noCap,
                start: try start.map { (text: String) throws(ValidationError) in try ArgumentValue.month(text) }, warn: warn,
                target: try goal.change().change, targetAccount: try goal.change().account,
                currency: try currency.map { (text: String) throws(ValidationError) in try ArgumentValue.budgetCurrency(text) })
            let ledger = store.ledger
            let (before, budget) = try edit.run(in: ledger)
            let renamed = before.name == budget.name ? "" : " (was \(quoted(before.name)))"
            let money = try Preferences.current.moneyFormat(for: ledger).figures(of: budget)
            let target = budget.target.map { "; saving toward \(BudgetPhrases.target($0, money: money))" }
                ?? (before.target == nil ? "" : "; no target")
            Console.write("Updated budget \(quoted(budget.name))\(renamed): \(BudgetPhrases.limit(of: budget, money: money))\(target).")
        }
    }
}
