import Foundation
import TallyCore
import TallyStoreContract
import TallyTestSupport
import Testing

@testable import TallyPostgres

/// `v15-budget-currency`, `v16-serve-tokens`, `v17-rule-detail`, `v18-report-bounds` and
/// `v19-foreign-incomes` on a ledger made here at the schema before each, as the SQLite fixtures
/// `schema-v21.sqlite` to `schema-v25.sqlite` are.
@Suite(.ownThreads) struct PostgresLaterMigrationTests {
    /// What takes a database back to before `v19-foreign-incomes`.
    static let beforeV19 = """
        ALTER TABLE income DROP COLUMN originalMinor;
        ALTER TABLE income DROP COLUMN originalCurrency;
        ALTER TABLE income DROP COLUMN rate;
        ALTER TABLE income DROP COLUMN rateSource;
        DELETE FROM tally_migration WHERE name = 'v19-foreign-incomes';

        """

    /// What takes a database back to before `v18-report-bounds`: each day group's largest as the
    /// writers before it kept it, the largest portion (a split's line, a refund below zero).
    static let beforeV18 = """
        UPDATE expenseDay AS d SET largestCents = p.largest
        FROM (SELECT date, budgetId, tags, spentBy, MAX(amountCents::numeric * quantity) AS largest
            FROM \(PostgresCaches.portions(of: "expense")) GROUP BY date, budgetId, tags, spentBy) AS p
        WHERE d.date = p.date AND d.budgetId = p.budgetId AND d.tags = p.tags AND d.spentBy = p.spentBy;
        DELETE FROM tally_migration WHERE name = 'v18-report-bounds';

        """

    /// What takes a database back to before `v17-rule-detail`.
    static let beforeV17 = """
        ALTER TABLE importRule DROP COLUMN detail;
        DELETE FROM tally_migration WHERE name = 'v17-rule-detail';

        """

    /// What takes a database back to before `v16-serve-tokens`.
    static let beforeV16 = """
        DROP TABLE serveToken;
        DELETE FROM tally_migration WHERE name = 'v16-serve-tokens';

        """

    /// What takes a database back to before `v15-budget-currency`.
    static let beforeV15 = """
        ALTER TABLE budget DROP COLUMN currency;
        DELETE FROM tally_migration WHERE name = 'v15-budget-currency';

        """

    /// A ledger with a yen expense, taken back to `downgrade`; reopened, every budget, expense
    /// and figure is as it was.
    private func reopened(after downgrade: String) throws -> PostgresStore {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "later")
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        _ = try old.updateSettings(LedgerSettings(currency: try Currency(code: "EUR")))
        let jpy = try Currency(code: "JPY")
        try old.saveRates([DayRate(day: try day("2026-03-06"), from: try Currency(code: "EUR"), to: jpy, rate: try ExchangeRate(parsing: "161.54"))])
        _ = try old.addBudget(Budget(name: "Food", limit: money("300")))
        let dinner = try old.converting(
            Expense(name: "Dinner", amount: Money(cents: 1), date: try day("2026-03-08"), budgetID: 0),
            from: CurrencyAmount(minorUnits: 4500, currency: jpy), given: nil)
        _ = try old.addExpense(dinner, toBudgetNamed: "Food")
        _ = try old.addExpense(Expense(name: "Bread", amount: money("2.50"), date: day("2026-03-09"), budgetID: 0), toBudgetNamed: "Food")
        _ = try old.addRule(ImportRule(pattern: "bakery", budget: "Food", tags: ["daily"]))
        let rules = try old.rules()
        let expenses = try old.expenses(ExpenseQuery())
        let budgets = try old.budgets()
        let statuses = try old.budgetStatuses(for: month("2026-03"))
        try old.close()
        _ = try server.psql(downgrade, database: database.name)

