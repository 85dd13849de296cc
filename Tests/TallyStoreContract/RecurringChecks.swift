import Foundation
import TallyCore
import TallyTestSupport
import Testing

/// Recurring rules, posting and matching: what every store must do alike.
extension StoreContract {
    // MARK: - Recurring Rules

    static func recurringRulesAreAddedListedEditedAndRemoved(_ stores: Stores) throws {
        let store = try stores.make()
        let home = try store.addBudget(Budget(name: "Home", limit: money("2000")))
        let rent = try store.addRecurringRule(
            RecurringRule(
                name: " Rent ", budgetID: home.id ?? 0, amount: money("1200"), tags: ["Housing"], every: .month, day: 31,
                start: day("2026-01-31"), skips: [day("2026-03-31"), day("2026-02-28"), day("2026-03-31")]))
        #expect(rent.id != nil)
        #expect(rent.name == "Rent" && rent.tags == ["housing"])
        #expect(rent.skips == [try day("2026-02-28"), try day("2026-03-31")])
        #expect(try store.recurringRule(id: rent.id ?? 0) == rent)
        let gym = try store.addRecurringRule(
            RecurringRule(name: "Gym", budgetID: home.id ?? 0, amount: money("20"), quantity: 2, every: .week, interval: 2, day: 0,
                start: day("2026-01-01"), until: day("2026-12-31")))
        #expect(try store.recurringRules() == [rent, gym])

        var changed = gym
        changed.amount = try money("25")
        changed.skips = [try day("2026-01-05")]
        changed.until = nil
        #expect(try store.updateRecurringRule(changed) == changed)
        #expect(try store.recurringRule(id: gym.id ?? 0) == changed)

        try store.removeRecurringRule(id: rent.id ?? 0)
        #expect(try store.recurringRules() == [changed])
        expectError(.recurringRuleNotFound(rent.id ?? 0)) { () throws(TallyError) in try store.recurringRule(id: rent.id ?? 0) }
        expectError(.recurringRuleNotFound(rent.id ?? 0)) { () throws(TallyError) in try store.removeRecurringRule(id: rent.id ?? 0) }
        expectError(.recurringRuleNotFound(99)) { () throws(TallyError) in
            var unknown = changed
            unknown.id = 99
            return try store.updateRecurringRule(unknown)
        }
    }

