import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally settings`: what the ledger itself keeps, so everyone who uses it agrees.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change the ledger's settings.",
        subcommands: [Show.self, Change.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the ledger's settings.")

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let settings = try ShowSettings().run(in: store.ledger)
            if output.json {
                Console.write(try ListJSON.encode(["monthStart": settings.calendar.monthStart]))
            } else {
                Console.write("month-start \(settings.calendar.monthStart)")
            }
        }
    }

    struct Change: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a setting.",
            discussion: """
                month-start DAY (1 to 28, default 1): the day every period starts on, such as pay \
                day. Period 2026-11 with month-start 25 runs from 2026-11-25 to 2026-12-24. It \
                changes how history is grouped, not the history.
                """
        )

        enum Key: String, ExpressibleByArgument, CaseIterable {
            case monthStart = "month-start"
        }

        @Argument(help: "The setting.")
        var key: Key

        @Argument(help: "Its new value.")
        var value: String

        @OptionGroup var store: StoreOptions

        func validate() throws {
            _ = try day()
        }

        private func day() throws(ValidationError) -> Int {
            guard let day = Int(value) else { throw ValidationError("invalid month start \(quoted(value)): use a day from 1 to 28") }
            do {
                return try PeriodCalendar(monthStart: day).monthStart
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() throws {
            let settings = try SetMonthStart(day: try day()).run(in: store.ledger)
            Console.write("Months now start on day \(settings.calendar.monthStart).")
        }
    }
}
