import Foundation
import TallyCore
import TallyInMemory
import TallyTestSupport
import Testing

/// Random sequences of changes, valid and invalid, applied to a store under test and to
/// `InMemoryStore` with the same clock: every step must return the same value or the same
/// error, and leave both stores showing the same budgets, expenses and figures, in which each
/// budget's `spent` is the sum of its expenses' totals. Each store's test target runs it with
/// its own factory, as it runs the contract:
///
/// ```swift
/// @Test(arguments: Differential.seeds) func agreesStepByStep(seed: UInt64) throws { try Differential.run(seed: seed, makeStore: makeStore) }
/// ```
public enum Differential {
    /// The same sequences for every store, so that a disagreement is reproduced by seed alone.
    public static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004]
    public static let stepsPerSeed = 250

    /// Runs `steps` operations drawn from `seed` on a store from `makeStore` and on the
    /// in-memory store, stopping at the first step whose answers differ. `extraCheck` runs after
    /// every step with the store under test and the step's description, for checks only that
    /// store can make (its caches against its rows).
    ///
    /// Every step compares the answers, the budgets, the rules and the number of expenses; the
    /// whole observable state (some 200 reads, in one read transaction of each store) is
    /// compared every `fullStateEvery` steps, after the last and after one whose answers differ.
    /// State persists, so a wrong write still shows at the next full comparison.
    public static func run(
        seed: UInt64, steps: Int = stepsPerSeed, fullStateEvery: Int = 1, makeStore: StoreFactory,
        extraCheck: (_ store: any DataAccess, _ step: String) throws -> Void = { _, _ in }
    ) throws {
        let clock = TestClock()
        let memory = InMemoryStore(clock: { clock() })
        let store = try makeStore { clock() }
        defer { try? store.close() }
        var generator = SeededGenerator(seed: seed)
        // Account steps and accounts draw from their own sequence: the others stay as they were.
        var accountGenerator = SeededGenerator(seed: seed &+ 0xACC0)
        // So do splits and refunds.
        var splitGenerator = SeededGenerator(seed: seed &+ 0x5B17)
        // And operations abroad.
        var foreignGenerator = SeededGenerator(seed: seed &+ 0xF0E1)
        var mostExpenses = 0
        for step in 0..<steps {
            let operation: Operation =
                if Int.random(in: 0..<10, using: &splitGenerator) == 0 {
                    .split(try SplitOperation.random(using: &splitGenerator, current: memory))
                } else if Int.random(in: 0..<10, using: &foreignGenerator) == 0 {
                    .foreign(try ForeignOperation.random(using: &foreignGenerator, current: memory))
                } else {
                    try Operation.random(using: &generator, accounts: &accountGenerator, current: memory)
                }
            let expected = operation.apply(to: memory)
            let actual = operation.apply(to: store)
            let described = "seed \(String(seed, radix: 16)) step \(step): \(operation)"
            #expect(actual == expected, "\(described)")
            if (step + 1) % fullStateEvery == 0 || step == steps - 1 || actual != expected {
                try expectSameState(memory, store, step: described)
            } else {
                try expectSameSummary(memory, store, step: described)
            }
            try extraCheck(store, described)
            if actual != expected { return }
            mostExpenses = max(mostExpenses, try memory.countExpenses(ExpenseQuery()))
            if case .account = operation {
                clock.advance(by: Double(Int.random(in: 0...90_000, using: &accountGenerator)) / 1000)
            } else if case .split = operation {
                clock.advance(by: Double(Int.random(in: 0...90_000, using: &splitGenerator)) / 1000)
            } else if case .foreign = operation {
                clock.advance(by: Double(Int.random(in: 0...90_000, using: &foreignGenerator)) / 1000)
            } else {
                clock.advance(by: Double(Int.random(in: 0...90_000, using: &generator)) / 1000)
            }
        }
        // About one step in five is a split, refund or foreign operation (their own sequences).
        #expect(mostExpenses >= 20 * steps / stepsPerSeed, "the sequence should build up expenses to compare")
        #expect(try memory.expenses(ExpenseQuery()).contains { $0.foreign != nil } || steps < stepsPerSeed, "no expense abroad to compare")
    }

    /// The few reads that most wrong writes change: between full comparisons.
    private static func expectSameSummary(_ memory: InMemoryStore, _ store: any DataAccess, step: String) throws {
        let observe = { (store: any DataAccess) in
            (budgets: Result { () throws(TallyError) in try store.budgets() },
             count: Result { () throws(TallyError) in try store.countExpenses(ExpenseQuery()) },
             rules: Result { () throws(TallyError) in try store.recurringRules() })
        }
        let (expected, actual) = (observe(memory), observe(store))
        #expect(actual.budgets == expected.budgets, "budgets after \(step)")
        #expect(actual.count == expected.count, "expense count after \(step)")
        #expect(actual.rules == expected.rules, "rules after \(step)")
    }

    private static func expectSameState(_ memory: InMemoryStore, _ store: any DataAccess, step: String) throws {
        let months = Fixtures.months
        // The month report's largest expenses, of the month and of each budget, which the SQLite
        // store bounds by its cache of each day's groups.
        let largest = months.flatMap { month in
            [ExpenseQuery(days: month.days, sort: .total, descending: true, limit: 3)]
                + (1...4).map { ExpenseQuery(budgetID: $0, days: month.days, sort: .total, descending: true, limit: 2) }
        }
        let queries = months.map { ExpenseQuery(days: $0.days) } + largest + [
            ExpenseQuery(sort: .date), ExpenseQuery(sort: .name, descending: true), ExpenseQuery(sort: .total),
            ExpenseQuery(sort: .amount, descending: true, limit: 7, offset: 3), ExpenseQuery(search: "APPLE"),
            ExpenseQuery(search: "creme"), ExpenseQuery(tag: "Food"), ExpenseQuery(tag: "été"),
            ExpenseQuery(by: "Anna"), ExpenseQuery(by: " anna"), ExpenseQuery(by: ""), ExpenseQuery(by: "Zoë", sort: .total),
        ]
        let observe = { (store: any DataAccess) -> Observation in
            Observation(
                budgets: Result { () throws(TallyError) in try store.budgets() },
                expenses: queries.map { query in Result { () throws(TallyError) in try store.expenses(query) } },
                counts: queries.map { query in Result { () throws(TallyError) in try store.countExpenses(query) } },
                statuses: months.map { month in Result { () throws(TallyError) in try store.budgetStatuses(for: month) } },
                byDay: months.map { month in Result { () throws(TallyError) in try store.spendingByDay(in: month.days) } },
                byTag: months.map { month in Result { () throws(TallyError) in try store.spendingByTag(in: month.days) } },
                byPerson: months.map { month in Result { () throws(TallyError) in try store.spendingByPerson(in: month.days) } },
                summaries: months.map { month in Result { () throws(TallyError) in try store.monthSummary(for: month) } },
                rules: Result { () throws(TallyError) in try store.recurringRules() },
                payments: Result { () throws(TallyError) in try store.recurringPayments() },
                accountDays: Result { () throws(TallyError) in try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.accountDays() } },
                accounts: Result { () throws(TallyError) in try store.accountBook().accounts }
            )
        }
        let expected = try OneReadView.reading(memory) { view throws(TallyError) in observe(view) }
        try OneReadView.reading(store) { (store: OneReadView) throws(TallyError) in
            #expect(observe(store) == expected, "state after \(step)")
            for month in months {
                guard case .success(let statuses) = Result(catching: { () throws(TallyError) in try store.budgetStatuses(for: month) })
                else { continue }
                // A budget in its own currency counts in that currency (`BudgetCurrency`): the
                // comparison with the in-memory store above holds it to the rule.
                for status in statuses where status.budget.currency == nil {
                    // Each line of a split in its own budget, a refund below zero (`Expense.portions`).
                    let owned = try store.expenses(ExpenseQuery(budgetID: status.budget.id, days: status.days))
                    var portions: [Expense.Portion] = []
                    for expense in owned { portions += try expense.portions.filter { $0.budgetID == status.budget.id } }
                    #expect(status.spent == (try Money.sum(portions.map(\.amount))), "\(step): spent of \(status.budget.name) in \(month)")
                    #expect(status.expenseCount == portions.count, "\(step): count of \(status.budget.name) in \(month)")
                    #expect(try store.status(of: status.budget, in: month) == status, "\(step): status of \(status.budget.name) in \(month)")
                }
            }
        }
    }
}

