import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension Tally {
    struct Prices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prices",
            abstract: "Show what things cost you per unit, period by period.",
            discussion: """
                Takes the expenses whose name contains NAME, ignoring case and accents as --search \
                does, and shows per period the unit price (the amount, not the total) weighted by \
                quantity and rounded to the nearest cent, the lowest and the highest, and the \
                change from the first period. Without --from it covers the twelve periods up to \
                --to (default: the current one).
                """
        )

        @OptionGroup var store: CommonOptions

        @Argument(help: "A word of the expense names, like coffee or milk.")
        var name: String

        @Option(parsing: .unconditional, help: ArgumentHelp("From the period that starts in this month, \(PhraseHelp.months).", valueName: "month"))
        var from: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Up to this month's period (default: the current one).", valueName: "month"))
        var to: String?

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if name.allSatisfy(\.isWhitespace) { throw ValidationError("NAME needs something to look for") }
            let (first, last) = try periods()
            if case .month(let start) = first, case .month(let end) = last {
                do { _ = try PeriodRange(from: start, to: end) } catch { throw ValidationError(error.message) }
            }
        }

        private func periods() throws(ValidationError) -> (PeriodChoice?, PeriodChoice) {
            let first = try from.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) }
            let last = try to.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) } ?? .current
            return (first, last)
        }

        func run() throws {
            let (first, last) = try periods()
            let ledger = store.ledger
            let report = try UnitPriceReport(search: name, from: first, to: last, today: Day.today()).run(in: ledger)
            var text =
                output.json ? try PriceRenderers.json(report) : PriceRenderers.text(report, money: try Preferences.current.moneyFormat(for: ledger))
            if text.hasSuffix("\n") { text.removeLast() }
            Console.write(text)
        }
    }
}
