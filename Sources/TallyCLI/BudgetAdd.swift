import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension BudgetCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a budget with a monthly, yearly or one-off limit.",
            discussion: """
                A monthly budget's limit is for each period (a month, or pay day to pay day with \
                'tally settings set month-start DAY'); a yearly one's for the year's twelve periods; \
                a once budget's for the days from --from to --to. --rollover carries what is left \
                (surplus) or also what is overspent (both) into the next period; --cap bounds what \
                a period may have available. --target saves toward an amount: by a month with --by \
                (a sinking fund, best with --rollover surplus so what is saved carries over), or \
                every period with --every; --account names the account the money sits in.
                """
        )

        @Argument(help: "The budget's name; names are unique ignoring case and accents.")
        var name: String

        @Option(help: ArgumentHelp("The limit for each period, like 400 or 400.50.", valueName: "amount"))
        var limit: String

        @Option(help: "How often the limit renews.")
        var period: BudgetPeriod = .monthly

        @Option(parsing: .unconditional, help: ArgumentHelp("The first day a once budget covers, \(PhraseHelp.days).", valueName: "day"))
        var from: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("The last day a once budget covers (a day, as for --from).", valueName: "day"))
        var to: String?

        @Option(help: "What a period carries into the next: nothing, what is left, or also what is overspent.")
        var rollover: RolloverPolicy = .none

        @Option(help: ArgumentHelp("The most a period may have available, carried amount included.", valueName: "amount"))
        var cap: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("The budget's first period, \(PhraseHelp.months) (default: when it was created, or its earliest expense's).", valueName: "month"))
        var start: String?

        @Option(help: ArgumentHelp("The percent of the limit from which the budget shows a warning, 1 to 100 (default: the ledger's, 80 unless 'settings set warn' changed it).", valueName: "percent"))
        var warn: Int?

        @Option(help: ArgumentHelp("The budget's own currency, an ISO 4217 code like JPY (default, or none: the ledger's); its limit, cap and target are in it, and each expense counts converted at its day's rate.", valueName: "code"))
        var currency: String?

        @OptionGroup var goal: TargetOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            if goal.removesTarget { throw ValidationError("--target none applies only to 'budget edit'") }
            if goal.isGiven, goal.target == nil { throw ValidationError("--by, --every and --account apply only with --target") }
            if goal.target != nil {
                guard period != .once else { throw ValidationError("--target applies only to monthly and yearly budgets") }
                guard goal.by != nil || goal.every != nil else { throw ValidationError("--target needs --by MONTH or --every \(period == .yearly ? "year" : "month")") }
                if let every = goal.every, try TargetOptions.period(every) != period {
                    throw ValidationError("--every \(every) does not match --period \(period.rawValue): a target is set aside every period of its budget")
                }
            }
            _ = try ArgumentValue.limit(limit)
            if let warn { try ArgumentValue.check(warn, BudgetLevel.checkWarn) }
            if let cap { _ = try ArgumentValue.money(cap) }
            if let currency {
                let amounts = [try ArgumentValue.limit(limit)] + (try cap.map { [try ArgumentValue.money($0)] } ?? [])
                    + (try goal.change().change.amount.map { [$0] } ?? [])
                try ArgumentValue.check(amounts, in: try ArgumentValue.budgetCurrency(currency))
            }
            if let start { _ = try ArgumentValue.month(start) }
            if let from { _ = try ArgumentValue.day(from) }
            if let to { _ = try ArgumentValue.day(to) }
            if period == .once {
                guard from != nil, to != nil else { throw ValidationError("--period once needs --from and --to") }
                guard rollover == .none else { throw ValidationError("--rollover applies only to monthly and yearly budgets") }
                guard start == nil else { throw ValidationError("--start applies only to monthly and yearly budgets") }
            } else if from != nil || to != nil {
                throw ValidationError("--from and --to apply only to --period once")
            }
        }

        func run() throws {
            var range: DayInterval?
            if let from, let to { range = DayInterval(first: try ArgumentValue.day(from), last: try ArgumentValue.day(to)) }
            let budget = Budget(
                name: name, limit: try ArgumentValue.limit(limit), period: period, rollover: rollover,
                cap: try cap.map { (text: String) throws(ValidationError) in try ArgumentValue.money(text) },
                start: try start.map { (text: String) throws(ValidationError) in try ArgumentValue.month(text) }, range: range,
                currency: try currency.flatMap { (text: String) throws(ValidationError) in try ArgumentValue.budgetCurrency(text) })
            let ledger = store.ledger
            let (target, targetAccount) = try goal.change()
            let saved = try AddBudget(budget, warn: warn, target: target, targetAccount: targetAccount).run(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger).figures(of: saved)
            Console.write(
                "Added budget \(quoted(saved.name)) with a \(BudgetPhrases.limit(of: saved, joinedWithOf: true, money: money))"
                    + (saved.target.map { ", saving toward \(BudgetPhrases.target($0, money: money))" } ?? "") + ".")
        }
    }
}