// The sequences' parts, private to the run: what it observes, answers, does and draws from.
extension Differential {
    /// Everything a user can observe of a store, each read kept with its error.
    struct Observation: Equatable {
        var budgets: Result<[Budget], TallyError>
        var expenses: [Result<[Expense], TallyError>]
        var counts: [Result<Int, TallyError>]
        var statuses: [Result<[BudgetStatus], TallyError>]
        var byDay: [Result<[Day: Money], TallyError>]
        var byTag: [Result<[String: Money], TallyError>]
        var byPerson: [Result<[PersonSpending], TallyError>]
        var summaries: [Result<MonthSummary, TallyError>]
        var rules: Result<[RecurringRule], TallyError>
        var payments: Result<[RecurringPayment], TallyError>
        /// Each account's days: SQLite's and PostgreSQL's from their cache, the rule's in memory.
        var accountDays: Result<[AccountDay], TallyError>
        var accounts: Result<[Account], TallyError>
    }

    /// What an operation returned, so that both stores' answers compare as one value.
    enum Answer: Equatable {
        case budget(Budget), expense(Expense), count(Int), done, rule(RecurringRule), posts([RecurringPost])
        case account(Account), income(Income), transfer(Transfer)
        /// An undo's answer, by the ids of the change set it reverted and the one it recorded.
        case undo(undone: Int64, undo: Int64)
    }

