import Foundation

/// One entry of an account as it moves the balance: the rule of ``AccountBook/balance(of:through:)``
/// in one place.
public struct AccountEntry: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, Codable {
        case income
        case transferIn = "transfer-in"
        case transferOut = "transfer-out"
        case expense

        /// On one day: incomes first, then transfers in, then out, then spending.
        var rank: Int {
            switch self {
            case .income: 0
            case .transferIn: 1
            case .transferOut: 2
            case .expense: 3
            }
        }
    }

    public var kind: Kind
    /// The income's, transfer's or expense's id.
    public var id: Int64
    public var date: Day
    public var name: String
    /// As entered (an expense's total): always positive.
    public var amount: Money
    /// What it does to the balance: positive raises it (more held, or more owed).
    public var change: Money
}

/// The accounts with what moves their balances, read once: balances, reconciliation and the
/// entries of a month are computed here, above the stores.
///
/// The balance of an account at the end of a day is its opening balance plus every entry up to
/// and including that day: for an asset, incomes and transfers in add, transfers out and
/// expenses paid from it take away; for a liability (what is owed) the same entries count the
/// other way round. Balances come from the accounts' days (``AccountDay``), never from summing
/// every entry; the incomes and transfers themselves are read only when a command lists or
/// changes them (``LedgerRows/accountBook(withEntries:)``).
public struct AccountBook: Sendable {
    public let accounts: [Account]
    /// Oldest first, ids breaking ties; empty when read without entries.
    public let incomes: [Income]
    /// Oldest first, ids breaking ties; empty when read without entries.
    public let transfers: [Transfer]
    /// By account id, then day.
    public let assertions: [BalanceAssertion]
    /// Each account's incomes and transfers (by account id), ordered by day, kind, then id.
    public let entries: [Int64: [AccountEntry]]
    /// Each account's days (by account id), oldest first.
    public let days: [Int64: [AccountDay]]

    public init(
        accounts: [Account], incomes: [Income] = [], transfers: [Transfer] = [], assertions: [BalanceAssertion], days: [AccountDay]
    ) {
        self.accounts = accounts
        self.days = Dictionary(grouping: days, by: \.accountID).mapValues { $0.sorted { $0.date < $1.date } }
        self.incomes = incomes.sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
        self.transfers = transfers.sorted { ($0.date, $0.id ?? 0) < ($1.date, $1.id ?? 0) }
        self.assertions = assertions.sorted { ($0.accountID, $0.date) < ($1.accountID, $1.date) }
        var kinds: [Int64: AccountKind] = [:]
        for account in accounts { kinds[account.id ?? 0] = account.kind }
        func change(_ amount: Money, into id: Int64) -> Money {
            kinds[id]?.isLiability == true ? Money(cents: -amount.cents) : amount
        }
        var entries: [Int64: [AccountEntry]] = [:]
        for income in incomes {
            entries[income.accountID, default: []].append(AccountEntry(
                kind: .income, id: income.id ?? 0, date: income.date, name: income.name, amount: income.amount,
                change: change(income.amount, into: income.accountID)))
        }
        for transfer in transfers {
            entries[transfer.toAccountID, default: []].append(AccountEntry(
                kind: .transferIn, id: transfer.id ?? 0, date: transfer.date, name: transfer.name, amount: transfer.amount,
                change: change(transfer.amount, into: transfer.toAccountID)))
            let out = Money(cents: -transfer.amount.cents)
            entries[transfer.fromAccountID, default: []].append(AccountEntry(
                kind: .transferOut, id: transfer.id ?? 0, date: transfer.date, name: transfer.name, amount: transfer.amount,
                change: change(out, into: transfer.fromAccountID)))
        }
        self.entries = entries.mapValues { list in
            list.sorted { ($0.date, $0.kind.rank, $0.id) < ($1.date, $1.kind.rank, $1.id) }
        }
    }

    /// The account with id `id`; ``TallyError/accountNotFound(_:)`` naming it by `#` and id.
    public func account(id: Int64) throws(TallyError) -> Account {
        guard let account = accounts.first(where: { $0.id == id }) else { throw .accountNotFound("#\(id)") }
        return account
    }

