import TallyCore

extension ListRenderers {
    /// `account list`: each account's kind and balance (what is owed for a liability) and the day
    /// it was reconciled through.
    public static func accountsAsTable(
        _ accounts: [(account: Account, balance: Money?, reconciledThrough: Day?)], money: MoneyFormat = .plain
    ) -> String {
        // The IBAN or number gets a column once an account has one.
        let numbered = accounts.contains { $0.account.number != nil }
        var table = Table([.left("Account"), .left("Kind"), .right("Balance"), .left("Reconciled")] + (numbered ? [.left("Number")] : []))
        for (account, balance, reconciled) in accounts {
            let kind = account.kind.rawValue + (account.kind.isLiability ? " (owed)" : "") + (account.archived ? ", archived" : "")
            table.append([account.name, kind, balance.map(money.string) ?? "-", reconciled?.isoString ?? "-"] + (numbered ? [account.number ?? "-"] : []))
        }
        return table.rendered()
    }

    /// `account show`: the balance (owed, for a liability), the day it is reconciled through,
    /// each period's closing balance, then the period's entries.
    public static func accountAsText(
        _ account: Account, balance: Money?, reconciledThrough: Day?, period: Month, closings: [(period: Month, balance: Money)],
        entries: [AccountEntry], money: MoneyFormat = .plain
    ) -> String {
        var lines = ["\(account.name) (\(account.kind.rawValue)), \(period.isoString)"]
        if let number = account.number { lines.append("Number: \(number)") }
        lines.append("Balance: \(balance.map(money.string) ?? "-")" + (account.kind.isLiability ? " owed" : ""))
        if let reconciledThrough { lines.append("Reconciled through \(reconciledThrough.isoString)") }
        if !closings.isEmpty {
            lines.append("\nMonth ends:")
            for closing in closings { lines.append("  \(closing.period.isoString)  \(money.string(closing.balance))") }
        }
        lines.append("")
        lines.append(entries.isEmpty ? "No entries in \(period.isoString)." : accountEntriesAsTable(entries, money: money))
        return lines.joined(separator: "\n")
    }

    /// What `reconcile` says when the balance does not match: the difference, then the entries
    /// since the last assertion.
    public static func reconciliationMiss(_ result: Reconciliation, money: MoneyFormat = .plain) throws(TallyError) -> String {
        let since = result.previous.map { "since \($0.date.isoString)" } ?? "since the account opened"
        return "\(result.account.name) does not reconcile on \(result.day.isoString): the bank says \(money.string(result.asserted)), "
            + "Tally has \(money.string(result.actual)), a difference of \(money.string(try result.difference())).\n"
            + (result.entriesSince.isEmpty ? "No entries \(since)." : "Entries \(since):\n" + accountEntriesAsTable(result.entriesSince, money: money))
    }

    /// `reconcile --list`.
    public static func assertionsAsTable(_ assertions: [(account: Account, assertion: BalanceAssertion)], money: MoneyFormat = .plain) -> String {
        var table = Table([.left("Account"), .left("Date"), .right("Balance")])
        for (account, assertion) in assertions { table.append([account.name, assertion.date.isoString, money.string(assertion.balance)]) }
        return table.rendered()
    }

    /// An account's entries, each with what it did to the balance.
    static func accountEntriesAsTable(_ entries: [AccountEntry], money: MoneyFormat) -> String {
        var table = Table([.left("Date"), .left("Kind"), .right("ID"), .left("Name"), .right("Change")])
        for entry in entries {
            table.append([entry.date.isoString, entry.kind.rawValue, String(entry.id), entry.name, money.string(entry.change)])
        }
        return table.rendered()
    }

    /// `income list`.
    public static func incomesAsTable(_ incomes: [Income], accountNames: [Int64: String], money: MoneyFormat = .plain) -> String {
        // The amount as received only when an income was in another currency, as expense lists show it.
        let showOriginal = incomes.contains { $0.foreign != nil }
        var columns: [Table.Column] = [.right("ID"), .left("Date"), .left("Name"), .left("Account"), .right("Amount"), .left("Tags"), .left("By")]
        if showOriginal { columns += [.right("Received"), .right("Rate")] }
        var table = Table(columns)
        for income in incomes {
            var row = [
                String(income.id ?? 0), income.date.isoString, income.name, accountNames[income.accountID] ?? "",
                money.string(income.amount), income.tags.joined(separator: ", "), income.by,
            ]
            if showOriginal { row += ListRenderers.originalColumns(income.foreign) }
            table.append(row)
        }
        return table.rendered()
    }

