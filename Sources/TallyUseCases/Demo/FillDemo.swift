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

    public init(expenseCount: Int? = nil, months: Int? = nil, seed: UInt64 = FillDemo.defaultSeed, today: Day) {
        self.expenseCount = expenseCount
        self.months = months
        self.seed = seed
        self.today = today
    }

    /// Demo fills only an empty ledger, so sample data never mixes with real records.
    public struct LedgerNotEmpty: Error, Equatable, Sendable {
        public let budgetCount: Int

        public init(budgetCount: Int) {
            self.budgetCount = budgetCount
        }
    }

    /// How many budgets and expenses it added.
    public func run(in ledger: Ledger) throws -> (budgets: Int, expenses: Int) {
        return try ledger.perform(anyError: { (store: any DataAccess) throws in
            let existing = try store.budgets()
            guard existing.isEmpty else { throw LedgerNotEmpty(budgetCount: existing.count) }
            let plans = expenseCount == nil ? DemoData.plans : DemoData.plans + DemoData.extraPlans
            var saved: [(plan: DemoData.Plan, budgetID: Int64)] = []
            for plan in plans {
                let budget = try store.addBudget(Budget(name: plan.name, limit: plan.limit))
                saved.append((plan, budget.id ?? 0))
            }
            var generator = DemoData(seed: seed)
            var added = 0
            if let expenseCount {
                let months = months ?? 24
                let first = today.monthValue.adding(months: 1 - months)
                // Month by month, oldest first, each month its even share of the expenses.
                for index in 0..<months {
                    var remaining = expenseCount * (index + 1) / months - expenseCount * index / months
                    while remaining > 0 {
                        let count = min(FillDemo.batchSize, remaining)
                        added += try store.addExpenses(
                            generator.expenses(count: count, plans: saved, in: first.adding(months: index), today: today))
                        remaining -= count
                    }
                }
            } else {
                added = try store.addExpenses(generator.typicalExpenses(plans: saved, months: months ?? 6, today: today))
            }
            return (saved.count, added)
        })
    }
}
