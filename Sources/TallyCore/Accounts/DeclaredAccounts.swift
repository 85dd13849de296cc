import Foundation

/// An income as a backup or a copy declares it: its account by name, as an expense names its budget.
public struct DeclaredIncome: Hashable, Sendable {
    public var income: Income
    public var account: String

    public init(_ income: Income, account: String) {
        self.income = income
        self.account = account
    }
}

/// A transfer as a backup or a copy declares it: its two accounts by name.
public struct DeclaredTransfer: Hashable, Sendable {
    public var transfer: Transfer
    public var from: String
    public var to: String

    public init(_ transfer: Transfer, from: String, to: String) {
        self.transfer = transfer
        self.from = from
        self.to = to
    }
}

/// A balance assertion as a backup or a copy declares it: its account by name.
public struct DeclaredAssertion: Hashable, Sendable {
    public var assertion: BalanceAssertion
    public var account: String

    public init(_ assertion: BalanceAssertion, account: String) {
        self.assertion = assertion
        self.account = account
    }
}

/// The accounts, incomes, transfers and balance assertions a JSON backup or `db copy` carries.
/// Entries name their accounts, so the ledger they go into may give every row a new id.
public struct DeclaredAccounts: Hashable, Sendable {
    public var accounts: [Account]
    public var incomes: [DeclaredIncome]
    public var transfers: [DeclaredTransfer]
    public var assertions: [DeclaredAssertion]
    /// The ledger's default account, by name; set where the ledger it goes into has none.
    public var defaultAccount: String?

    public init(
        accounts: [Account] = [], incomes: [DeclaredIncome] = [], transfers: [DeclaredTransfer] = [], assertions: [DeclaredAssertion] = [],
        defaultAccount: String? = nil
    ) {
        self.accounts = accounts
        self.incomes = incomes
        self.transfers = transfers
        self.assertions = assertions
        self.defaultAccount = defaultAccount
    }

    /// What an imported expense carries as its ``Expense/accountID`` while its account, declared
    /// here by name, has no id in the ledger yet: `-(place + 1)`. ``ImportResolution`` puts the
    /// account's id in once ``LedgerRows/restore(_:)`` has written the accounts. `nil` when no
    /// declared account has that name.
    public func placeholder(forAccountNamed name: String) -> Int64? {
        let key = NameKey.lookup(name)
        return accounts.firstIndex { $0.nameKey == key }.map { -Int64($0) - 1 }
    }

    /// The book's rows by name: accounts by name key, incomes and transfers oldest first,
    /// assertions by account (in that order) then day. Written back in this order, the rows
    /// get ids that keep it, so a restored ledger declares the same thing again.
    public init(_ book: AccountBook, defaultAccountID: Int64? = nil) {
        var names: [Int64: String] = [:]
        var order: [Int64: Int] = [:]
        for (position, account) in book.accounts.enumerated() {
            names[account.id ?? 0] = account.name
            order[account.id ?? 0] = position
        }
        func name(_ id: Int64) -> String { names[id] ?? "#\(id)" }
        self.init(
            accounts: book.accounts,
            incomes: book.incomes.map { DeclaredIncome($0, account: name($0.accountID)) },
            transfers: book.transfers.map { DeclaredTransfer($0, from: name($0.fromAccountID), to: name($0.toAccountID)) },
            assertions: book.assertions
                .sorted { (order[$0.accountID] ?? .max, $0.date) < (order[$1.accountID] ?? .max, $1.date) }
                .map { DeclaredAssertion($0, account: name($0.accountID)) },
            defaultAccount: defaultAccountID.map(name))
    }

    public var isEmpty: Bool { accounts.isEmpty && incomes.isEmpty && transfers.isEmpty && assertions.isEmpty }
    /// How many rows in all, for counts that compare a copy with its source.
    public var counts: [Int] { [accounts.count, incomes.count, transfers.count, assertions.count] }
}