    /// The income with id `id`; ``TallyError/incomeNotFound(_:)`` when there is none.
    public func income(id: Int64) throws(TallyError) -> Income {
        guard let income = incomes.first(where: { $0.id == id }) else { throw .incomeNotFound(id) }
        return income
    }

    /// The transfer with id `id`; ``TallyError/transferNotFound(_:)`` when there is none.
    public func transfer(id: Int64) throws(TallyError) -> Transfer {
        guard let transfer = transfers.first(where: { $0.id == id }) else { throw .transferNotFound(id) }
        return transfer
    }

    /// The incomes, transfers and assertions that name the account: what goes with it.
    public func rows(naming account: Account) -> [RowImage] {
        let id = account.id ?? 0
        return incomes.filter { $0.accountID == id }.map { .income($0) }
            + transfers.filter { $0.fromAccountID == id || $0.toAccountID == id }.map { .transfer($0) }
            + assertions.filter { $0.accountID == id }.map { .balanceAssertion($0) }
    }

    /// The account called `name` (``Account/named(_:in:)``).
    public func account(named name: String) throws(TallyError) -> Account {
        try Account.named(name, in: accounts)
    }

    /// Every income dated within `days`, whatever its account.
    public func income(in days: DayInterval) throws(TallyError) -> Money {
        var income = Money.zero
        for list in self.days.values {
            for day in list where days.contains(day.date) { income = try income + day.income }
        }
        return income
    }

    /// The first day with an entry of the account, expenses included.
    public func firstEntryDay(of account: Account) -> Day? {
        days[account.id ?? 0]?.first?.date
    }

    /// The account's incomes and transfers within `days` (every one when `nil`).
    public func entries(of account: Account, in days: DayInterval? = nil) -> [AccountEntry] {
        let all = entries[account.id ?? 0] ?? []
        guard let days else { return all }
        return all.filter { days.contains($0.date) }
    }

    /// The balance at the end of `day`; `nil` before the account's opening day.
    public func balance(of account: Account, through day: Day) throws(TallyError) -> Money? {
        if let opening = account.openingDate, day < opening { return nil }
        var change = Money.zero
        for entry in days[account.id ?? 0] ?? [] {
            guard entry.date <= day else { break }
            change = try change + entry.change
        }
        return account.kind.isLiability ? try account.opening - change : try account.opening + change
    }

    /// The account's assertions, oldest first.
    public func assertions(of account: Account) -> [BalanceAssertion] {
        assertions.filter { $0.accountID == account.id }
    }

    /// The last day an assertion reconciled the account through.
    public func reconciledThrough(_ account: Account) -> Day? {
        assertions(of: account).last?.date
    }

    /// What a change to an entry of `account` on `day` must respect: an account reconciled
    /// through that day or later changes only when `force`d.
    public func checkUnreconciled(_ account: Account, on day: Day, force: Bool) throws(TallyError) {
        guard !force, let through = reconciledThrough(account), day <= through else { return }
        throw .entryReconciled(account: account.name, through: through)
    }

    /// Each assertion with the balance the entries give on its day, where the two differ: what a
    /// later change broke.
    public func brokenAssertions() throws(TallyError) -> [BrokenAssertion] {
        var broken: [BrokenAssertion] = []
        for assertion in assertions {
            guard let account = accounts.first(where: { $0.id == assertion.accountID }) else { continue }
            let actual = try balance(of: account, through: assertion.date) ?? account.opening
            if actual != assertion.balance {
                broken.append(BrokenAssertion(account: account, assertion: assertion, actual: actual))
            }
        }
        return broken
    }
}

/// An assertion that the entries no longer give.
public struct BrokenAssertion: Hashable, Sendable {
    public var account: Account
    public var assertion: BalanceAssertion
    /// What the entries give on the assertion's day.
    public var actual: Money

    /// Actual minus asserted.
    public func difference() throws(TallyError) -> Money { try actual - assertion.balance }
}
