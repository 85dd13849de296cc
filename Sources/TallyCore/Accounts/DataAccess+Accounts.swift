import Foundation

extension LedgerRows {
    /// Every account with its incomes, transfers and assertions, from one read of the rows.
    public func accountBook() throws(TallyError) -> AccountBook {
        var accounts: [Account] = []
        var incomes: [Income] = []
        var transfers: [Transfer] = []
        var assertions: [BalanceAssertion] = []
        for row in try rowImages() {
            switch row {
            case .account(let account): accounts.append(account)
            case .income(let income): incomes.append(income)
            case .transfer(let transfer): transfers.append(transfer)
            case .balanceAssertion(let assertion): assertions.append(assertion)
            default: continue
            }
        }
        accounts.sort { ($0.nameKey, $0.id ?? 0) < ($1.nameKey, $1.id ?? 0) }
        return AccountBook(accounts: accounts, incomes: incomes, transfers: transfers, assertions: assertions)
    }

    /// Saves a row that gets its id from the store and returns it as saved.
    fileprivate func saved<T>(_ row: RowImage, as kind: (RowImage) -> T?) throws(TallyError) -> T {
        guard let saved = kind(try save(row)) else { throw .storage("a row was saved as another kind") }
        return saved
    }
}

// What the account commands do, written once for every store over its ``LedgerRows``.
extension DataAccess {
    /// Every account with what moves its balance (``LedgerRows/accountBook()``).
    public func accountBook() throws(TallyError) -> AccountBook {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.accountBook() }
    }

    // MARK: - Accounts

    /// Validates and saves a new account; names clash ignoring case and diacritics.
    public func addAccount(_ account: Account) throws(TallyError) -> Account {
        var account = try account.validated()
        account.id = nil
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            try account.checkNameIsFree(heldBy: try rows.accountBook().accounts.first { $0.nameKey == account.nameKey }?.id)
            account.createdAt = rows.timestamp
            account.updatedAt = rows.timestamp
            return try rows.saved(.account(account)) { if case .account(let saved) = $0 { saved } else { nil } }
        }
    }

    /// Saves a changed account: its name stays unique, and an opening day moved later must not
    /// leave entries before it.
    public func updateAccount(_ account: Account) throws(TallyError) -> Account {
        var account = try account.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            guard let id = account.id, let existing = book.accounts.first(where: { $0.id == id }) else {
                throw .accountNotFound(account.name)
            }
            try account.checkNameIsFree(heldBy: book.accounts.first { $0.nameKey == account.nameKey }?.id)
            if let first = book.entries(of: existing).first { try account.checkAccepts(first.date) }
            account.createdAt = existing.createdAt
            account.updatedAt = rows.timestamp
            try rows.save(.account(account))
            return account
        }
    }

    /// Removes the account called `name`. One with incomes, transfers or assertions is removed
    /// only with `includingEntries`, and they go with it. Returns the account and how many
    /// entries went.
    public func removeAccount(named name: String, includingEntries: Bool) throws(TallyError) -> (account: Account, entries: Int) {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let account = try book.account(named: name)
            let dependents = book.rows(naming: account)
            let entries = dependents.filter { if case .balanceAssertion = $0 { false } else { true } }.count
            if !dependents.isEmpty && !includingEntries { throw .accountInUse(account.name, entries: max(entries, 1)) }
            for row in dependents { try rows.delete(row) }
            try rows.delete(.account(account))
            return (account, entries)
        }
    }

    // MARK: - Incomes

    /// Validates and saves a new income to the account called `account`, on or after its
    /// opening day; returns it with that account.
    public func addIncome(_ income: Income, toAccountNamed account: String) throws(TallyError) -> (income: Income, account: Account) {
        var income = try income.validated()
        income.id = nil
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let account = try rows.accountBook().account(named: account)
            try account.checkAccepts(income.date)
            income.accountID = account.id ?? 0
            income.createdAt = rows.timestamp
            income.updatedAt = rows.timestamp
            return (try rows.saved(.income(income)) { if case .income(let saved) = $0 { saved } else { nil } }, account)
        }
    }

    /// Saves a changed income (`change` applied to the saved one, whose account is given as
    /// the book has it). An income reconciled before or after the change needs `force`.
    public func updateIncome(
        id: Int64, force: Bool, _ change: (inout Income, AccountBook) throws(TallyError) -> Void
    ) throws(TallyError) -> Income {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let existing = try book.income(id: id)
            var income = existing
            try change(&income, book)
            income = try income.validated()
            for (accountID, day) in [(existing.accountID, existing.date), (income.accountID, income.date)] {
                let account = try book.account(id: accountID)
                try account.checkAccepts(day)
                try book.checkUnreconciled(account, on: day, force: force)
            }
            income.updatedAt = rows.timestamp
            try rows.save(.income(income))
            return income
        }
    }

    /// Removes an income; one reconciled needs `force`. Returns it as it was.
    public func removeIncome(id: Int64, force: Bool) throws(TallyError) -> Income {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let income = try book.income(id: id)
            try book.checkUnreconciled(try book.account(id: income.accountID), on: income.date, force: force)
            try rows.delete(.income(income))
            return income
        }
    }

    /// Every income, oldest first, with ids breaking ties.
    public func incomes() throws(TallyError) -> [Income] { try accountBook().incomes }

    // MARK: - Transfers

    /// Validates and saves a transfer between the accounts called `from` and `to`; returns it
    /// with the two accounts.
    public func addTransfer(_ transfer: Transfer, from: String, to: String) throws(TallyError) -> (transfer: Transfer, from: Account, to: Account) {
        var transfer = transfer
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let source = try book.account(named: from)
            let target = try book.account(named: to)
            transfer.fromAccountID = source.id ?? 0
            transfer.toAccountID = target.id ?? 0
            transfer = try transfer.validated()
            try source.checkAccepts(transfer.date)
            try target.checkAccepts(transfer.date)
            transfer.id = nil
            transfer.createdAt = rows.timestamp
            transfer.updatedAt = rows.timestamp
            return (try rows.saved(.transfer(transfer)) { if case .transfer(let saved) = $0 { saved } else { nil } }, source, target)
        }
    }

    /// Removes a transfer; one that either account reconciled needs `force`. Returns it as it was.
    public func removeTransfer(id: Int64, force: Bool) throws(TallyError) -> Transfer {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let transfer = try book.transfer(id: id)
            for account in book.accounts where account.id == transfer.fromAccountID || account.id == transfer.toAccountID {
                try book.checkUnreconciled(account, on: transfer.date, force: force)
            }
            try rows.delete(.transfer(transfer))
            return transfer
        }
    }

    /// Every transfer, oldest first, with ids breaking ties.
    public func transfers() throws(TallyError) -> [Transfer] { try accountBook().transfers }

    // MARK: - Reconciliation

    /// What `reconcile` does, as one transaction: compares `balance` with the account's balance
    /// at the end of `day`. When they match, records the assertion (replacing one of the same
    /// day); when not, records nothing.
    public func reconcile(accountNamed name: String, balance: Money, on day: Day) throws(TallyError) -> Reconciliation {
        let asserted = try BalanceAssertion(accountID: 0, date: day, balance: balance).validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            let book = try rows.accountBook()
            let account = try book.account(named: name)
            try account.checkAccepts(day)
            let actual = try book.balance(of: account, through: day) ?? account.opening
            let previous = book.assertions(of: account).last { $0.date < day }
            let since = book.entries(of: account).filter { entry in
                entry.date <= day && previous.map { $0.date < entry.date } ?? true
            }
            let result = Reconciliation(
                account: account, day: day, asserted: asserted.balance, actual: actual, previous: previous, entriesSince: since)
            if result.matches {
                var assertion = asserted
                assertion.accountID = account.id ?? 0
                assertion.createdAt = rows.timestamp
                try rows.save(.balanceAssertion(assertion))
            }
            return result
        }
    }
}

/// What `reconcile` found.
public struct Reconciliation: Sendable {
    public var account: Account
    public var day: Day
    public var asserted: Money
    /// The balance the entries give at the end of ``day``.
    public var actual: Money
    /// The last assertion before ``day``, if any.
    public var previous: BalanceAssertion?
    /// The entries since ``previous`` (every entry without one), to help find a gap.
    public var entriesSince: [AccountEntry]

    public var matches: Bool { asserted == actual }

    /// Asserted minus actual: what the ledger lacks.
    public func difference() throws(TallyError) -> Money { try asserted - actual }
}
