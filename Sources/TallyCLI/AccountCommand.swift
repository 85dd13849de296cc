import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

extension AccountKind: ExpressibleByArgument {}

struct AccountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Manage accounts: where money sits, and what is left in each.",
        subcommands: [Add.self, List.self, Show.self, Edit.self, Archive.self, Remove.self]
    )
}

extension AccountCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an account.",
            discussion: """
                credit and loan accounts are liabilities: their balance is what is owed. The opening \
                balance is the balance at the start of its day; entries before that day are refused.
                """)

        @Argument(help: "The account's name; unique ignoring case and accents.")
        var name: String

        @Option(help: "checking, savings, credit, cash or loan.")
        var kind: AccountKind

        @Option(parsing: .unconditional, help: "The balance on the opening day (owed, for credit and loan; default: 0).")
        var opening: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("The opening day, \(PhraseHelp.days) (default: today with --opening, else none).", valueName: "day"))
        var date: String?

        @OptionGroup var number: AccountNumberOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            if let opening { _ = try ArgumentValue.balance(opening) }
            if let date { _ = try ArgumentValue.day(date) }
            _ = try ArgumentValue.check(name) { (name: String) throws(TallyError) in try Account(name: name, kind: kind).validated() }
            guard !number.noNumber else { throw ValidationError("--no-number is for account edit") }
            _ = try number.value
        }

        func run() throws {
            let opening = try opening.map { (text: String) throws(ValidationError) in try ArgumentValue.balance(text) }
            let day = try date.map { (text: String) throws(ValidationError) in try ArgumentValue.day(text) } ?? (opening == nil ? nil : Day.today())
            let account = try AddAccount(Account(name: name, kind: kind, opening: opening ?? .zero, openingDate: day, number: try number.value ?? nil)).run(in: store.ledger)
            let money = try Preferences.current.moneyFormat(for: store.ledger)
            let since = account.openingDate.map { " on \($0.isoString)" } ?? ""
            Console.write("Added account \(quoted(account.name)) (\(account.kind.rawValue)), opening balance \(money.string(account.opening))\(since).")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the accounts with their balances today.")

        @Flag(help: "Include archived accounts.")
        var all = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let ledger = store.ledger
            let statuses = try ListAccounts(on: Day.today(), includingArchived: all).run(in: ledger)
            if output.json {
                Console.write(try ListJSON.encode(statuses.map { ListJSON.AccountItem($0.account, balance: $0.balance, reconciledThrough: $0.reconciledThrough) }))
            } else if statuses.isEmpty {
                Console.write("No accounts yet. Add one with 'tally account add NAME --kind checking'.")
            } else {
                let money = try Preferences.current.moneyFormat(for: ledger)
                Console.write(ListRenderers.accountsAsTable(statuses.map { ($0.account, $0.balance, $0.reconciledThrough) }, money: money))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show an account's balance at each month's end, and a month's entries.")

        @Argument(help: "The account's name, ignoring case and accents.", completion: .accountNames)
        var name: String

        @Option(parsing: .unconditional, help: ArgumentHelp("The month whose entries to show, \(PhraseHelp.months) (default: this month).", valueName: "month"))
        var month: String?

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            if let month { _ = try ArgumentValue.period(month) }
        }

        func run() throws {
            let ledger = store.ledger
            let period = try month.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) } ?? .current
            let detail = try ShowAccount(name: name, period: period, today: Day.today()).run(in: ledger)
            let status = detail.status
            if output.json {
                let item = ListJSON.AccountItem(status.account, balance: status.balance, reconciledThrough: status.reconciledThrough)
                Console.write(try ListJSON.encode(ListJSON.AccountDetail(
                    item, month: detail.period, days: detail.days, closings: detail.closings, entries: detail.entries)))
                return
            }
            let money = try Preferences.current.moneyFormat(for: ledger)
            Console.write(ListRenderers.accountAsText(
                status.account, balance: status.balance, reconciledThrough: status.reconciledThrough, period: detail.period,
                closings: detail.closings, entries: detail.entries, money: money))
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change an account's name, kind, opening balance, or IBAN or account number.")

        @Argument(help: "The account's name, ignoring case and accents.", completion: .accountNames)
        var name: String

        @Option(name: .customLong("name"), help: "A new name.")
        var newName: String?

        @Option(help: "checking, savings, credit, cash or loan.")
        var kind: AccountKind?

        @Option(parsing: .unconditional, help: "A new opening balance.")
        var opening: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("A new opening day, \(PhraseHelp.days), or 'none'.", valueName: "day"))
        var date: String?

        @OptionGroup var number: AccountNumberOptions
        @OptionGroup var store: CommonOptions

        func validate() throws {
            if let opening { _ = try ArgumentValue.balance(opening) }
            if let date, date != "none" { _ = try ArgumentValue.day(date) }
            let numberGiven = try number.value != nil
            guard newName != nil || kind != nil || opening != nil || date != nil || numberGiven else {
                throw ValidationError("nothing to change: give --name, --kind, --opening, --date, --iban, --number or --no-number")
            }
        }

        func run() throws {
            var edit = EditAccount(name: name, newName: newName, kind: kind)
            edit.opening = try opening.map { (text: String) throws(ValidationError) in try ArgumentValue.balance(text) }
            if let date { edit.openingDate = .some(date == "none" ? nil : try ArgumentValue.day(date)) }
            edit.number = try number.value
            let account = try edit.run(in: store.ledger)
            Console.write("Updated account \(quoted(account.name)).")
        }
    }

    struct Archive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive", abstract: "Archive an account: it keeps its history and leaves the lists.")

        @Argument(help: "The account's name, ignoring case and accents.", completion: .accountNames)
        var name: String

        @Flag(help: "Bring an archived account back to the lists.")
        var restore = false

        @OptionGroup var store: CommonOptions

        func run() throws {
            let account = try EditAccount(name: name, archived: !restore).run(in: store.ledger)
            Console.write("\(restore ? "Restored" : "Archived") account \(quoted(account.name)).")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove an account.",
            discussion: "An account that incomes, transfers or balance assertions name is removed only with --yes, and they go with it.")

        @Argument(help: "The account's name, ignoring case and accents.", completion: .accountNames)
        var name: String

        /// "1 entry", "2 entries".
        static func entries(_ count: Int) -> String { count == 1 ? "1 entry" : "\(count) entries" }

        @Flag(name: [.customShort("y"), .long], help: "Also delete the account's entries without asking.")
        var yes = false

        @OptionGroup var store: CommonOptions

        func run() throws {
            let (account, entries, expenses, goals) = try RemoveAccount(name: name, includingEntries: yes).run(in: store.ledger) { error in
                Console.confirm((error.errorDescription ?? "") + ". Remove the account?")
            }
            let kept = expenses == 0 ? "" : "; \(expenses == 1 ? "1 expense" : "\(expenses) expenses") now name no account"
            let names = goals.map { quoted($0) }.joined(separator: ", ")
            let unlinked = goals.isEmpty ? "" : goals.count == 1 ? "; the goal of \(names) names no account now" : "; the goals of \(names) name no account now"
            Console.write("Removed account \(quoted(account.name))\(entries == 0 ? "" : " and \(Self.entries(entries))")\(kept)\(unlinked).")
        }
    }
}

/// `--iban`, `--number` and `--no-number`: the account number a bank statement names the account by.
struct AccountNumberOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The account's IBAN, which bank statements name it by; its check digits must be right.", valueName: "iban"))
    var iban: String?

    @Option(help: ArgumentHelp("The account's number, when the bank gives no IBAN (OFX ACCTID, MT940 :25:).", valueName: "number"))
    var number: String?

    @Flag(help: "Forget the account's IBAN or number.")
    var noNumber = false

    /// `nil` when none of the three is given; `.some(nil)` for --no-number.
    var value: String?? {
        get throws(ValidationError) {
            if [iban != nil, number != nil, noNumber].filter({ $0 }).count > 1 {
                throw ValidationError("give only one of --iban, --number and --no-number")
            }
            if noNumber { return .some(nil) }
            if let iban {
                guard let normalized = Account.normalizedNumber(iban), Account.isIBAN(normalized) else {
                    throw ValidationError("invalid IBAN '\(iban)': check its country code, check digits and length")
                }
                return normalized
            }
            if let number {
                guard let normalized = Account.normalizedNumber(number) else {
                    throw ValidationError(TallyError.invalidAccountNumber(number).errorDescription ?? "invalid account number")
                }
                return normalized
            }
            return nil
        }
    }
}
