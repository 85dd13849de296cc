import TallyCore

/// What an import of a statement file writes, decided entry by entry as the file is read: the
/// account of each statement, what each new entry becomes, the entries already there, and each
/// statement's balance check. The import and its dry run make the same plan, so the dry run shows
/// exactly what the import does.
public struct StatementPlan: Sendable {
    /// The statement's closing balance against the account's balance once the import is in.
    public enum BalanceCheck: Hashable, Sendable {
        /// Recorded as a balance assertion on `day`, unless the account has one that day already
        /// (`recorded` false): the statement was imported before.
        case matches(day: Day, balance: Money, recorded: Bool)
        case differs(day: Day, stated: Money, computed: Money, difference: Money)
        /// The closing day is before the account's opening day: there is no balance to compare.
        case beforeOpening(day: Day)
        /// The statement is in another currency than the ledger's: its balances count that
        /// currency, the account's the converted entries, so they are not compared (nor recorded).
        case otherCurrency(Currency)
    }

    /// One statement of the file and what the import does with it.
    public struct Part: Sendable {
        public var label: String
        public var account: Account
        public var period: DayInterval?
        public var opening: StatementBalance?
        public var closing: StatementBalance?
        /// The statement's currency when it is another than the ledger's: each entry was
        /// converted at the rate table's rate on its day.
        public var currency: Currency?
        public var expenses = 0
        public var incomes = 0
        public var transfers = 0
        /// Entries already in the ledger: the same bank id (or row key) on this account, or the
        /// other side of a transfer already recorded.
        public var duplicates = 0
        /// Entries of zero, which banks use for notes and holds.
        public var zeroEntries = 0
        public var balance: BalanceCheck?
    }

    public var parts: [Part] = []
    /// The new expenses, each paid from its statement's account, its budget still a name: kept
    /// only by ``StatementPlanner/plan(_:)``; an import writes each as it comes.
    public var expenses: [ImportedExpense] = []
    /// The new incomes, transfers and the assertions of matching balances, by account name.
    public var entries = DeclaredAccounts()
    public var assignments = ImportAssignments()
    /// QIF's date order, when the file is QIF.
    public var dateOrder: QIFDateOrder?

    public init() {}

    public var duplicateCount: Int { parts.reduce(0) { $0 + $1.duplicates } }
    public var expenseCount: Int { parts.reduce(0) { $0 + $1.expenses } }
}

/// Makes a ``StatementPlan`` from what the ledger holds, as a statement file's events come
/// (``begin(account:index:id:)``, ``take(_:)``, ``end(_:)``, then ``finish()``): an import writes
/// each expense as it is read, and a dry run counts it.
public struct StatementPlanner {
    /// The ledger's accounts, with their days (balances) and assertions.
    public var book: AccountBook
    /// The transfers the ledger holds, to know the other side of one when its statement comes.
    public var transfers: [Transfer] = []
    /// `--account`: where the statements go whose number finds no account, or that name none.
    public var chosenAccount: Account?
    /// Where a statement that names no account (QIF) goes without `--account`.
    public var defaultAccount: Account?
    /// The ledger's currency: a statement in another is converted into it, and an entry's
    /// original in another is kept. `nil`: amounts are taken as the file gives them.
    public var ledgerCurrency: Currency?
    /// The rate table's rate from a statement's currency into the ledger's on a day; the use
    /// case looks every one up before the import's transaction (``ForeignMoneyProblem/missingRates(_:)``).
    public var tableRate: ((Currency, Day) throws(TallyError) -> ExchangeRate)?
    public var rules: [ImportRule] = []
    /// `--budget` or `--uncategorized`: the budget of a debit no rule matches.
    public var defaultBudget: String?
    public var tagsUncategorized = false
    public var by = ""
    /// The row keys of earlier imports; the plan's new keys are admitted into it.
    public var rowKeys: ImportRowKeys

    /// The days within which an entry is the other side of a transfer recorded from the other
    /// account's statement: banks book the two sides up to a few days apart.
    public static let transferMatchDays = 4

    public init(book: AccountBook, rowKeys: ImportRowKeys) {
        self.book = book
        self.rowKeys = rowKeys
    }

    // The plan so far, as the file's events come.
    private var plan = StatementPlan()
    private var matcher: RuleMatcher?
    private var pool = TransferPool([])
    /// Balance changes the plan makes, by account id, for the balance checks.
    private var changes: [Int64: [(day: Day, change: Money)]] = [:]
    private var unmatched: [String] = []
    private var occurrences = RowOccurrences()
    private var scope: UInt64 = 0

    /// A statement begins: the account it goes to, which the entries until ``end(_:)`` are on.
    public mutating func begin(account named: StatementAccount, index: Int, id: String?) throws(TallyError) {
        if matcher == nil {
            matcher = try RuleMatcher(rules)
            pool = TransferPool(transfers)
        }
        let label = "statement \(index)" + (named.label.map { " (\($0))" } ?? "")
        let account = try self.account(named, label: label)
        var part = StatementPlan.Part(label: label, account: account)
        part.currency = try convertedCurrency(named, label: label)
        plan.parts.append(part)
        occurrences = RowOccurrences()
        scope = ImportRowKey.scope("statement:\(account.id ?? 0)")
    }