        let store = try PostgresStore(location: location)
        #expect(try store.expenses(ExpenseQuery()) == expenses)
        #expect(try store.budgets() == budgets)
        #expect(try store.budgetStatuses(for: month("2026-03")) == statuses)
        #expect(try store.cacheMismatches() == [])
        #expect(try store.rules() == rules)
        return store
    }

    /// A budget of a v14 ledger is in the ledger's currency; it then takes its own.
    @Test func aLedgerFromBeforeV15OpensAndTakesABudgetCurrency() throws {
        let store = try reopened(after: Self.beforeV19 + Self.beforeV18 + Self.beforeV17 + Self.beforeV16 + Self.beforeV15)
        defer { try? store.close() }
        var food = try store.budget(named: "Food")
        #expect(food.currency == nil)
        food.currency = try Currency(code: "JPY")
        food.limit = try money("50000")
        _ = try store.updateBudget(food)
        let march = try store.status(of: try store.budget(named: "Food"), in: month("2026-03"))
        #expect(try march.budget.currency == food.currency && march.ledgerSpent == money("30.36"))
    }

    /// A v15 ledger has no token table; after the migration it keeps tokens.
    @Test func aLedgerFromBeforeV16OpensAndKeepsTokens() throws {
        let store = try reopened(after: Self.beforeV19 + Self.beforeV18 + Self.beforeV17 + Self.beforeV16)
        defer { try? store.close() }
        #expect(try store.serveTokens().isEmpty)
        try store.addServeToken(ServeToken(name: "phone", permission: .add, hash: String(repeating: "a", count: 64), createdAt: 0))
        #expect(try store.serveTokens().map(\.name) == ["phone"])
    }

    /// A v16 ledger's rules have one budget; after the migration a rule splits or refunds.
    @Test func aLedgerFromBeforeV18OpensAndTakesSplitAndRefundRules() throws {
        let store = try reopened(after: Self.beforeV19 + Self.beforeV18 + Self.beforeV17)
        defer { try? store.close() }
        #expect(try store.rules().allSatisfy { $0.split.isEmpty && !$0.refund })
        _ = try store.addBudget(Budget(name: "Home", limit: money("100")))
        var split = ImportRule(pattern: "costco", budget: "")
        split.split = [NamedLine(budget: "Food", share: .percent(7_000)), NamedLine(budget: "Home", share: .rest)]
        var refund = ImportRule(pattern: "refund", budget: "Home")
        refund.refund = true
        _ = try store.addRule(split)
        _ = try store.addRule(refund)
        let rules = try store.rules()
        #expect(rules.map(\.split.count) == [0, 2, 0] && rules.map(\.refund) == [false, false, true])
        #expect(rules[1].split.map(\.budget) == ["Food", "Home"])
    }

    /// A v17 ledger's day groups bound a split's lines and a refund below zero; after the
    /// migration each holds the whole totals, and the largest expenses are the plain sort's.
    @Test func aLedgerFromBeforeV18OpensWithEachGroupsLargestWholeTotal() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "bounds")
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        for name in ["Food", "Home"] { _ = try old.addBudget(Budget(name: name, limit: money("300"))) }
        _ = try old.addExpense(Expense(name: "Bread", amount: money("2.50"), date: day("2026-03-09"), budgetID: 0), toBudgetNamed: "Food")
        _ = try old.addSplitExpense(
            Expense(name: "Costco", amount: money("90"), date: day("2026-03-10"), budgetID: 0, tags: ["bulk"]),
            lines: [NamedLine(budget: "Food", share: .percent(6_000), name: "Fruit", tags: ["fresh"]), NamedLine(budget: "Home", share: .rest)])
        _ = try old.addRefund(Expense(name: "Returned lamp", amount: money("40"), date: day("2026-03-12"), budgetID: 0), toBudgetNamed: "Home")
        let expenses = try old.expenses(ExpenseQuery())
        try old.close()
        _ = try server.psql(Self.beforeV19 + Self.beforeV18, database: database.name)

        let store = try PostgresStore(location: location)
        defer { try? store.close() }
        #expect(try store.expenses(ExpenseQuery()) == expenses)
        #expect(try store.cacheMismatches() == [])
        let interval = DayInterval(first: try day("2026-03-01"), last: try day("2026-03-31"))
        try StoreContract.expectLargestFollowTheRule(
            store, expenses: expenses, budgetIDs: [nil] + (try store.budgets().map(\.id)), days: interval, "after v18", limits: [1, 2, 3])
    }

    /// A v18 ledger's incomes are in the ledger's currency; after the migration each is as it
    /// was, every balance stays, and an income keeps an amount in another currency.
    @Test func aLedgerFromBeforeV19OpensAndTakesForeignIncomes() throws {
        let server = try PostgresTestServer.get()
        let database = try server.makeDatabase(prefix: "incomes")
        let location = try ServerLocation(url: database.url)
        let old = try PostgresStore(location: location)
        _ = try old.updateSettings(LedgerSettings(currency: try Currency(code: "EUR")))
        _ = try old.addAccount(Account(name: "Checking", kind: .checking, opening: money("100")))
        _ = try old.addIncome(Income(name: "Salary", amount: money("3200"), date: day("2026-03-01"), accountID: 0), toAccountNamed: "Checking")
        let book = try old.accountBook()
        try old.close()
        _ = try server.psql(Self.beforeV19, database: database.name)

        let store = try PostgresStore(location: location)
        defer { try? store.close() }
        #expect(try store.accountBook().incomes == book.incomes)
        #expect(try store.cacheMismatches() == [])
        let usd = try Currency(code: "USD")
        let fee = try store.converting(
            Income(name: "Fee", amount: Money(cents: 1), date: try day("2026-03-08"), accountID: 0),
            from: CurrencyAmount(minorUnits: 120_000, currency: usd), given: try ExchangeRate(parsing: "0.9"))
        let (saved, _) = try store.addIncome(fee, toAccountNamed: "Checking")
        #expect(try saved.amount == money("1080") && saved.foreign?.original == CurrencyAmount(minorUnits: 120_000, currency: usd))
        #expect(try store.accountBook().incomes.last == saved)
        #expect(try store.cacheMismatches() == [])
    }
}
