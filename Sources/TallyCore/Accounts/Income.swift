import Foundation

/// Money in: an amount paid to an account on a day, by a payer (its name).
public struct Income: Identifiable, Hashable, Sendable, Codable {
    /// Assigned by the store; `nil` until the income is saved.
    public var id: Int64?
    /// Who paid it: "Salary", "ACME Corp".
    public var name: String
    public var amount: Money
    public var date: Day
    public var accountID: Int64
    /// Lowercased, unique and sorted once validated, as an expense's.
    public var tags: [String]
    /// Who received it, with the defaults of an expense's ``Expense/by``.
    public var by: String
    /// An income in another currency than the ledger's: its original amount and the rate that
    /// gave ``amount``, as an expense's ``Expense/foreign``.
    public var foreign: ForeignCharge?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, amount: Money, date: Day, accountID: Int64, tags: [String] = [], by: String = "",
        foreign: ForeignCharge? = nil, createdAt: Date = Date(), updatedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.amount = amount
        self.date = date
        self.accountID = accountID
        self.tags = tags
        self.by = by
        self.foreign = foreign
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// Returns the income with its name trimmed and its tags normalized, or the first broken
    /// rule: an expense's rules for the name, amount, tags and person.
    public func validated() throws(TallyError) -> Income {
        var income = self
        income.name = try NameKey.validated(name, kind: .income, maximumLength: Expense.maximumNameLength)
        try Expense.checkAmount(amount)
        income.tags = try Expense.normalizedTags(tags)
        if !by.isEmpty { income.by = try Expense.validatedBy(by) }
        return income
    }

    /// The key used to search names ignoring case and diacritics.
    public var nameKey: String { NameKey.make(name) }
}

/// Money moved between two of the ledger's accounts: neither income nor spending.
public struct Transfer: Identifiable, Hashable, Sendable, Codable {
    /// Assigned by the store; `nil` until the transfer is saved.
    public var id: Int64?
    public var amount: Money
    public var date: Day
    public var fromAccountID: Int64
    public var toAccountID: Int64
    /// What it was for ("Card payment"); may be empty.
    public var name: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, amount: Money, date: Day, from: Int64, to: Int64, name: String = "", createdAt: Date = Date(),
        updatedAt: Date? = nil
    ) {
        self.id = id
        self.amount = amount
        self.date = date
        fromAccountID = from
        toAccountID = to
        self.name = name
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// Returns the transfer with its name trimmed, or the first broken rule.
    public func validated() throws(TallyError) -> Transfer {
        var transfer = self
        try Expense.checkAmount(amount)
        guard fromAccountID != toAccountID else { throw .transferToSameAccount }
        let trimmed = NameKey.trimmed(name)
        transfer.name = trimmed.isEmpty ? "" : try NameKey.validated(trimmed, kind: .transfer, maximumLength: Expense.maximumNameLength)
        return transfer
    }
}

/// A balance the user checked against the bank's on a day (`tally reconcile`): held for an
/// asset, owed for a liability. Entries of the account up to that day are reconciled.
public struct BalanceAssertion: Hashable, Sendable, Codable {
    public var accountID: Int64
    public var date: Day
    public var balance: Money
    public var createdAt: Date

    public init(accountID: Int64, date: Day, balance: Money, createdAt: Date = Date()) {
        self.accountID = accountID
        self.date = date
        self.balance = balance
        self.createdAt = createdAt
    }

    /// A balance is at most ``Money/maximumInput`` either way.
    public func validated() throws(TallyError) -> BalanceAssertion {
        guard balance.cents.magnitude <= Money.maximumInput.cents.magnitude else { throw .amountOutOfRange(balance.plainString) }
        return self
    }
}