    static func brokenRecurringRulesAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        let home = try store.addBudget(Budget(name: "Home", limit: money("2000")))
        let good = try RecurringRule(name: "Rent", budgetID: home.id ?? 0, amount: money("1200"), every: .month, start: day("2026-01-01"))
        let saved = try store.addRecurringRule(good)
        var zeroInterval = good
        zeroInterval.interval = 0
        var badDay = good
        badDay.day = 32
        var weekday = good
        weekday.every = .week
        weekday.day = 7
        var ends = good
        ends.until = try day("2025-12-31")
        var elsewhere = good
        elsewhere.budgetID = 42
        let cases: [(RecurringRule, TallyError)] = [
            (zeroInterval, .invalidInterval(0)), (badDay, .invalidRecurringDay("32", .month)),
            (weekday, .invalidRecurringDay("7", .week)),
            (ends, .untilBeforeStart(start: try day("2026-01-01"), until: try day("2025-12-31"))),
            (elsewhere, .budgetNotFound("#42")),
        ]
        for (rule, error) in cases {
            expectError(error) { () throws(TallyError) in try store.addRecurringRule(rule) }
            var edit = rule
            edit.id = saved.id
            expectError(error) { () throws(TallyError) in try store.updateRecurringRule(edit) }
        }
        #expect(try store.recurringRules() == [saved])
    }

    // MARK: - Posting

    static func postingIsIdempotentAndRemembersEachOccurrence(_ stores: Stores) throws {
        let store = try stores.make()
        let home = try store.addBudget(Budget(name: "Home", limit: money("2000")))
        let rule = try store.addRecurringRule(
            RecurringRule(name: "Rent", budgetID: home.id ?? 0, amount: money("400"), quantity: 2, tags: ["housing"], every: .month,
                day: 31, start: day("2026-01-15"), skips: [day("2026-03-31")]))

        let preview = try store.postRecurring(through: day("2026-04-30"), dryRun: true)
        #expect(preview.map(\.occurrence.date) == [try day("2026-01-31"), try day("2026-02-28"), try day("2026-04-30")])
        #expect(try store.expenses(ExpenseQuery()).isEmpty)
        #expect(try store.recurringPayments().isEmpty)

        let posted = try store.postRecurring(through: day("2026-04-30"), dryRun: false)
        #expect(posted.map(\.occurrence.date) == preview.map(\.occurrence.date))
        let expenses = try store.expenses(ExpenseQuery())
        #expect(expenses.map(\.date) == preview.map(\.occurrence.date))
        #expect(expenses.allSatisfy { $0.name == "Rent" && $0.amount == Money(cents: 40_000) && $0.quantity == 2 && $0.tags == ["housing"] })
        let payments = try store.recurringPayments()
        #expect(payments.map(\.date) == expenses.map(\.date))
        #expect(payments.map(\.expenseID) == expenses.map(\.id))
        #expect(payments.allSatisfy { $0.ruleID == rule.id && $0.kind == .posted })

        #expect(try store.postRecurring(through: day("2026-04-30"), dryRun: false).isEmpty)
        #expect(try store.expenses(ExpenseQuery()).count == 3)

        // A removed posted expense leaves its occurrence paid: it does not come back.
        try store.removeExpense(id: expenses[0].id ?? 0)
        #expect(try store.postRecurring(through: day("2026-04-30"), dryRun: false).isEmpty)
        #expect(try store.recurringPayments().first?.expenseID == nil)

        // Removing the budget removes its rules and what they remember.
        try store.removeBudget(named: "Home", includingExpenses: true)
        #expect(try store.recurringRules().isEmpty)
        #expect(try store.recurringPayments().isEmpty)
    }

    static func postingMatchesRecordedExpensesWithinThreeDaysAndTenPercent(_ stores: Stores) throws {
        let store = try stores.make()
        let home = try store.addBudget(Budget(name: "Home", limit: money("5000")))
        let other = try store.addBudget(Budget(name: "Other", limit: money("5000")))
        let homeID = home.id ?? 0
        // 100.00 on the 10th of each month, January to June.
        let rule = try store.addRecurringRule(
            RecurringRule(name: "Power", budgetID: homeID, amount: money("50"), quantity: 2, every: .month, start: day("2026-01-10"),
                until: day("2026-06-30")))
        let typed = try store.addExpenses([
            Expense(name: "power bill", amount: money("110"), date: day("2026-01-13"), budgetID: homeID),  // 3 days, +10 %
            Expense(name: "power bill", amount: money("110.01"), date: day("2026-02-10"), budgetID: homeID),  // +10.01 %
            Expense(name: "power bill", amount: money("100"), date: day("2026-03-14"), budgetID: homeID),  // 4 days
            Expense(name: "power bill", amount: money("100"), date: day("2026-04-10"), budgetID: other.id ?? 0),  // other budget
            Expense(name: "power bill", amount: money("90"), date: day("2026-05-07"), budgetID: homeID),  // −3 days, −10 %
            Expense(name: "power bill", amount: money("100"), date: day("2026-06-12"), budgetID: homeID),  // closer one wins
            Expense(name: "power bill", amount: money("100"), date: day("2026-06-11"), budgetID: homeID),
        ])
        #expect(typed == 7)
        let recorded = try store.expenses(ExpenseQuery(sort: .date))
        let posts = try store.postRecurring(through: day("2026-06-30"), dryRun: false)
        let outcomes = posts.map { post -> String in
            switch post.outcome {
            case .posted(let expense): "\(post.occurrence.date) posted \(expense.amount.plainString)"
            case .matched(let expense): "\(post.occurrence.date) matched \(expense.date) \(expense.amount.plainString)"
            case .outsideBudget(let range): "\(post.occurrence.date) outside \(range.first)"
            }
        }
        #expect(outcomes == [
            "2026-01-10 matched 2026-01-13 110.00", "2026-02-10 posted 50.00", "2026-03-10 posted 50.00", "2026-04-10 posted 50.00",
            "2026-05-10 matched 2026-05-07 90.00", "2026-06-10 matched 2026-06-11 100.00",
        ])
        let payments = try store.recurringPayments()
        #expect(payments.map(\.kind) == [.matched, .posted, .posted, .posted, .matched, .matched])
        #expect(payments.allSatisfy { $0.ruleID == rule.id })
        #expect(try store.expenses(ExpenseQuery()).count == recorded.count + 3)

        // An expense pays one occurrence only: a second rule due the same day gets its own.
        let twin = try store.addRecurringRule(
            RecurringRule(name: "Power twin", budgetID: homeID, amount: money("100"), every: .month, start: day("2026-01-10"),
                until: day("2026-01-31")))
        let second = try store.postRecurring(through: day("2026-06-30"), dryRun: false)
        #expect(second.count == 1 && second.first?.occurrence.rule.id == twin.id)
        if case .matched = second.first?.outcome { Issue.record("an expense already paying an occurrence matched another") }
    }
}

extension StoreContract {
    // MARK: - Restoring Rules

