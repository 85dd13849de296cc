import TallyCore

/// `demo`: realistic sample budgets and expenses in an empty ledger.
public struct FillDemo: Sendable {
    public static let defaultSeed: UInt64 = 2026
    /// Large data sets are written in batches, each one transaction, to bound memory.
    public static let batchSize = 50_000
    /// How many expenses and months a demo can make.
    public static let expenseCounts = 0...100_000_000
    public static let monthSpans = 1...1200

    /// Generate this many expenses over twelve budgets instead of the typical months.
    public var expenseCount: Int?
    /// Spread them over this many months ending with the current one (default 6, or 24 with `expenseCount`).
    public var months: Int?
    public var seed: UInt64
    public var today: Day
    /// How many accounts to open (up to ``accountCounts``' upper bound), from the first month on;
    /// the expenses are then paid from checking, the card and cash.
    public var accounts = 0
    /// Incomes into the first account and transfers out of it, spread over the months.
    public var incomes = 0
    public var transfers = 0
    public static let accountCounts = 0...5
    public static let entryCounts = 0...10_000_000
    /// The typical months as a household lives them, to show what Tally does: two people, a
    /// rollover budget, a yearly budget and a sinking fund (``DemoShowcase``), a checking account,
    /// a card and savings with a salary, card payments and the fund's savings each month, and the
    /// rent and a subscription as recurring bills whose months are paid. `expenseCount` and the
    /// account counts leave it off.
    public var showcase = false

    public init(expenseCount: Int? = nil, months: Int? = nil, seed: UInt64 = FillDemo.defaultSeed, today: Day) {
        self.expenseCount = expenseCount
        self.months = months
        self.seed = seed
        self.today = today
    }

    /// What the demo added.
    public struct Added: Sendable {
        public var budgets: Int
        public var expenses: Int
        public var accounts: Int
        /// Incomes and transfers.
        public var entries: Int
    }

    /// Demo fills only an empty ledger, so sample data never mixes with real records.
    public struct LedgerNotEmpty: Error, Equatable, Sendable {
        public let budgetCount: Int

        public init(budgetCount: Int) {
            self.budgetCount = budgetCount
        }
    }

    /// How many budgets, expenses, accounts and entries it added.
    public func run(in ledger: Ledger) throws -> Added {
        return try ledger.perform(anyError: { (store: any DataAccess) throws in
            let existing = try store.budgets()
            guard existing.isEmpty else { throw LedgerNotEmpty(budgetCount: existing.count) }
            let plans = expenseCount == nil ? DemoData.plans : DemoData.plans + DemoData.extraPlans
            var saved: [(plan: DemoData.Plan, budgetID: Int64)] = []
            let showcase = showcase && expenseCount == nil
            for plan in plans {
                let rollover: RolloverPolicy = showcase && plan.name == DemoData.rolloverBudget ? .surplus : .none
                let budget = try store.addBudget(Budget(name: plan.name, limit: plan.limit, rollover: rollover))
                saved.append((plan, budget.id ?? 0))
            }
            var generator = DemoData(seed: seed)
            // The accounts draw from their own sequence: the same seed gives the same expenses.
            var payers = DemoData(seed: seed &+ 1)
            let months = months ?? (expenseCount == nil ? 6 : 24)
            let opened = today.monthValue.adding(months: 1 - months).firstDay
            let (accountCount, incomes, transfers) = showcase ? (2, months, months) : (self.accounts, self.incomes, self.transfers)
            var accounts: [Account] = []
            for plan in DemoData.accountPlans.prefix(accountCount) {
                accounts.append(try store.addAccount(Account(name: plan.name, kind: plan.kind, opening: plan.opening, openingDate: opened)))
            }
            let spending = DemoData.spendingAccounts(accounts)
            let paid = { (expenses: [Expense]) -> [Expense] in
                expenses.map { expense in
                    var expense = expense
                    expense.accountID = payers.account(of: spending)
                    return expense
                }
            }
            var added = 0
            if let expenseCount {
                let first = today.monthValue.adding(months: 1 - months)
                // Month by month, oldest first, each month its even share of the expenses.
                for index in 0..<months {
                    var remaining = expenseCount * (index + 1) / months - expenseCount * index / months
                    while remaining > 0 {
                        let count = min(FillDemo.batchSize, remaining)
                        added += try store.addExpenses(
                            paid(generator.expenses(count: count, plans: saved, in: first.adding(months: index), today: today)))
                        remaining -= count
                    }
                }
            } else {
                var expenses = paid(generator.typicalExpenses(plans: saved, months: months, today: today))
                if showcase {
                    // Who spent it draws from its own sequence too.
                    var people = DemoData(seed: seed &+ 2)
                    for index in expenses.indices { expenses[index].by = people.person() }
                }
                added = try store.addExpenses(expenses)
            }
            var entries = 0
            if let main = accounts.first?.id {
                let others = accounts.dropFirst().compactMap(\.id)
                for start in stride(from: 0, to: max(incomes, transfers), by: FillDemo.batchSize) {
                    let incomeCount = max(0, min(FillDemo.batchSize, incomes - start))
                    let transferCount = max(0, min(FillDemo.batchSize, transfers - start))
                    entries += try store.addEntries(
                        incomes: payers.incomes(count: incomeCount, into: main, months: months, today: today),
                        transfers: payers.transfers(count: transferCount, from: main, to: others, months: months, today: today))
                }
            }
            var extras = (budgets: 0, accounts: 0, entries: 0)
            if showcase {
                var ids: [String: Int64] = [:]
                for budget in saved { ids[budget.plan.name] = budget.budgetID }
                extras = try DemoShowcase(opened: opened, today: today).add(
                    to: store, checking: accounts.first, card: accounts.dropFirst().first, budgets: ids)
            }
            if showcase, let rent = saved.first(where: { $0.plan.name == DemoData.recurringBill.budget }) {
                // The rent the months above paid on the 1st: `recurring post` matches each to its
                // expense, so none is posted twice and the pace knows the bill.
                _ = try store.addRecurringRule(RecurringRule(
                    name: DemoData.recurringBill.name, budgetID: rent.budgetID, amount: DemoData.recurringBill.amount, tags: ["home", "fixed"],
                    every: .month, day: 1, start: opened))
                _ = try store.postRecurring(through: today, dryRun: false)
            }
            let posted = showcase ? try store.countExpenses(ExpenseQuery()) - added : 0
            return Added(
                budgets: saved.count + extras.budgets, expenses: added + posted, accounts: accounts.count + extras.accounts,
                entries: entries + extras.entries)
        })
    }
}
