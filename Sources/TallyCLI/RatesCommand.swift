import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally rates`: the ledger's own table of exchange rates, kept locally so conversions work offline.
struct RatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates",
        abstract: "Keep the exchange rates that expenses in other currencies are converted at.",
        discussion: """
            A rate reads "one FROM is worth RATE TO". An expense in another currency takes the \
            latest rate on or before its day (a weekend takes Friday's), else the inverse of the \
            pair's, else a rate through a third currency quoted against both (EUR for the ECB's \
            file). Changing the table never changes recorded expenses: 'rates reapply' does.
            """,
        subcommands: [Import.self, List.self, Set.self, Reapply.self]
    )

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import rates from the ECB's reference-rate CSV or a 'date,from,to,rate' file.",
            discussion: """
                The European Central Bank's eurofxref-hist.csv (a Date column, then each \
                currency's units per 1 EUR, N/A for gaps) or a plain file with the header \
                date,from,to,rate. A rate already kept for the same day and pair is replaced. \
                All of the file or nothing is saved.
                """
        )

        @OptionGroup var store: CommonOptions

        @Argument(help: "The CSV file to read.", completion: .file())
        var file: String

        func run() throws {
            let count = try ImportRates(path: file).run(in: store.ledger)
            Console.write("Imported \(count) rate\(count == 1 ? "" : "s").")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the kept rates by day.")

        @OptionGroup var store: CommonOptions

        @Option(help: ArgumentHelp("Only rates from or to this currency.", valueName: "code"))
        var currency: String?

        @Option(help: ArgumentHelp("From this day (YYYY-MM-DD).", valueName: "day"))
        var from: String?

        @Option(help: ArgumentHelp("Up to this day (YYYY-MM-DD).", valueName: "day"))
        var to: String?

        @OptionGroup var output: OutputOptions

        func validate() throws { _ = try query() }

        private func query() throws(ValidationError) -> RateQuery {
            let code = try currency.map { (text: String) throws(ValidationError) in try ArgumentValue.check(text, Currency.init(code:)) }
            let first = try from.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) }
            let last = try to.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) }
            guard first == nil && last == nil else {
                let interval = DayInterval.from(first, to: last)
                guard interval.first <= interval.last else {
                    throw ValidationError(TallyError.rangeEndsBeforeItStarts(interval).message)
                }
                return RateQuery(currency: code, days: interval)
            }
            return RateQuery(currency: code)
        }

        func run() throws {
            let rates = try ListRates(try query()).run(in: store.ledger)
            var text = output.json ? try ListJSON.encode(rates.map(ListJSON.RateItem.init)) : ListRenderers.ratesAsTable(rates)
            if text.hasSuffix("\n") { text.removeLast() }
            Console.write(text)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Keep one rate: on DAY, one FROM is worth RATE TO.",
            discussion: "Example: 'tally rates set 2026-03-06 JPY EUR 0.0062' (one yen was 0.0062 euro)."
        )

        @OptionGroup var store: CommonOptions

        @Argument(help: "The day (YYYY-MM-DD).")
        var day: String
        @Argument(help: "The currency of one unit, such as JPY.")
        var from: String
        @Argument(help: "The currency the rate is in, such as EUR.")
        var to: String
        @Argument(help: "How many TO one FROM is worth, like 0.0062.")
        var rate: String

        func validate() throws { _ = try dayRate() }

        private func dayRate() throws(ValidationError) -> DayRate {
            let row = DayRate(
                day: try ArgumentValue.day(day), from: try ArgumentValue.check(from, Currency.init(code:)),
                to: try ArgumentValue.check(to, Currency.init(code:)), rate: try ArgumentValue.rate(rate))
            do { try DayRate.check([row]) } catch { throw ValidationError(error.message) }
            return row
        }

        func run() throws {
            let row = try dayRate()
            try SetRate(row).run(in: store.ledger)
            Console.write("On \(row.day.isoString), 1 \(row.from.code) = \(row.rate.plainString) \(row.to.code).")
        }
    }

    struct Reapply: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reapply",
            abstract: "Convert again, at the table's rates, the expenses and incomes whose rate came from the table.",
            discussion: """
                Expenses and incomes given a rate with --rate keep it. Shows the change per budget, and \
                the incomes' in all; all the changes are one step for 'tally undo'. --from and --to are calendar months.
                """
        )

        @OptionGroup var store: CommonOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("From this month (YYYY-MM).", valueName: "month"))
        var from: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Up to this month (YYYY-MM).", valueName: "month"))
        var to: String?

        @Flag(help: "Show what would change and write nothing.")
        var dryRun = false

        @OptionGroup var output: OutputOptions

        func validate() throws { _ = try days() }

        private func days() throws(ValidationError) -> DayInterval? {
            let first = try from.map { (text: String) throws(ValidationError) in try ArgumentValue.month(text) }
            let last = try to.map { (text: String) throws(ValidationError) in try ArgumentValue.month(text) }
            guard first != nil || last != nil else { return nil }
            let interval = DayInterval.from(first?.firstDay, to: last?.lastDay)
            guard interval.first <= interval.last else { throw ValidationError(TallyError.rangeEndsBeforeItStarts(interval).message) }
            return interval
        }

        func run() throws {
            let ledger = store.ledger
            let (outcome, names, accounts) = try ReapplyRates(days: try days(), dryRun: dryRun).run(in: ledger)
            var text: String
            if output.json {
                text = try ListJSON.encode(
                    outcome.changes.map { ListJSON.RateChangeItem($0, budgetName: names[$0.before.budgetID] ?? "") }
                        + outcome.incomes.map { ListJSON.RateChangeItem($0, accountName: accounts[$0.before.accountID] ?? "") })
            } else {
                text = ListRenderers.reapplication(outcome, budgetNames: names, dryRun: dryRun, money: try Preferences.current.moneyFormat(for: ledger))
            }
            if text.hasSuffix("\n") { text.removeLast() }
            Console.write(text)
        }
    }
}