    enum Operation: CustomStringConvertible {
        case addBudget(Budget)
        case updateBudget(Budget)
        case removeBudget(String, includingExpenses: Bool)
        case addExpense(Expense)
        case addExpenses([Expense])
        case updateExpense(Expense)
        case removeExpense(Int64)
        case addRecurringRule(RecurringRule)
        case skip(ruleID: Int64, Day)
        case postRecurring(through: Day, dryRun: Bool)
        /// `undo` with no id, or of a change set by id: an undo's own id redoes.
        case undo(Int64?)
        case account(AccountOperation)
        case split(SplitOperation)
        case foreign(ForeignOperation)

        var description: String {
            switch self {
            case .addBudget(let budget): "addBudget(\(budget.name.debugDescription), \(budget.limit))"
            case .updateBudget(let budget): "updateBudget(#\(budget.id ?? -1), \(budget.name.debugDescription), \(budget.limit))"
            case .removeBudget(let name, let all): "removeBudget(\(name.debugDescription), includingExpenses: \(all))"
            case .addExpense(let expense): "addExpense(\(Self.describe(expense)))"
            case .addExpenses(let expenses): "addExpenses(\(expenses.map(Self.describe)))"
            case .updateExpense(let expense): "updateExpense(\(Self.describe(expense)))"
            case .removeExpense(let id): "removeExpense(\(id))"
            case .addRecurringRule(let rule): "addRecurringRule(\(rule.name.debugDescription) \(rule.amount) every \(rule.interval) \(rule.every) from \(rule.start) budget #\(rule.budgetID))"
            case .skip(let id, let day): "skip(rule #\(id), \(day))"
            case .postRecurring(let last, let dryRun): "postRecurring(through: \(last), dryRun: \(dryRun))"
            case .undo(let id): "undo(\(id.map(String.init) ?? "nil"))"
            case .account(let operation): "\(operation)"
            case .split(let operation): "\(operation)"
            case .foreign(let operation): "\(operation)"
            }
        }