    /// `transfer list`.
    public static func transfersAsTable(_ transfers: [Transfer], accountNames: [Int64: String], money: MoneyFormat = .plain) -> String {
        var table = Table([.right("ID"), .left("Date"), .left("From"), .left("To"), .right("Amount"), .left("Name")])
        for transfer in transfers {
            table.append([
                String(transfer.id ?? 0), transfer.date.isoString, accountNames[transfer.fromAccountID] ?? "",
                accountNames[transfer.toAccountID] ?? "", money.string(transfer.amount), transfer.name,
            ])
        }
        return table.rendered()
    }
}

extension ListJSON {
    /// An account's figures: `balance` at the end of the day asked (`null` before its opening
    /// day), held for an asset and owed for a liability (`liability` says which);
    /// `reconciledThrough`, `openingDate` and `number` (its IBAN or account number) are `null`
    /// when there is none.
    public struct AccountItem: Encodable, Sendable {
        public var name: String
        public var kind: String
        public var liability: Bool
        public var balance: Nullable<String>
        public var opening: String
        public var openingDate: Nullable<String>
        public var reconciledThrough: Nullable<String>
        public var archived: Bool
        public var number: Nullable<String>

        public init(_ account: Account, balance: Money?, reconciledThrough: Day?) {
            number = Nullable(account.number)
            name = account.name
            kind = account.kind.rawValue
            liability = account.kind.isLiability
            self.balance = Nullable(balance?.plainString)
            opening = account.opening.plainString
            openingDate = Nullable(account.openingDate?.isoString)
            self.reconciledThrough = Nullable(reconciledThrough?.isoString)
            archived = account.archived
        }
    }

    /// One entry of an account: `change` is what it did to the balance.
    public struct AccountEntryItem: Encodable, Sendable {
        public var kind: String
        public var id: Int64
        public var date: String
        public var name: String
        public var amount: String
        public var change: String

        public init(_ entry: AccountEntry) {
            kind = entry.kind.rawValue
            id = entry.id
            date = entry.date.isoString
            name = entry.name
            amount = entry.amount.plainString
            change = entry.change.plainString
        }
    }

    /// A period's closing balance.
    public struct ClosingItem: Encodable, Sendable {
        public var month: String
        public var balance: String

        public init(month: Month, balance: Money) {
            self.month = month.isoString
            self.balance = balance.plainString
        }
    }

    /// `account show --json`: the account's figures, its closing balances and the period's entries.
    public struct AccountDetail: Encodable, Sendable {
        public var account: AccountItem
        public var month: String
        public var from: String
        public var to: String
        public var closings: [ClosingItem]
        public var entries: [AccountEntryItem]

        public init(
            _ account: AccountItem, month: Month, days: DayInterval, closings: [(period: Month, balance: Money)], entries: [AccountEntry]
        ) {
            self.account = account
            self.month = month.isoString
            from = days.first.isoString
            to = days.last.isoString
            self.closings = closings.map { ClosingItem(month: $0.period, balance: $0.balance) }
            self.entries = entries.map(AccountEntryItem.init)
        }
    }

    /// `income list --json`: `by` is `null` when the income records no one.
    public struct IncomeItem: Encodable, Sendable {
        public var id: Int64
        public var name: String
        public var amount: String
        public var date: String
        public var account: String
        public var tags: [String]
        public var by: Nullable<String>
        /// An income in another currency, as an expense's (``ExpenseItem/originalAmount``): the four
        /// keys appear only on such incomes; `amount` is always the ledger's currency.
        public var originalAmount: String?
        public var currency: String?
        public var rate: String?
        public var rateSource: String?

        public init(_ income: Income, accountName: String) {
            id = income.id ?? 0
            name = income.name
            amount = income.amount.plainString
            date = income.date.isoString
            account = accountName
            tags = income.tags
            by = Nullable(income.by.isEmpty ? nil : income.by)
            originalAmount = income.foreign?.original.plainString
            currency = income.foreign?.original.currency.code
            rate = income.foreign?.rate.plainString
            rateSource = income.foreign?.source.rawValue
        }
    }

    /// `transfer list --json`.
    public struct TransferItem: Encodable, Sendable {
        public var id: Int64
        public var amount: String
        public var date: String
        public var from: String
        public var to: String
        public var name: String

        public init(_ transfer: Transfer, accountNames: [Int64: String]) {
            id = transfer.id ?? 0
            amount = transfer.amount.plainString
            date = transfer.date.isoString
            from = accountNames[transfer.fromAccountID] ?? ""
            to = accountNames[transfer.toAccountID] ?? ""
            name = transfer.name
        }
    }

    /// `reconcile --list --json`: one assertion.
    public struct AssertionItem: Encodable, Sendable {
        public var account: String
        public var date: String
        public var balance: String

        public init(account: Account, assertion: BalanceAssertion) {
            self.account = account.name
            date = assertion.date.isoString
            balance = assertion.balance.plainString
        }
    }
}
