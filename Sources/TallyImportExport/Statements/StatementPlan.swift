import TallyCore

/// What an import of a statement file writes, decided before anything is written: the account of
/// each statement, what each new entry becomes, the entries already there, and each statement's
/// balance check. The import and its dry run make the same plan, so the dry run shows exactly
/// what the import does.
public struct StatementPlan: Sendable {
    /// The statement's closing balance against the account's balance once the import is in.
    public enum BalanceCheck: Hashable, Sendable {
        /// Recorded as a balance assertion on `day`, unless the account has one that day already
        /// (`recorded` false): the statement was imported before.
        case matches(day: Day, balance: Money, recorded: Bool)
        case differs(day: Day, stated: Money, computed: Money, difference: Money)
        /// The closing day is before the account's opening day: there is no balance to compare.
        case beforeOpening(day: Day)
    }

    /// One statement of the file and what the import does with it.
    public struct Part: Sendable {
        public var label: String
        public var account: Account
        public var period: DayInterval?
        public var opening: StatementBalance?
        public var closing: StatementBalance?
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
    /// The new expenses, each paid from its statement's account, its budget still a name.
    public var expenses: [ImportedExpense] = []
    /// The new incomes, transfers and the assertions of matching balances, by account name.
    public var entries = DeclaredAccounts()
    public var assignments = ImportAssignments()
    /// QIF's date order, when the file is QIF.
    public var dateOrder: QIFDateOrder?

    public var duplicateCount: Int { parts.reduce(0) { $0 + $1.duplicates } }
}

/// Makes a ``StatementPlan`` from a file read whole and what the ledger holds.
public struct StatementPlanner {
    /// The ledger's accounts, with their days (balances) and assertions.
    public var book: AccountBook
    /// The transfers the ledger holds, to know the other side of one when its statement comes.
    public var transfers: [Transfer] = []
    /// `--account`: a file of one statement goes to it; in a file of several, the statements
    /// whose number finds no account do.
    public var chosenAccount: Account?
    /// Where a statement that names no account (QIF) goes without `--account`.
    public var defaultAccount: Account?
    /// The ledger's currency code; a statement in another is refused.
    public var ledgerCurrency: String?
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