        private static func describe(_ expense: Expense) -> String {
            "#\(expense.id ?? -1) \(expense.name.debugDescription) \(expense.amount)×\(expense.quantity) \(expense.date) budget #\(expense.budgetID) \(expense.tags) by \(expense.by.debugDescription)"
        }

        func apply(to store: any DataAccess) -> Result<Answer, TallyError> {
            Result { () throws(TallyError) -> Answer in
                switch self {
                case .addBudget(let budget): return .budget(try store.addBudget(budget))
                case .updateBudget(let budget): return .budget(try store.updateBudget(budget))
                case .removeBudget(let name, let all): return .count(try store.removeBudget(named: name, includingExpenses: all))
                case .addExpense(let expense): return .expense(try store.addExpense(expense))
                case .addExpenses(let expenses): return .count(try store.addExpenses(expenses))
                case .updateExpense(let expense): return .expense(try store.updateExpense(expense))
                case .removeExpense(let id):
                    try store.removeExpense(id: id)
                    return .done
                case .addRecurringRule(let rule): return .rule(try store.addRecurringRule(rule))
                case .skip(let id, let day):
                    var rule = try store.recurringRule(id: id)
                    rule.skips.append(day)
                    return .rule(try store.updateRecurringRule(rule))
                case .postRecurring(let last, let dryRun):
                    // What a dry run would post is stamped when it is made, not by the store's clock.
                    return .posts(try store.postRecurring(through: last, dryRun: dryRun).map { post in
                        guard dryRun, case .posted(var expense) = post.outcome else { return post }
                        expense.createdAt = Date(timeIntervalSince1970: 0)
                        expense.updatedAt = expense.createdAt
                        return RecurringPost(occurrence: post.occurrence, outcome: .posted(expense))
                    })
                case .undo(let id):
                    let outcome = try store.undo(id, dryRun: false)
                    return .undo(undone: outcome.undone.id, undo: outcome.undo.id)
                case .account(let operation): return try operation.apply(to: store)
                case .split(let operation): return try operation.apply(to: store)
                case .foreign(let operation): return try operation.apply(to: store)
                }
            }
        }