    /// A backup's rules come back with their skips and paid occurrences, by budget name, only
    /// into a ledger that has no rule yet; a restored ledger posts nothing already paid.
    static func aBackupsRecurringRulesAreRestoredOnlyIntoALedgerWithoutRules(_ stores: Stores) throws {
        let rule = try RecurringRule(
            name: "Rent", budgetID: 0, amount: money("1200"), tags: ["home"], every: .month, day: 31, start: day("2026-01-01"),
            until: day("2026-12-31"), skips: [day("2026-03-31")])
        let declared = DeclaredRecurringRule(
            rule: rule, budgetName: "HOME", posted: [try day("2026-01-31")], matched: [try day("2026-02-28")])
        var request = ImportRequest(source: "backup.json", newBudgets: [Budget(name: "Home", limit: try money("2000"))])
        request.recurringRules = [declared]

        let store = try stores.make()
        _ = try store.importExpenses(request) { (_: ImportInsert) throws(TallyError) -> String? in "backup" }
        let home = try store.budget(named: "home")
        let restored = try store.recurringRules()
        #expect(restored.count == 1)
        var expected = rule
        expected.id = restored.first?.id
        expected.budgetID = home.id ?? 0
        #expect(restored == [expected])
        let payments = try store.recurringPayments()
        #expect(payments.map(\.date) == [try day("2026-01-31"), try day("2026-02-28")])
        #expect(payments.map(\.kind) == [.posted, .matched] && payments.allSatisfy { $0.expenseID == nil })
        let posted = try store.postRecurring(through: day("2026-04-30"), dryRun: false)
        #expect(posted.map(\.occurrence.date) == [try day("2026-04-30")])

        // Again, forced: the ledger has rules now, so none is added twice.
        request.force = true
        request.source = "again.json"
        _ = try store.importExpenses(request) { (_: ImportInsert) throws(TallyError) -> String? in "again" }
        #expect(try store.recurringRules().count == 1)

        // A rule whose budget the ledger lacks fails the whole import.
        let other = try stores.make()
        var orphan = ImportRequest(source: "orphan.json")
        orphan.recurringRules = [DeclaredRecurringRule(rule: rule, budgetName: "Nowhere")]
        expectError(.budgetNotFound("Nowhere")) { () throws(TallyError) in
            try other.importExpenses(orphan) { (_: ImportInsert) throws(TallyError) -> String? in "orphan" }
        }
        #expect(try other.recurringRules().isEmpty && other.importRecord(fingerprint: "orphan") == nil)
    }
}

extension StoreContract {
    // MARK: - Warning Levels

    /// A budget keeps its warning level through edits, its statuses follow it, and the ledger
    /// keeps its default for new budgets beside its month start.
    static func warningLevelsAreKeptPerBudgetAndAsTheLedgersDefault(_ stores: Stores) throws {
        let store = try stores.make()
        #expect(try store.settings().warn == 80)
        let settings = LedgerSettings(calendar: try PeriodCalendar(monthStart: 25), warn: 65)
        #expect(try store.updateSettings(settings) == settings)
        #expect(try store.settings() == settings)
        var food = try store.addBudget(Budget(name: "Food", limit: money("100"), warn: 50))
        #expect(try store.budget(named: "food").warn == 50)
        _ = try store.addExpense(Expense(name: "Bread", amount: money("60"), date: day("2026-03-26"), budgetID: food.id ?? 0))
        #expect(try store.budgetStatuses(for: month("2026-03")).map(\.level) == [.near])
        food.warn = 70
        food = try store.updateBudget(food)
        #expect(try store.budget(named: "food").warn == 70)
        #expect(try store.status(ofBudgetNamed: "food", in: month("2026-03")).level == .ok)
        var broken = food
        broken.warn = 0
        expectError(.invalidWarnLevel(0)) { () throws(TallyError) in try store.updateBudget(broken) }
        #expect(try store.budget(named: "food").warn == 70)
    }
}

extension StoreContract {
    /// `check --new-only`'s memory: per period, the levels saved last time come back and are replaced.
    static func alertLevelsAreRememberedPerPeriod(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("100"))).id ?? 0
        let rent = try store.addBudget(Budget(name: "Rent", limit: money("900"))).id ?? 0
        let march = try month("2026-03")
        #expect(try store.exchangeAlertLevels([food: .warning, rent: .ok], for: march).isEmpty)
        #expect(try store.exchangeAlertLevels([food: .over, rent: .ok], for: march) == [food: .warning, rent: .ok])
        #expect(try store.exchangeAlertLevels([food: .ok], for: month("2026-04")).isEmpty)
        try store.removeBudget(named: "Rent", includingExpenses: false)
        #expect(try store.exchangeAlertLevels([food: .over], for: march) == [food: .over])
    }
}

extension StoreContract {
    /// The pace reads the expenses that paid bills by id, in one read: those that exist, by id.
    static func expensesAreReadByIDIgnoringMissingOnes(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("100"))).id ?? 0
        var added: [Expense] = []
        for index in 1...3 {
            added.append(try store.addExpense(
                Expense(name: "E\(index)", amount: money("\(index)"), date: day("2026-03-0\(index)"), budgetID: food, tags: ["t\(index)"])))
        }
        let ids = added.compactMap(\.id)
        #expect(try store.expenses(ids: [ids[2], 999, ids[0], ids[2]]) == [added[0], added[2]])
        #expect(try store.expenses(ids: []).isEmpty)
        #expect(try store.expenses(ids: Array(1...1_200).map(Int64.init)).count == 3)
    }
}