    public func plan(_ file: StatementFile) throws(TallyError) -> StatementPlan {
        var plan = StatementPlan(dateOrder: file.dateOrder)
        var matcher = try RuleMatcher(rules)
        var pool = TransferPool(transfers)
        // Balance changes the plan makes, by account id, for the balance checks.
        var changes: [Int64: [(day: Day, change: Money)]] = [:]
        var unmatched: [String] = []

        for statement in file.statements {
            let account = try self.account(of: statement, soleStatement: file.statements.count == 1)
            let accountID = account.id ?? 0
            try checkCurrency(statement)
            var part = StatementPlan.Part(
                label: statement.label, account: account, period: statement.summary.period, opening: statement.summary.opening,
                closing: statement.summary.closing)
            var occurrences = RowOccurrences()
            let scope = ImportRowKey.scope("statement:\(accountID)")
            for entry in statement.entries {
                guard entry.amount != .zero else {
                    part.zeroEntries += 1
                    continue
                }
                let base = ImportRowKey.base(
                    scope: scope, day: entry.date, cents: entry.amount.cents, nameHash: ImportRowKey.nameHash(of: entry.bankID ?? entry.name))
                let key = ImportRowKey.key(base: base, occurrence: occurrences.next(base))
                // A row already there is left out before it is read further: its account may have
                // been reconciled since, and its budget removed.
                guard rowKeys.admit(key) else {
                    part.duplicates += 1
                    continue
                }
                try account.checkAccepts(entry.date)
                let name = Self.name(entry.name)
                let decision = matcher.decision(for: name)
                if let other = ownAccount(entry.counterparty, besides: account) ?? transferAccount(decision, besides: account) {
                    let (from, to) = entry.amount.cents < 0 ? (account, other) : (other, account)
                    let amount = Money(cents: Int64(clamping: entry.amount.cents.magnitude))
                    if pool.claim(from: from.id ?? 0, to: to.id ?? 0, amount: amount, near: entry.date) {
                        part.duplicates += 1
                        continue
                    }
                    try other.checkAccepts(entry.date)
                    var transfer = Transfer(amount: amount, date: entry.date, from: from.id ?? 0, to: to.id ?? 0, name: decision?.rename ?? name)
                    transfer = try transfer.validated()
                    pool.add(transfer)
                    plan.entries.transfers.append(DeclaredTransfer(transfer, from: from.name, to: to.name))
                    changes[from.id ?? 0, default: []].append((entry.date, Money(cents: -amount.cents)))
                    changes[to.id ?? 0, default: []].append((entry.date, amount))
                    part.transfers += 1
                } else if entry.amount.cents > 0 {
                    let income = try Income(name: name, amount: entry.amount, date: entry.date, accountID: accountID, by: by).validated()
                    plan.entries.incomes.append(DeclaredIncome(income, account: account.name))
                    changes[accountID, default: []].append((entry.date, entry.amount))
                    part.incomes += 1
                } else {
                    var expense = Expense(name: name, amount: Money(cents: -entry.amount.cents), date: entry.date, budgetID: 0, by: by, accountID: accountID)
                    let budget: String
                    let source: BudgetSource
                    if let decision, decision.transferTo == nil {
                        budget = decision.budget
                        source = .rule(decision.ruleID)
                        expense.tags = decision.tags
                        if let rename = decision.rename { expense.name = rename }
                    } else if let defaultBudget {
                        budget = defaultBudget
                        source = tagsUncategorized ? .uncategorized : .fallback
                        if tagsUncategorized { expense.tags = [CSVImportOptions.uncategorizedTag] }
                    } else {
                        if unmatched.count < 3 { unmatched.append(name) }
                        continue
                    }
                    expense.createdAt = CSVRowMapper.placeholderDate
                    let row = ImportedExpense(line: entry.line, budgetName: budget, expense: try expense.validated(), source: source, rowKey: key)
                    plan.assignments.add(row)
                    plan.expenses.append(row)
                    changes[accountID, default: []].append((entry.date, Money(cents: entry.amount.cents)))
                    part.expenses += 1
                }
            }
            plan.parts.append(part)
        }
        if !unmatched.isEmpty {
            throw .importFile(
                line: nil,
                reason: "no rule matches debits such as \(unmatched.map { quoted($0) }.joined(separator: ", ")): give --budget NAME, --uncategorized, or add rules with 'tally rule add'")
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

    /// A bank's name as an entry's: at most ``Expense/maximumNameLength`` characters, since
    /// remittance texts run longer.
    static func name(_ text: String) -> String {
        guard text.count > Expense.maximumNameLength else { return text }
        return String(text.prefix(Expense.maximumNameLength - 1)) + "…"
    }

    /// The ledger account a statement goes to, or the error that asks for `--account`.
    func account(of statement: ReadStatement, soleStatement: Bool) throws(TallyError) -> Account {
        if soleStatement, let chosenAccount { return chosenAccount }
        guard let number = statement.account.label else {
            if let account = chosenAccount ?? defaultAccount { return account }
            throw .importFile(line: nil, reason: "\(statement.label) names no account: give --account NAME")
        }
        let matches = book.accounts.filter { $0.isNamed(byNumber: number) }
        if matches.count > 1 {
            throw .importFile(
                line: nil, reason: "\(statement.label) matches the accounts \(matches.map { quoted($0.name) }.joined(separator: " and ")): give them distinct numbers")
        }
        if let match = matches.first { return match }
        if let chosenAccount { return chosenAccount }
        throw .importFile(
            line: nil,
            reason: "\(statement.label) is for an account the ledger does not know: give --account NAME, or 'tally account edit NAME --\(Account.isIBAN(number) ? "iban" : "number") \(number)'")
    }

    func checkCurrency(_ statement: ReadStatement) throws(TallyError) {
        guard let currency = statement.account.currency, let ledgerCurrency, currency != ledgerCurrency else { return }
        throw .importFile(
            line: nil, reason: "\(statement.label) is in \(currency) and the ledger in \(ledgerCurrency): Tally does not convert currencies yet")
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