        /// A change drawn against what `current` holds, so that most name existing rows; about
        /// one in five breaks a rule or names something missing.
        static func random(
            using generator: inout SeededGenerator, accounts accountGenerator: inout SeededGenerator, current: InMemoryStore
        ) throws -> Operation {
            let budgets = try current.budgets()
            let expenses = try current.expenses(ExpenseQuery())
            let accounts = try current.accountBook(withEntries: false).accounts
            // One expense in five paid from an account, one of those from a missing one.
            func accountID() -> Int64? {
                guard Int.random(in: 0..<5, using: &accountGenerator) == 0 else { return nil }
                return Int.random(in: 0..<10, using: &accountGenerator) == 0 ? 99 : accounts.randomElement(using: &accountGenerator)?.id
            }
            func expense(_ generator: inout SeededGenerator) -> Expense {
                var expense = Fixtures.expense(&generator, budgetID: budgetID(&generator))
                expense.accountID = accountID()
                return expense
            }
            let budgetID = { (generator: inout SeededGenerator) -> Int64 in
                Int.random(in: 0..<10, using: &generator) == 0 || budgets.isEmpty
                    ? Int64.random(in: 1...40, using: &generator)
                    : budgets.randomElement(using: &generator)?.id ?? 0
            }
            if Int.random(in: 0..<14, using: &accountGenerator) == 0 {
                return .account(try AccountOperation.random(using: &accountGenerator))
            }
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<12:
                var budget = Budget(name: Fixtures.budgetName(&generator), limit: Fixtures.limit(&generator))
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    // A once budget, its range now and then backwards.
                    budget.period = .once
                    let ends = [Fixtures.day(&generator), Fixtures.day(&generator)]
                    budget.range = DayInterval(first: ends.min() ?? ends[0], last: ends.max() ?? ends[0])
                    if Int.random(in: 0..<8, using: &generator) == 0 { budget.range = DayInterval(first: ends.max() ?? ends[0], last: ends.min() ?? ends[0]) }
                }
                return .addBudget(budget)
            case 12..<20:
                var budget = budgets.randomElement(using: &generator) ?? Budget(name: "Nowhere", limit: Money(cents: 100))
                if Int.random(in: 0..<8, using: &generator) == 0 { budget.id = 999 }
                if Bool.random(using: &generator) { budget.name = Fixtures.budgetName(&generator) }
                if Bool.random(using: &generator) { budget.limit = Fixtures.limit(&generator) }
                return .updateBudget(budget)
            case 20..<23:
                let name = Bool.random(using: &generator)
                    ? budgets.randomElement(using: &generator).map { NameKey.make($0.name).uppercased() } ?? "none"
                    : Fixtures.budgetName(&generator)
                return .removeBudget(name, includingExpenses: Int.random(in: 0..<4, using: &generator) == 0)
            case 23..<63:
                return .addExpense(expense(&generator))
            case 63..<71:
                return try Differential.recurring(using: &generator, current: current, budgetID: budgetID(&generator))
            case 71..<76:
                let count = Int.random(in: 0...6, using: &generator)
                return .addExpenses((0..<count).map { _ in expense(&generator) })
            case 76..<92:
                var expense = expenses.randomElement(using: &generator)
                    ?? Fixtures.expense(&generator, budgetID: budgetID(&generator))
                if expense.id == nil || Int.random(in: 0..<10, using: &generator) == 0 {
                    expense.id = Int64.random(in: 1...500, using: &generator)
                }
                let fresh = Fixtures.expense(&generator, budgetID: budgetID(&generator))
                if Bool.random(using: &generator) { expense.name = fresh.name }
                if Bool.random(using: &generator) { expense.amount = fresh.amount }
                if Bool.random(using: &generator) { expense.quantity = fresh.quantity }
                if Bool.random(using: &generator) { expense.date = fresh.date }
                if Int.random(in: 0..<4, using: &generator) == 0 { expense.budgetID = fresh.budgetID }
                if Bool.random(using: &generator) { expense.tags = fresh.tags }
                if Bool.random(using: &generator) { expense.by = fresh.by }
                if Int.random(in: 0..<5, using: &accountGenerator) == 0 { expense.accountID = accountID() }
                return .updateExpense(expense)
            default:
                let id = Int.random(in: 0..<5, using: &generator) == 0 || expenses.isEmpty
                    ? Int64.random(in: 1...500, using: &generator)
                    : expenses.randomElement(using: &generator)?.id ?? 0
                return .removeExpense(id)
            }
        }
    }

    /// A recurring rule, a skip, a post through one of the days, or an undo (of the last change,
    /// or by id, which redoes an undo or is refused as already undone, blocked or unknown).
    static func recurring(using generator: inout SeededGenerator, current: InMemoryStore, budgetID: Int64) throws -> Operation {
        let rules = try current.recurringRules()
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<2:
            let start = Fixtures.day(&generator)
            let every: RecurringFrequency = Bool.random(using: &generator) ? .month : .week
            return .addRecurringRule(RecurringRule(
                name: Fixtures.pick(Fixtures.expenseNames, else: Fixtures.badExpenseNames, oneIn: 10, &generator), budgetID: budgetID,
                amount: Money(cents: Int64.random(in: 1...20_000, using: &generator)), every: every,
                interval: every == .week ? Int.random(in: 2...6, using: &generator) : Int.random(in: 1...3, using: &generator),
                start: start, until: Bool.random(using: &generator) ? nil : Fixtures.day(&generator)))
        case 2:
            return .skip(ruleID: rules.randomElement(using: &generator)?.id ?? 99, Fixtures.day(&generator))
        case 3..<7:
            return .postRecurring(through: Fixtures.day(&generator), dryRun: Int.random(in: 0..<4, using: &generator) == 0)
        case 7:
            return .undo(nil)
        default:
            let recent = try current.changeSets(since: nil, limit: 6)
            return .undo(recent.randomElement(using: &generator)?.changeSet.id ?? Int64.random(in: 1...400, using: &generator))
        }
    }
}

