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
        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let (settings, account) = try ShowSettings().runNamingAccount(in: ledger)
            let snapshots = try ShowSnapshotLimit().run(in: ledger)
            if output.json {
                Console.write(try ListJSON.encode(ListJSON.SettingsItem(settings, defaultAccount: account, snapshots: snapshots)))
            } else {
                Console.write(
                    "month-start \(settings.calendar.monthStart)\nwarn \(settings.warn)\ncurrency \(settings.currency?.code ?? "none")\nhistory-days \(settings.historyDays)"
                        + "\ndefault-account \(account ?? "none")" + (snapshots.map { "\nsnapshots \($0)" } ?? ""))
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
                changes how history is grouped, not the history. warn PERCENT (1 to 100, default \
                80): the warning level a budget added without --warn gets. history-days DAYS (1 \
                to 36500, default 365): how long 'tally log' and 'tally undo' reach back; older \
                changes are pruned whole.

                currency CODE (an ISO 4217 code such as EUR, or none, the default): what the \
                amounts are in. Text, PNG and HTML show it with the symbol where the locale puts \
                it; JSON carries the code as "currency"; amounts never change.

                snapshots N (0 to 1000, default 10): how many snapshots of a ledger file are \
                kept (see tally backup); 0 turns the automatic ones off.

                default-account NAME (or none, the default): the account an expense is paid \
                from when it names none with --account and the config file sets no \
                default-account.
                """
        )

        enum Key: String, ExpressibleByArgument, CaseIterable {
            case monthStart = "month-start"
            case warn
            case currency
            case historyDays = "history-days"
            case snapshots
            case defaultAccount = "default-account"
        }

        @Argument(help: "The setting.")
        var key: Key

        @Argument(help: "Its new value.")
        var value: String

        @OptionGroup var store: CommonOptions

        func validate() throws {
            switch key {
            case .monthStart: _ = try day()
            case .warn: _ = try percent()
            case .currency: _ = try currency()
            case .historyDays: _ = try historyDays()
            case .snapshots: _ = try snapshotLimit()
            case .defaultAccount: break
            }
        }

        private func snapshotLimit() throws(ValidationError) -> Int {
            guard let limit = Int(value) else {
                throw ValidationError("invalid number of snapshots \(quoted(value)): use a whole number from 0 to 1000")
            }
            try ArgumentValue.check(limit, SnapshotLimit.check)
            return limit
        }

        private func percent() throws(ValidationError) -> Int {
            guard let percent = Int(value) else { throw ValidationError("invalid warning level \(quoted(value)): use a whole percent from 1 to 100") }
            try ArgumentValue.check(percent, BudgetLevel.checkWarn)
            return percent
        }

        /// `none` removes the currency.
        private func currency() throws(ValidationError) -> Currency? {
            guard value.lowercased() != "none" else { return nil }
            do {
                return try Currency(code: value)
            } catch {
                throw ValidationError(error.message)
            }
        }

        private func historyDays() throws(ValidationError) -> Int {
            guard let days = Int(value) else {
                throw ValidationError("invalid history length \(quoted(value)): use a whole number of days from 1 to 36500")
            }
            try ArgumentValue.check(days, LedgerSettings.checkHistoryDays)
            return days
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
            switch key {
            case .monthStart:
                let settings = try SetMonthStart(day: try day()).run(in: store.ledger)
                Console.write("Months now start on day \(settings.calendar.monthStart).")
            case .currency:
                let settings = try SetCurrency(currency: try currency()).run(in: store.ledger)
                Console.write(settings.currency.map { "Amounts are now in \($0.code)." } ?? "Amounts now have no currency.")
            case .warn:
                let settings = try SetWarnLevel(percent: try percent()).run(in: store.ledger)
                Console.write("Budgets added from now on warn at \(settings.warn) %.")
            case .historyDays:
                let settings = try SetHistoryDays(days: try historyDays()).run(in: store.ledger)
                Console.write("History now reaches back \(settings.historyDays) day\(settings.historyDays == 1 ? "" : "s").")
            case .snapshots:
                let limit = try SetSnapshotLimit(limit: try snapshotLimit()).run(at: store.location)
                Console.write(limit == 0 ? "Automatic snapshots are now off." : "The newest \(limit) snapshots are now kept.")
            case .defaultAccount:
                let account = try SetDefaultAccount(name: value.lowercased() == "none" ? nil : value).run(in: store.ledger)
                Console.write(account.map { "Expenses are now paid from \(quoted($0.name)) unless they name an account." }
                    ?? "Expenses now name no account unless they are given one.")
            }
        }
    }
}