extension LedgerRows {
    /// Writes what a backup or a copy declares, inside the import's transaction: an account
    /// whose name the ledger already uses is kept as it is (as a declared budget is), the others
    /// are created; every income and transfer is added to the account its name finds, from
    /// that account's opening day on; an assertion is added unless the account has one that day.
    /// An error names the entry (`incomes[2].account`) and its value. Returns each declared
    /// account's id in the ledger, in the declared order; the declared default account becomes
    /// the ledger's when it has none.
    @discardableResult
    public func restore(_ declared: DeclaredAccounts) throws(TallyError) -> [Int64] {
        guard !declared.isEmpty else { return [] }
        let ids = try declared.restore(into: try accountBook(), at: timestamp) { (row: RowImage) throws(TallyError) in try save(row) }
        var settings = try settings()
        if settings.defaultAccountID == nil, let name = declared.defaultAccount, let place = declared.placeholder(forAccountNamed: name) {
            settings.defaultAccountID = ids[Int(-place - 1)]
            try save(.settings(settings))
        }
        return ids
    }
}

extension DeclaredAccounts {
    /// ``LedgerRows/restore(_:)`` over a ledger whose accounts are `book`, each row handed to
    /// `save`, which returns it as saved (an account with its id). A dry run saves nothing and
    /// gives new accounts stand-in ids, and so fails exactly where the import would.
    @discardableResult
    public func restore(
        into book: AccountBook, at timestamp: Date, save: (RowImage) throws(TallyError) -> RowImage
    ) throws(TallyError) -> [Int64] {
        let declared = self
        func located(_ place: String, _ value: String, _ error: TallyError) -> TallyError {
            .importFile(line: nil, reason: "\(place) \(quoted(value)): \(error.errorDescription ?? "invalid value")")
        }
        var byKey: [String: Account] = [:]
        for account in book.accounts { byKey[account.nameKey] = account }
        var ids: [Int64] = []
        for (index, declaredAccount) in declared.accounts.enumerated() {
            var account: Account
            do {
                account = try declaredAccount.validated()
            } catch {
                throw located("accounts[\(index)].name", declaredAccount.name, error)
            }
            if let existing = byKey[account.nameKey] {
                ids.append(existing.id ?? 0)
                continue
            }
            account.id = nil
            account.createdAt = timestamp
            account.updatedAt = timestamp
            guard case .account(let saved) = try save(.account(account)) else { throw .storage("an account was saved as another kind") }
            byKey[saved.nameKey] = saved
            ids.append(saved.id ?? 0)
        }
        func account(_ name: String, _ place: String) throws(TallyError) -> Account {
            guard let found = byKey[NameKey.lookup(name)] else { throw located(place, name, .accountNotFound(name)) }
            return found
        }
        for (index, entry) in declared.incomes.enumerated() {
            let target = try account(entry.account, "incomes[\(index)].account")
            var income = entry.income
            income.id = nil
            income.accountID = target.id ?? 0
            income.createdAt = timestamp
            income.updatedAt = timestamp
            do {
                income = try income.validated()
                try target.checkAccepts(income.date)
            } catch {
                throw located("incomes[\(index)].date", income.date.isoString, error)
            }
            _ = try save(.income(income))
        }
        for (index, entry) in declared.transfers.enumerated() {
            let source = try account(entry.from, "transfers[\(index)].from")
            let target = try account(entry.to, "transfers[\(index)].to")
            var transfer = entry.transfer
            transfer.id = nil
            transfer.fromAccountID = source.id ?? 0
            transfer.toAccountID = target.id ?? 0
            transfer.createdAt = timestamp
            transfer.updatedAt = timestamp
            do {
                transfer = try transfer.validated()
            } catch {
                throw located("transfers[\(index)].to", entry.to, error)
            }
            do {
                try source.checkAccepts(transfer.date)
                try target.checkAccepts(transfer.date)
            } catch {
                throw located("transfers[\(index)].date", transfer.date.isoString, error)
            }
            _ = try save(.transfer(transfer))
        }
        var asserted: [Int64: Set<Day>] = [:]
        for assertion in book.assertions { asserted[assertion.accountID, default: []].insert(assertion.date) }
        for (index, entry) in declared.assertions.enumerated() {
            let target = try account(entry.account, "assertions[\(index)].account")
            var assertion = entry.assertion
            assertion.accountID = target.id ?? 0
            assertion.createdAt = timestamp
            do {
                assertion = try assertion.validated()
                try target.checkAccepts(assertion.date)
            } catch {
                throw located("assertions[\(index)].date", assertion.date.isoString, error)
            }
            // The ledger keeps its own assertion of that day.
            guard asserted[assertion.accountID, default: []].insert(assertion.date).inserted else { continue }
            _ = try save(.balanceAssertion(assertion))
        }
        return ids
    }
}