extension Differential {
    /// The values operations are drawn from: clashing spellings, hostile text and every limit.
    enum Fixtures {
        static let months = ["2024-02", "2026-01", "2026-02", "2026-03", "2026-12"].compactMap { try? Month(parsing: $0) }
        static let days = [
            "2024-02-29", "2026-01-01", "2026-01-31", "2026-02-01", "2026-02-14", "2026-02-28", "2026-03-01", "2026-03-15",
            "2026-12-31", "2027-01-01",
        ].compactMap { try? Day(parsing: $0) }

        static let budgetNames = [
            "Food", "food", "FÖÖD", "Rent", "Café", "cafe", "Fun", "Travel ✈️", "  Spaced  ", "ｗｉｄｅ", "wide",
            "'; DROP TABLE budget; --", "<b>x</b>", "שלום", "", " ", "Line\nBreak", "Tab\tName", String(repeating: "n", count: 101),
        ]
        static let expenseNames = ["Apples", "apples", "Bread", "Crème brûlée", "creme brulee", "🍕 Pizza", "Ticket", "مرحبا"]
        static let badExpenseNames = ["x\u{0}y", "", " \n", String(repeating: "e", count: 201)]
        static let tags = ["food", "Food", " travel ", "été", "ete"]
        static let badTags = ["a,b", "", "x;y", String(repeating: "t", count: 51)]
        /// Who spent it: spellings that differ by case or composition only stay apart; blank is no one.
        static let people = ["", "Anna", "anna", " Anna ", "Zoë", "Zoe\u{0308}", "   "]
        static let badPeople = ["a\u{0}b", "x\ny", String(repeating: "p", count: 101)]

        /// Mostly from `good`, one time in `oneIn` from `bad`.
        static func pick(_ good: [String], else bad: [String], oneIn: Int, _ generator: inout SeededGenerator) -> String {
            let pool = Int.random(in: 0..<oneIn, using: &generator) == 0 ? bad : good
            return pool.randomElement(using: &generator) ?? ""
        }

        static func day(_ generator: inout SeededGenerator) -> Day {
            days.randomElement(using: &generator) ?? days[0]
        }

        static func budgetName(_ generator: inout SeededGenerator) -> String {
            budgetNames.randomElement(using: &generator) ?? "Food"
        }

        static func limit(_ generator: inout SeededGenerator) -> Money {
            switch Int.random(in: 0..<20, using: &generator) {
            case 0: Money(cents: 0)
            case 1: Money(cents: -500)
            case 2: Money(cents: 100_000_000_001)
            case 3: Money(cents: 100_000_000_000)
            default: Money(cents: Int64.random(in: 1...500_000, using: &generator))
            }
        }

        static func expense(_ generator: inout SeededGenerator, budgetID: Int64) -> Expense {
            let amount: Money =
                switch Int.random(in: 0..<30, using: &generator) {
                case 0: Money(cents: 0)
                case 1: Money(cents: -1)
                case 2: Money(cents: 100_000_000_001)
                case 3: Money(cents: 100_000_000_000)
                default: Money(cents: Int64.random(in: 1...20_000, using: &generator))
                }
            let quantity: Int64 =
                switch Int.random(in: 0..<30, using: &generator) {
                case 0: 0
                case 1: 1_000_001
                case 2: 1_000_000
                default: Int64.random(in: 1...4, using: &generator)
                }
            let tagCount = Int.random(in: 0...2, using: &generator)
            return Expense(
                name: pick(expenseNames, else: badExpenseNames, oneIn: 10, &generator), amount: amount, quantity: quantity,
                date: days.randomElement(using: &generator) ?? days[0], budgetID: budgetID,
                tags: (0..<tagCount).map { _ in pick(tags, else: badTags, oneIn: 12, &generator) },
                by: pick(people, else: badPeople, oneIn: 15, &generator))
        }
    }
}