    /// What the entry becomes: the expense to write now, or `nil` when it is an income, a
    /// transfer (both written after the rows, ``StatementPlan/entries``), already there, or zero.
    public mutating func take(_ entry: StatementEntry) throws(TallyError) -> ImportedExpense? {
        guard let index = plan.parts.indices.last else { throw .importFile(line: entry.line, reason: "an entry outside any statement") }
        let account = plan.parts[index].account
        let accountID = account.id ?? 0
        guard entry.amount != .zero else {
            plan.parts[index].zeroEntries += 1
            return nil
        }
        let base = ImportRowKey.base(
            scope: scope, day: entry.date, cents: entry.amount.cents, nameHash: ImportRowKey.nameHash(of: entry.bankID ?? entry.name))
        let key = ImportRowKey.key(base: base, occurrence: occurrences.next(base))
        // An entry already there is left out before it is read further: its account may have
        // been reconciled since, and its budget removed.
        guard rowKeys.admit(key) else {
            plan.parts[index].duplicates += 1
            return nil
        }
        try account.checkAccepts(entry.date)
        let (signed, foreign) = try ledgerAmount(of: entry, from: plan.parts[index].currency)
        let amount = Money(cents: Int64(clamping: signed.cents.magnitude))
        let name = Self.name(entry.name)
        let decision = matcher?.decision(for: name)
        if let other = ownAccount(entry.counterparty, besides: account) ?? transferAccount(decision, besides: account) {
            let (from, to) = entry.amount.cents < 0 ? (account, other) : (other, account)
            if pool.claim(from: from.id ?? 0, to: to.id ?? 0, amount: amount, near: entry.date) {
                plan.parts[index].duplicates += 1
                return nil
            }
            try other.checkAccepts(entry.date)
            let transfer = try Transfer(amount: amount, date: entry.date, from: from.id ?? 0, to: to.id ?? 0, name: decision?.rename ?? name).validated()
            pool.add(transfer)
            plan.entries.transfers.append(DeclaredTransfer(transfer, from: from.name, to: to.name))
            changes[from.id ?? 0, default: []].append((entry.date, Money(cents: -amount.cents)))
            changes[to.id ?? 0, default: []].append((entry.date, amount))
            plan.parts[index].transfers += 1
            return nil
        }
        // Money in that a refund rule matches comes back into its budget; other money in is income,
        // which keeps its original amount in another currency as an expense does.
        if entry.amount.cents > 0, decision?.refund != true {
            let income = try Income(name: name, amount: amount, date: entry.date, accountID: accountID, by: by, foreign: foreign).validated()
            plan.entries.incomes.append(DeclaredIncome(income, account: account.name))
            changes[accountID, default: []].append((entry.date, signed))
            plan.parts[index].incomes += 1
            return nil
        }
        var expense = Expense(name: name, amount: amount, date: entry.date, budgetID: 0, by: by, accountID: accountID, foreign: foreign)
        expense.isRefund = entry.amount.cents > 0
        let budget: String
        let source: BudgetSource
        if let decision, decision.transferTo == nil {
            budget = decision.apply(to: &expense)
            source = .rule(decision.ruleID)
            expense.tags = decision.tags
            if let rename = decision.rename { expense.name = rename }
        } else if let defaultBudget {
            budget = defaultBudget
            source = tagsUncategorized ? .uncategorized : .fallback
            if tagsUncategorized { expense.tags = [CSVImportOptions.uncategorizedTag] }
        } else {
            // Named in the error ``finish()`` throws; the import rolls back.
            if unmatched.count < 3 { unmatched.append(name) }
            return nil
        }
        expense.createdAt = CSVRowMapper.placeholderDate
        let row = ImportedExpense(line: entry.line, budgetName: budget, expense: try expense.validated(), source: source, rowKey: key)
        plan.assignments.add(row)
        changes[accountID, default: []].append((entry.date, signed))
        plan.parts[index].expenses += 1
        return row
    }

    /// One event of the file: ``begin(account:index:id:)``, ``take(_:)`` or ``end(_:)``; returns
    /// the expense an entry becomes, if any.
    public mutating func handle(_ event: StatementEvent) throws(TallyError) -> ImportedExpense? {
        switch event {
        case .begin(let account, let index, let id): try begin(account: account, index: index, id: id)
        case .entry(let entry): return try take(entry)
        case .end(let summary): end(summary)
        }
        return nil
    }

    /// The statement ends with what it says about itself.
    public mutating func end(_ summary: StatementSummary) {
        guard let index = plan.parts.indices.last else { return }
        plan.parts[index].period = summary.period
        plan.parts[index].opening = summary.opening
        plan.parts[index].closing = summary.closing
    }

