import Foundation
import TallyCore
import TallyInMemory
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallyPostgres

/// A ledger Tally made before a migration opens with every row as it was, and what its history
/// recorded then still undoes. The previous version is made as the SQLite fixtures are: by this
/// build, then taken back by the inverse of the later migration's statements.
@Suite(.ownThreads) struct PostgresMigrationTests {
    /// The import was recorded before `v4-removed-rows`: undoing it now moves its expenses and row
    /// keys beside the undo, and redoing moves them back with their ids.
    @Test func anImportRecordedBeforeV4UndoesAndRedoesInBulk() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "v3")
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        let food = try old.addBudget(Budget(name: "Food", limit: money("300")))
        let keys = ImportRowKeys()
        _ = try old.importExpenses(ImportRequest(source: "bank.csv", rowKeys: keys)) { (insert: ImportInsert) throws(TallyError) -> String? in
            for key in Int64(1)...3 where keys.admit(key) {
                try insert(Expense(name: "Bread \(key)", amount: try money("2.50"), date: try day("2026-03-0\(key)"), budgetID: 0), "Food")
            }
            return "bank"
        }
        _ = try old.addExpense(Expense(name: "Cake", amount: money("4"), date: day("2026-03-09"), budgetID: food.id ?? 0))
        try old.close()
        try server.psql(
            Self.beforeV8 + """
            DROP TABLE removedExpense; DROP TABLE removedImportedRow;
            DELETE FROM tally_migration WHERE name = 'v4-removed-rows';
            """, database: database.name)

        let store = try PostgresStore(location: location)
        defer { try? store.close() }
        #expect(try server.psql("SELECT count(*) FROM tally_migration WHERE name = 'v4-removed-rows'", database: database.name) == "1\n")
        let migrated = try Snapshot(store)
        let migratedKeys = try store.importedRowKeys()
        #expect(migrated.expenses.count == 4 && migratedKeys.count == 3)
        func kept() throws -> String { try server.psql("SELECT (SELECT count(*) FROM removedExpense) || ' ' || (SELECT count(*) FROM removedImportedRow)", database: database.name) }

        let imported = try #require(try store.changeSets(since: nil, limit: nil).first { $0.changeSet.summary.contains("3 expenses added") })
        let undo = try store.undo(imported.changeSet.id, dryRun: false)
        #expect(undo.undo.content.removedExpenses?.count == 3 && undo.undo.content.expensesBefore.isEmpty)
        #expect(try store.expenses(ExpenseQuery()).map(\.name) == ["Cake"])
        #expect(try store.importedRowKeys().isEmpty)
        #expect(try kept() == "3 3\n")

        _ = try store.undo(undo.undo.id, dryRun: false)
        #expect(try Snapshot(store) == migrated)
        #expect(try store.importedRowKeys() == migratedKeys)
        #expect(try kept() == "0 0\n")
    }

    /// A ledger from before `v5-caches` opens with `budgetMonth` filled from its expenses under its
    /// month start, and every figure as it was and as `InMemoryStore` computes it. A period whose
    /// sum is past Int64 does not fail the migration (NUMERIC sums), only the figure that reads it.
    @Test func aLedgerFromBeforeV5OpensWithEveryFigure() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "v4")
        let location = try ServerLocation(url: database.url)
        let clock = TestClock()
        let old = try PostgresStore(location: location, clock: { clock() })
        let memory = InMemoryStore(clock: { clock() })
        for store in [old, memory] as [any DataAccess] {
            _ = try store.updateSettings(LedgerSettings(calendar: try PeriodCalendar(monthStart: 25)))
            let food = try store.addBudget(Budget(name: "Food", limit: money("300"), rollover: .both, createdAt: clock()))
            let trip = try store.addBudget(Budget(name: "Trip", limit: money("2000"), period: .yearly, rollover: .surplus, createdAt: clock()))
            let party = try store.addBudget(
                Budget(name: "Party", limit: money("500"), period: .once, range: DayInterval(first: day("2026-05-20"), last: day("2026-06-10")), createdAt: clock()))
            let huge = try store.addBudget(Budget(name: "Huge", limit: Money.maximumInput, createdAt: clock()))
            var expenses: [Expense] = []
            for index in 0..<120 {
                let budget = [food, trip, party][index % 3]
                let date = index % 3 == 2 ? try day("2026-05-2\(index % 10)") : try Day(year: 2026, month: index % 12 + 1, day: index % 28 + 1)
                expenses.append(Expense(name: "E\(index)", amount: try money("\(index + 1).10"), quantity: Int64(index % 2 + 1), date: date, budgetID: budget.id ?? 0, tags: index % 5 == 0 ? ["x"] : []))
            }
            // 93 totals of 10^17 cents in one period: past Int64.
            for index in 0..<93 {
                expenses.append(Expense(name: "H\(index)", amount: Money.maximumInput, quantity: Expense.maximumQuantity, date: try day("2027-03-10"), budgetID: huge.id ?? 0))
            }
            try store.addExpenses(expenses)
        }
        let months = try month("2025-12")...month("2026-12")
        struct Figures: Equatable {
            var summaries: [MonthSummary]
            var statuses: [[BudgetStatus]]
            var spent: [Month: [Int64: Money]]
        }
        func figures(_ store: any DataAccess) throws -> Figures {
            let all = Spending.months(in: months)
            return Figures(
                summaries: try all.map { month in try store.monthSummary(for: month) }, statuses: try all.map { month in try store.budgetStatuses(for: month) },
                spent: try store.spentByMonth(in: months))
        }
        let store = try reopenBefore(
            "v5-caches", dropping: "budgetMonth", old, database: database.name, clock: clock, memory: memory, figures: figures)
        defer { try? store.close() }
        expectError(.arithmeticOverflow) { () throws(TallyError) in try store.spentByMonth(in: month("2027-01")...month("2027-04")) }
        expectError(.arithmeticOverflow) { () throws(TallyError) in try memory.spentByMonth(in: month("2027-01")...month("2027-04")) }
    }

    /// A ledger from before `v6-expense-days` opens with `expenseDay` filled from its expenses:
    /// every month's summary, people and largest expenses as they were and as `InMemoryStore`
    /// computes them, and the cache equal to its rows.
    @Test func aLedgerFromBeforeV6OpensWithEveryDayFigure() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "v5")
        let location = try ServerLocation(url: database.url)
        let clock = TestClock()
        let old = try PostgresStore(location: location, clock: { clock() })
        let memory = InMemoryStore(clock: { clock() })
        for store in [old, memory] as [any DataAccess] {
            let food = try store.addBudget(Budget(name: "Food", limit: money("300"), createdAt: clock()))
            let home = try store.addBudget(Budget(name: "Home", limit: money("900"), createdAt: clock()))
            var expenses: [Expense] = []
            for index in 0..<150 {
                expenses.append(
                    Expense(
                        name: "E\(index)", amount: try money("\(index % 37 + 1).40"), quantity: Int64(index % 3 + 1),
                        date: try Day(year: 2026, month: index % 4 + 3, day: index % 9 + 1), budgetID: (index % 2 == 0 ? food : home).id ?? 0,
                        tags: index % 5 == 0 ? ["x", "a"] : index % 7 == 0 ? ["y"] : [], by: ["", "ana", "ben"][index % 3]))
            }
            try store.addExpenses(expenses)
            // A removal of a group's largest leaves a smaller one to bound the rest.
            let largest = try #require(try store.expenses(ExpenseQuery(sort: .total, descending: true, limit: 1)).first)
            try store.removeExpense(id: largest.id ?? 0)
        }
        struct Figures: Equatable {
            var summaries: [MonthSummary]
            var people: [[PersonSpending]]
            var largest: [[String]]
        }
        func figures(_ store: any DataAccess) throws -> Figures {
            let months = try (0..<5).map { try month("2026-02").adding(months: $0) }
            return Figures(
                summaries: try months.map { try store.monthSummary(for: $0) },
                people: try months.map { try store.spendingByPerson(in: PeriodCalendar.calendarMonths.days(of: $0)) },
                largest: try months.map { month in
                    try store.expenses(ExpenseQuery(days: PeriodCalendar.calendarMonths.days(of: month), sort: .total, descending: true, limit: 10)).map(\.name)
                })
        }
        let store = try reopenBefore(
            "v6-expense-days", dropping: "expenseDay", old, database: database.name, clock: clock, memory: memory, figures: figures)
        try store.close()
    }

    /// A ledger from before `v12-why-over-groups` opens with `expenseGroup` filled from its
    /// expenses under its own month start: why over's groups as they were summed from the rows
    /// and as `InMemoryStore` computes them, spellings included.
    @Test func aLedgerFromBeforeV12OpensWithItsWhyOverGroups() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "v11")
        let clock = TestClock()
        let old = try PostgresStore(location: try ServerLocation(url: database.url), clock: { clock() })
        let memory = InMemoryStore(clock: { clock() })
        var ids: Set<Int64> = []
        for store in [old, memory] as [any DataAccess] {
            var settings = try store.settings()
            settings.calendar = try PeriodCalendar(monthStart: 20)
            _ = try store.updateSettings(settings)
            let food = try store.addBudget(Budget(name: "Food", limit: money("300"), createdAt: clock()))
            let home = try store.addBudget(Budget(name: "Home", limit: money("900"), createdAt: clock()))
            ids = Set([food.id, home.id].compactMap { $0 })
            try store.addExpenses((0..<120).map { index in
                Expense(
                    name: ["Pizza", "pizza", "PIZZA", "Lamp", "lamp"][index % 5], amount: Money(cents: Int64(index % 31 + 1) * 110),
                    quantity: Int64(index % 2 + 1), date: (try? Day(year: 2026, month: index % 5 + 3, day: index % 27 + 1)) ?? Day.today(),
                    budgetID: (index % 3 == 0 ? home : food).id ?? 0, tags: index % 4 == 0 ? ["x", "a"] : [])
            })
            // The smallest spelling of one group leaves it.
            let upper = try store.expenses(ExpenseQuery(search: "pizza")).filter { $0.name == "PIZZA" }
            for expense in upper.prefix(3) { try store.removeExpense(id: expense.id ?? 0) }
        }
        func figures(_ store: any DataAccess) throws -> [Set<SpendingGroup>] {
            try (0..<6).map { offset in
                let first = try month("2026-02").adding(months: offset)
                return Set(try store.spendingGroups(ofBudgets: ids, in: first...first.adding(months: 1)))
            }
        }
        let store = try reopenBefore(
            "v12-why-over-groups", dropping: "expenseGroup", old, database: database.name, clock: clock, memory: memory, figures: figures)
        try store.close()
    }

    /// A ledger from before `v7-accounts` opens with every figure as it was, and takes accounts.
    @Test func aLedgerFromBeforeV7OpensAndTakesAccounts() throws {
        let downgrade = PostgresLaterMigrationTests.beforeV19 + Self.beforeV8 + """
            DROP TABLE balanceAssertion; DROP TABLE transfer; DROP TABLE income; DROP TABLE account;
            DELETE FROM idCounter WHERE kind IN ('account', 'income', 'transfer'); DELETE FROM tally_migration WHERE name = 'v7-accounts';
            """
        let (store, before, _) = try reopened("v6", after: downgrade) { old in
            let food = try old.addBudget(Budget(name: "Food", limit: money("300")))
            _ = try old.addExpense(Expense(name: "Bread", amount: money("2.50"), date: day("2026-03-01"), budgetID: food.id ?? 0))
            return try old.budgetStatuses(for: month("2026-03"))
        }
        defer { try? store.close() }
        #expect(try store.budgetStatuses(for: month("2026-03")) == before)
        #expect(try store.cacheMismatches() == [])
        let account = try store.addAccount(Account(name: "Checking", kind: .checking))
        #expect(account.id == 1)
        _ = try store.addIncome(Income(name: "Salary", amount: money("10"), date: day("2026-03-02"), accountID: 0), toAccountNamed: "checking")
        #expect(try store.accountBook().balance(of: account, through: day("2026-03-31")) == money("10"))
    }

    /// What takes a database back to before `v11-budget-goals`.
    static let beforeV11 = """
        ALTER TABLE budget DROP COLUMN targetAccountId; ALTER TABLE budget DROP COLUMN targetBy;
        ALTER TABLE budget DROP COLUMN targetCents; DELETE FROM tally_migration WHERE name = 'v11-budget-goals';

        """

    /// A ledger from before `v11-budget-goals` opens with its budgets and their figures as they
    /// were, without a target; a budget then keeps the target it is given, and the server
    /// refuses a target of zero.
    @Test func aLedgerFromBeforeV11KeepsItsBudgetsAndTakesATarget() throws {
        let (store, old, database) = try reopened("v10", after: Self.beforeV11) { old in
            let food = try old.addBudget(Budget(name: "Food", limit: money("300"), rollover: .surplus, start: month("2026-01")))
            _ = try old.addExpense(Expense(name: "Bread", amount: money("2.50"), date: day("2026-03-01"), budgetID: food.id ?? 0))
            _ = try old.addAccount(Account(name: "Savings", kind: .savings, opening: money("100")))
            return (budgets: try old.budgets(), statuses: try old.budgetStatuses(for: month("2026-03")))
        }
        defer { try? store.close() }
        #expect(try store.budgets() == old.budgets)
        #expect(try store.budgetStatuses(for: month("2026-03")) == old.statuses)
        var food = old.budgets[0]
        food.target = BudgetTarget(amount: try money("1200"), by: try month("2026-12"), accountID: try store.accountBook().account(named: "savings").id)
        _ = try store.updateBudget(food)
        #expect(try store.budget(named: "food").target == food.target)
        #expect(try store.budgetStatuses(for: month("2026-03")).map(\.spent) == old.statuses.map(\.spent))
        #expect(throws: (any Error).self) { try PostgresTestServer.get().psql("UPDATE budget SET targetCents = 0", database: database) }
    }

    /// What takes a database back to before `v10-statement-accounts`.
    // Downgrades that recreate `removedExpense` first take back `v13`, which added its columns.
    static let beforeV10 = PostgresForeignMigrationTests.beforeV13 + "\n" + beforeV11 + """
        ALTER TABLE account DROP COLUMN number; ALTER TABLE importRule DROP COLUMN transferAccountId;
        ALTER TABLE importRule ALTER COLUMN budgetId SET NOT NULL; DELETE FROM tally_migration WHERE name = 'v10-statement-accounts';

        """

    /// A ledger from before `v10-statement-accounts` opens with its accounts as they were, and an
    /// account then keeps its IBAN; the server refuses one past an IBAN's length.
    @Test func aLedgerFromBeforeV10KeepsItsAccountsAndTakesANumber() throws {
        let (store, accounts, database) = try reopened("v9", after: Self.beforeV10) { old in
            _ = try old.addAccount(Account(name: "Checking", kind: .checking, opening: money("100")))
            return try old.accountBook().accounts
        }
        defer { try? store.close() }
        #expect(try store.accountBook().accounts == accounts)
        var checking = accounts[0]
        checking.number = "DE89370400440532013000"
        _ = try store.updateAccount(checking)
        #expect(try store.accountBook().account(named: "checking").number == "DE89370400440532013000")
        #expect(throws: (any Error).self) {
            try PostgresTestServer.get().psql("UPDATE account SET number = '\(String(repeating: "1", count: 35))'", database: database)
        }
    }

    /// What takes a database back to before `v9-profile-skip`.
    static let beforeV9 = beforeV10 + """
        ALTER TABLE importProfile DROP COLUMN skip; DELETE FROM tally_migration WHERE name = 'v9-profile-skip';

        """

    /// A ledger from before `v9-profile-skip` opens with its profiles as they were, and a profile
    /// then keeps its lines to skip.
    @Test func aLedgerFromBeforeV9KeepsItsProfilesAndTakesSkip() throws {
        let (store, bank, _) = try reopened("v8", after: Self.beforeV9) { old in
            try old.saveProfile(ImportProfile(name: "Bank", dateFormat: "dd.MM.yyyy", expenseSign: "negative", encoding: "latin1"))
        }
        defer { try? store.close() }
        #expect(try store.profiles() == [bank])
        var skipping = bank
        skipping.skip = 6
        _ = try store.saveProfile(skipping)
        #expect(try store.profiles() == [skipping])
    }

    /// What takes a database back to before `v8-expense-accounts`.
    static let beforeV8 = beforeV9 + """
        DROP TABLE accountDay; ALTER TABLE expense DROP COLUMN accountId; ALTER TABLE removedExpense DROP COLUMN accountId;
        ALTER TABLE setting DROP COLUMN defaultAccountId; DELETE FROM tally_migration WHERE name = 'v8-expense-accounts';

        """

    /// A ledger from before `v8-expense-accounts` opens with every balance as it was, its
    /// `accountDay` filled from the incomes and transfers, and takes expenses paid from accounts.
    @Test func aLedgerFromBeforeV8OpensWithItsBalancesAndTakesExpenseAccounts() throws {
        let (store, old, database) = try reopened("v7", after: Self.beforeV8) { old in
            let food = try old.addBudget(Budget(name: "Food", limit: money("300")))
            _ = try old.addExpense(Expense(name: "Bread", amount: money("2.50"), date: day("2026-03-01"), budgetID: food.id ?? 0))
            _ = try old.addAccount(Account(name: "Checking", kind: .checking, opening: money("100")))
            _ = try old.addAccount(Account(name: "Visa", kind: .credit))
            _ = try old.addIncome(Income(name: "Salary", amount: money("10"), date: day("2026-03-02"), accountID: 0), toAccountNamed: "checking")
            _ = try old.addTransfer(Transfer(amount: money("4"), date: day("2026-03-03"), from: 0, to: 0), from: "checking", to: "visa")
            let book = try old.accountBook()
            return (
                food: food, statuses: try old.budgetStatuses(for: month("2026-03")),
                balances: try book.accounts.map { try book.balance(of: $0, through: day("2026-03-31")) })
        }
        let (food, statuses, balances) = old
        defer { try? store.close() }
        #expect(try PostgresTestServer.get().psql("SELECT count(*) FROM accountDay", database: database) == "3\n")
        #expect(try store.cacheMismatches() == [])
        #expect(try store.budgetStatuses(for: month("2026-03")) == statuses)
        let reopened = try store.accountBook()
        #expect(try reopened.accounts.map { try reopened.balance(of: $0, through: day("2026-03-31")) } == balances)
        _ = try store.addExpense(Expense(name: "Milk", amount: money("1.50"), date: day("2026-03-04"), budgetID: food.id ?? 0, accountID: 1))
        #expect(try store.accountBook().balance(of: try reopened.account(named: "checking"), through: day("2026-03-31")) == money("104.50"))
        #expect(try store.cacheMismatches() == [])
    }

    /// A new database (`prefix` names it) filled by `fill`, taken back by the SQL `downgrade` and
    /// opened again, which migrates it: the reopened store, what `fill` returned and the
    /// database's name.
    private func reopened<Filled>(
        _ prefix: String, after downgrade: String, _ fill: (PostgresStore) throws -> Filled
    ) throws -> (store: PostgresStore, filled: Filled, database: String) {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: prefix)
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        let filled = try fill(old)
        try old.close()
        _ = try server.psql(downgrade, database: database.name)
        return (try PostgresStore(location: location), filled, database.name)
    }

    /// Takes `old`'s database back to before `migration`, which added the cache `table`, and opens
    /// it again: the migration fills the cache from the rows, and every figure is as it was and
    /// as `memory` computes it.
    private func reopenBefore<Figures: Equatable>(
        _ migration: String, dropping table: String, _ old: PostgresStore, database: String, clock: TestClock, memory: InMemoryStore,
        figures: (any DataAccess) throws -> Figures, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> PostgresStore {
        let server = try PostgresTestServer.get()
        let before = try figures(old)
        let location = old.location
        try old.close()
        _ = try server.psql("DROP TABLE \(table); DELETE FROM tally_migration WHERE name = '\(migration)';", database: database)
        let store = try PostgresStore(location: location, clock: { clock() })
        #expect(try server.psql("SELECT count(*) > 0 FROM \(table)", database: database) == "t\n", sourceLocation: sourceLocation)
        #expect(try store.cacheMismatches() == [], sourceLocation: sourceLocation)
        #expect(try figures(store) == before, sourceLocation: sourceLocation)
        #expect(try figures(store) == figures(memory), sourceLocation: sourceLocation)
        return store
    }
}