    /// The whole plan, once the file's last statement has ended: each balance check, with the
    /// entries of every statement in (a transfer's other side may come in a later one).
    public mutating func finish() throws(TallyError) -> StatementPlan {
        if !unmatched.isEmpty {
            throw .importFile(
                line: nil,
                reason: "no rule matches debits such as \(unmatched.map { quoted($0) }.joined(separator: ", "))", hint: .debitsWithoutBudget)
        }
        for index in plan.parts.indices {
            plan.parts[index].balance = try balanceCheck(plan.parts[index], changes: changes[plan.parts[index].account.id ?? 0] ?? [])
            if case .matches(let day, let balance, true) = plan.parts[index].balance {
                let account = plan.parts[index].account
                let held = account.kind.isLiability ? Money(cents: -balance.cents) : balance
                plan.entries.assertions.append(DeclaredAssertion(BalanceAssertion(accountID: account.id ?? 0, date: day, balance: held), account: account.name))
            }
        }
        return plan
    }

    /// The plan of a file read whole, with its expenses kept (``StatementPlan/expenses``).
    public mutating func plan(_ file: StatementFile) throws(TallyError) -> StatementPlan {
        var expenses: [ImportedExpense] = []
        for statement in file.statements {
            let events = [StatementEvent.begin(account: statement.account, index: statement.index, id: statement.id)]
                + statement.entries.map(StatementEvent.entry) + [.end(statement.summary)]
            for event in events {
                if let row = try handle(event) { expenses.append(row) }
            }
        }
        var plan = try finish()
        plan.expenses = expenses
        plan.dateOrder = file.dateOrder
        return plan
    }

    /// A bank's name as an entry's: at most ``Expense/maximumNameLength`` characters, since
    /// remittance texts run longer.
    static func name(_ text: String) -> String {
        guard text.count > Expense.maximumNameLength else { return text }
        return String(text.prefix(Expense.maximumNameLength - 1)) + "…"
    }

    /// The ledger account a statement goes to: the one its IBAN or number names, else
    /// `--account`, else (for a file that names no account) the default account; otherwise the
    /// error that asks for `--account`.
    func account(_ named: StatementAccount, label: String) throws(TallyError) -> Account {
        guard let number = named.label else {
            if let account = chosenAccount ?? defaultAccount { return account }
            throw .importFile(line: nil, reason: "\(label) names no account", hint: .accountUnnamed)
        }
        let matches = book.accounts.filter { $0.isNamed(byNumber: number) }
        if matches.count > 1 {
            throw .importFile(
                line: nil, reason: "\(label) matches the accounts \(matches.map { quoted($0.name) }.joined(separator: " and ")): give them distinct numbers")
        }
        if let match = matches.first { return match }
        if let chosenAccount { return chosenAccount }
        throw .importFile(
            line: nil,
            reason: "\(label) is for an account the ledger does not know", hint: .accountUnknown(number: number, isIBAN: Account.isIBAN(number)))
    }

    /// The account a transfer rule (`rule add … --transfer-to`) names, unless it is `own`.
    func transferAccount(_ decision: RuleDecision?, besides own: Account) -> Account? {
        guard let name = decision?.transferTo, let account = try? book.account(named: name), account.id != own.id else { return nil }
        return account
    }

    /// The ledger's account, other than `own`, that a counterparty's IBAN or number names.
    func ownAccount(_ counterparty: String?, besides own: Account) -> Account? {
        guard let counterparty else { return nil }
        let matches = book.accounts.filter { $0.id != own.id && $0.isNamed(byNumber: counterparty) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The statement's closing balance against the account's balance on that day once the plan's
    /// entries are in, both as the bank states them: what the account holds (negative when owed).
    func balanceCheck(_ part: StatementPlan.Part, changes: [(day: Day, change: Money)]) throws(TallyError) -> StatementPlan.BalanceCheck? {
        guard let closing = part.closing else { return nil }
        if let currency = part.currency { return .otherCurrency(currency) }
        guard let balance = try book.balance(of: part.account, through: closing.day) else { return .beforeOpening(day: closing.day) }
        var held = part.account.kind.isLiability ? Money(cents: -balance.cents) : balance
        for change in changes where change.day <= closing.day { held = try held + change.change }
        if held == closing.amount {
            let asserted = book.assertions.contains { $0.accountID == part.account.id && $0.date == closing.day }
            return .matches(day: closing.day, balance: closing.amount, recorded: !asserted)
        }
        return .differs(day: closing.day, stated: closing.amount, computed: held, difference: try closing.amount - held)
    }
}

/// The transfers between the ledger's accounts, to find the other side of one already recorded.
struct TransferPool {
    private var open: [Transfer]

    init(_ transfers: [Transfer]) { open = transfers }

    /// Whether a transfer `from` → `to` of `amount` within ``StatementPlanner/transferMatchDays``
    /// of `day` is there; it is then claimed, so it stands for one entry only.
    mutating func claim(from: Int64, to: Int64, amount: Money, near day: Day) -> Bool {
        let window = StatementPlanner.transferMatchDays
        guard let index = open.firstIndex(where: {
            $0.fromAccountID == from && $0.toAccountID == to && $0.amount == amount && abs($0.date.ordinal - day.ordinal) <= window
        }) else { return false }
        open.remove(at: index)
        return true
    }

    mutating func add(_ transfer: Transfer) { open.append(transfer) }
}
