import Foundation
import TallyStoreContract
import TallyTestSupport
import Testing
import TallyCore
import TallyInMemory
@testable import TallySQLite

/// One small database per released schema version, committed under `Fixtures/`; each must still
/// open with every row and figure intact.
///
/// To make the fixture of a new schema version (never to remake a released one), add its fill
/// function and run `TALLY_MAKE_FIXTURES=1 swift test --filter makeFixtures`.
enum SchemaFixtures {
    /// The contents of `schema-v1.sqlite`: budgets, expenses with shared tags, an update and
    /// a removal, so ids and timestamps have gaps and differences worth checking, then an import
    /// remembered by its fingerprint, with one expense in March so January and February keep
    /// their figures.
    static func fillV1(_ store: any DataAccess, clock: TestClock) throws {
        let food = try store.addBudget(Budget(name: "Food", limit: Money(cents: 30_000)))
        clock.advance(by: 1.25)
        let cafe = try store.addBudget(Budget(name: "Café", limit: Money(cents: 4_000)))
        clock.advance(by: 1.25)
        var rent = try store.addBudget(Budget(name: "Rent", limit: Money(cents: 120_050)))
        clock.advance(by: 1.25)
        let rows: [(String, Int64, Int64, String, Int64, [String])] = [
            ("Groceries", 4_599, 1, "2026-01-03", food.id ?? 0, ["weekly", "market"]),
            ("Bread", 250, 3, "2026-01-31", food.id ?? 0, ["daily"]),
            ("Crème brûlée", 700, 2, "2026-02-01", cafe.id ?? 0, ["dessert", "daily"]),
            ("Espresso", 180, 10, "2026-02-14", cafe.id ?? 0, ["daily"]),
            ("January rent", 120_050, 1, "2026-01-01", rent.id ?? 0, []),
            ("February rent", 120_050, 1, "2026-02-01", rent.id ?? 0, ["home"]),
            ("Mistake", 99, 1, "2026-02-02", food.id ?? 0, ["oops"]),
        ]
        var added: [Expense] = []
        for (name, cents, quantity, date, budgetID, tags) in rows {
            added.append(try store.addExpense(
                Expense(name: name, amount: Money(cents: cents), quantity: quantity, date: Day(parsing: date), budgetID: budgetID, tags: tags)))
            clock.advance(by: 0.5)
        }
        try store.removeExpense(id: added[6].id ?? 0)
        var espresso = added[3]
        espresso.quantity = 12
        espresso.tags = ["daily", "coffee"]
        _ = try store.updateExpense(espresso)
        clock.advance(by: 60)
        rent.limit = Money(cents: 125_000)
        _ = try store.updateBudget(rent)
        clock.advance(by: 30)
        let expense = Expense(name: "Imported", amount: Money(cents: 1_234), date: try Day(parsing: "2026-03-02"), budgetID: 0, tags: ["daily"])
        _ = try store.importExpenses(ImportRequest(source: "fixture.csv")) { (insert: ImportInsert) throws(TallyError) -> String? in
            try insert(expense, "food")
            return "fixture-fingerprint"
        }
    }

    /// `schema-v5.sqlite`: `fillV1`'s contents in a ledger whose currency is EUR, the setting `v5` added.
    static func fillV5(_ store: any DataAccess, clock: TestClock) throws {
        try fillV1(store, clock: clock)
        var settings = try store.settings()
        settings.currency = try Currency(code: "EUR")
        _ = try store.updateSettings(settings)
    }

    /// `schema-v7.sqlite`: `fillV5`'s contents with an import rule and a profile, the tables `v7`
    /// added (and the recurring tables of `v6`, empty). Its expenses predate `by`.
    static func fillV7(_ store: any DataAccess, clock: TestClock) throws {
        try fillV5(store, clock: clock)
        _ = try store.addRule(ImportRule(pattern: "bakery", budget: "Food", tags: ["daily"]))
        _ = try store.saveProfile(ImportProfile(name: "Bank", dateFormat: "dd.MM.yyyy", expenseSign: "negative"))
    }

    /// `schema-v14.sqlite`: `fillV7`'s contents with accounts, an income, a transfer to a card and
    /// an assertion that holds: `v15` fills `accountDay` from them, and every balance stays.
    static func fillV14(_ store: any DataAccess, clock: TestClock) throws {
        try fillV7(store, clock: clock)
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: Money(cents: 10_000), openingDate: Day(parsing: "2026-01-01")))
        _ = try store.addAccount(Account(name: "Visa", kind: .credit, opening: Money(cents: 2_500)))
        _ = try store.addIncome(Income(name: "Salary", amount: Money(cents: 5_000), date: Day(parsing: "2026-01-10"), accountID: 0), toAccountNamed: "Checking")
        _ = try store.addTransfer(Transfer(amount: Money(cents: 3_000), date: Day(parsing: "2026-01-20"), from: 0, to: 0), from: "Checking", to: "Visa")
        _ = try store.reconcile(accountNamed: "Checking", balance: Money(cents: 12_000), on: Day(parsing: "2026-01-31"))
    }

    /// How a fixture made by this build is taken back to the schema it stands for, when later
    /// migrations exist: the inverse of each later migration's statements, so the file is what
    /// that version's Tally wrote (`makeFixtures` runs them before its VACUUM).
    static let downgrades: [String: String] = [
        "schema-v7.sqlite": """
            DROP TABLE changeSet;
            ALTER TABLE importedRow DROP COLUMN batch;
            ALTER TABLE setting DROP COLUMN historyDays;
            DELETE FROM grdb_migrations WHERE identifier = 'v10-history';
            ALTER TABLE setting DROP COLUMN snapshotLimit;
            DELETE FROM grdb_migrations WHERE identifier = 'v9-snapshots';
            DROP INDEX expense_date_budgetId;
            ALTER TABLE expense DROP COLUMN spentBy;
            CREATE INDEX expense_date_budgetId ON expense(date, budgetId, tagSetId, amountCents, quantity);
            DELETE FROM grdb_migrations WHERE identifier = 'v8-expense-by';
            PRAGMA user_version = 7;
            """,
        "schema-v10.sqlite": """
            DROP TABLE removedExpense;
            DROP TABLE removedImportedRow;
            DELETE FROM grdb_migrations WHERE identifier = 'v11-removed-rows';
            PRAGMA user_version = 10;
            """,
        "schema-v11.sqlite": """
            DROP TRIGGER expense_insert_expenseDay;
            DROP TRIGGER expense_delete_expenseDay;
            DROP TRIGGER expense_update_expenseDay;
            DROP TABLE expenseDay;
            DELETE FROM grdb_migrations WHERE identifier = 'v12-expense-days';
            PRAGMA user_version = 11;
            """,
        // The triggers `v13-cache-writer` dropped, as `sqlite_master` of a file of v12 holds them.
        "schema-v12.sqlite": """
            CREATE TRIGGER expense_insert_budgetMonth AFTER INSERT ON expense BEGIN
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, CASE WHEN NEW.date % 100 >= (SELECT monthStart FROM setting WHERE id = 1) THEN NEW.date / 100 WHEN NEW.date / 100 % 100 = 1 THEN (NEW.date / 10000 - 1) * 100 + 12 ELSE NEW.date / 100 - 1 END, NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            CREATE TRIGGER expense_delete_budgetMonth AFTER DELETE ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = CASE WHEN OLD.date % 100 >= (SELECT monthStart FROM setting WHERE id = 1) THEN OLD.date / 100 WHEN OLD.date / 100 % 100 = 1 THEN (OLD.date / 10000 - 1) * 100 + 12 ELSE OLD.date / 100 - 1 END;
            END;
            CREATE TRIGGER expense_update_budgetMonth AFTER UPDATE OF budgetId, amountCents, quantity, date ON expense BEGIN
                UPDATE budgetMonth
                    SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                    WHERE budgetId = OLD.budgetId AND month = CASE WHEN OLD.date % 100 >= (SELECT monthStart FROM setting WHERE id = 1) THEN OLD.date / 100 WHEN OLD.date / 100 % 100 = 1 THEN (OLD.date / 10000 - 1) * 100 + 12 ELSE OLD.date / 100 - 1 END;
                INSERT INTO budgetMonth (budgetId, month, spentCents, expenseCount)
                    VALUES (NEW.budgetId, CASE WHEN NEW.date % 100 >= (SELECT monthStart FROM setting WHERE id = 1) THEN NEW.date / 100 WHEN NEW.date / 100 % 100 = 1 THEN (NEW.date / 10000 - 1) * 100 + 12 ELSE NEW.date / 100 - 1 END, NEW.amountCents * NEW.quantity, 1)
                    ON CONFLICT (budgetId, month) DO UPDATE
                    SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1;
            END;
            CREATE TRIGGER expense_insert_expenseDay AFTER INSERT ON expense BEGIN
                INSERT INTO expenseDay VALUES (NEW.date, NEW.budgetId, ifnull(NEW.tagSetId, 0), NEW.spentBy,
                NEW.amountCents * NEW.quantity, 1, NEW.amountCents * NEW.quantity)
                ON CONFLICT DO UPDATE SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1,
                largestCents = max(largestCents, excluded.largestCents);
            END;
            CREATE TRIGGER expense_delete_expenseDay AFTER DELETE ON expense BEGIN
                UPDATE expenseDay SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                WHERE date = OLD.date AND budgetId = OLD.budgetId AND tagSetId = ifnull(OLD.tagSetId, 0) AND spentBy = OLD.spentBy;
            DELETE FROM expenseDay WHERE date = OLD.date AND budgetId = OLD.budgetId AND expenseCount = 0;
            END;
            CREATE TRIGGER expense_update_expenseDay
            AFTER UPDATE OF budgetId, amountCents, quantity, date, tagSetId, spentBy ON expense BEGIN
                UPDATE expenseDay SET spentCents = spentCents - OLD.amountCents * OLD.quantity, expenseCount = expenseCount - 1
                WHERE date = OLD.date AND budgetId = OLD.budgetId AND tagSetId = ifnull(OLD.tagSetId, 0) AND spentBy = OLD.spentBy;
            DELETE FROM expenseDay WHERE date = OLD.date AND budgetId = OLD.budgetId AND expenseCount = 0;
                INSERT INTO expenseDay VALUES (NEW.date, NEW.budgetId, ifnull(NEW.tagSetId, 0), NEW.spentBy,
                NEW.amountCents * NEW.quantity, 1, NEW.amountCents * NEW.quantity)
                ON CONFLICT DO UPDATE SET spentCents = spentCents + excluded.spentCents, expenseCount = expenseCount + 1,
                largestCents = max(largestCents, excluded.largestCents);
            END;
            DELETE FROM grdb_migrations WHERE identifier = 'v13-cache-writer';
            PRAGMA user_version = 12;
            """,
        "schema-v26.sqlite": LinkMigrationTests.beforeV27,
        "schema-v25.sqlite": LinkMigrationTests.beforeV27 + beforeV26,
        "schema-v24.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25,
        "schema-v23.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24,
        "schema-v22.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24 + beforeV23,
        "schema-v21.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22,
        "schema-v20.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21,
        "schema-v19.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21 + ForeignAmountMigrationTests.beforeV20,
        "schema-v18.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21 + ForeignAmountMigrationTests.beforeV20 + beforeV19,
        "schema-v17.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21 + ForeignAmountMigrationTests.beforeV20 + beforeV19 + beforeV18,
        "schema-v16.sqlite": LinkMigrationTests.beforeV27 + beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21 + ForeignAmountMigrationTests.beforeV20 + beforeV19 + beforeV18 + beforeV17,
        "schema-v15.sqlite": beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21 + ForeignAmountMigrationTests.beforeV20 + beforeV19 + beforeV18 + beforeV17 + beforeV16,
        "schema-v14.sqlite": beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21 + ForeignAmountMigrationTests.beforeV20 + beforeV19 + beforeV18 + beforeV17 + beforeV16 + beforeV15,
        "schema-v13.sqlite": beforeV26 + beforeV25 + beforeV24 + beforeV23 + BudgetCurrencyMigrationTests.beforeV22 + beforeV21 + ForeignAmountMigrationTests.beforeV20 + beforeV19 + beforeV18 + beforeV17 + beforeV16 + beforeV15 + """
            DROP TABLE balanceAssertion;
            DROP TABLE transfer;
            DROP TABLE income;
            DROP TABLE account;
            DELETE FROM sqlite_sequence WHERE name IN ('account', 'income', 'transfer');
            DELETE FROM grdb_migrations WHERE identifier = 'v14-accounts';
            PRAGMA user_version = 13;
            """,
        "schema-v9.sqlite": """
            DROP TABLE changeSet;
            ALTER TABLE importedRow DROP COLUMN batch;
            ALTER TABLE setting DROP COLUMN historyDays;
            DELETE FROM grdb_migrations WHERE identifier = 'v10-history';
            PRAGMA user_version = 9;
            """,
    ]

    /// The inverse of `v26-foreign-incomes`: the fixtures' incomes are in the ledger's currency.
    static let beforeV26 = """
        ALTER TABLE income DROP COLUMN originalMinor;
        ALTER TABLE income DROP COLUMN originalCurrency;
        ALTER TABLE income DROP COLUMN rate;
        ALTER TABLE income DROP COLUMN rateSource;
        DELETE FROM grdb_migrations WHERE identifier = 'v26-foreign-incomes';
        PRAGMA user_version = 25;

        """

    /// The inverse of `v25-report-bounds`: the indexes as `v20` and `v21` made them, and each day
    /// group's largest as the writers before it kept it, the largest portion: a plain row's total,
    /// else (`fillV24`'s groups each hold one line or refund alone) the group's sum.
    static let beforeV25 = """
        DROP INDEX expense_detail;
        CREATE INDEX expense_detail ON expense(date) WHERE detail <> '';
        DROP INDEX expenseDay_budget;
        DROP INDEX expense_foreign;
        CREATE INDEX expense_foreign ON expense(date) WHERE originalCurrency IS NOT NULL;
        UPDATE expenseDay AS g SET largestCents = ifnull((
            SELECT max(e.amountCents * e.quantity) FROM expense e WHERE e.detail = '' AND e.date = g.date AND e.budgetId = g.budgetId
                AND e.tagSetId IS nullif(g.tagSetId, 0) AND e.spentBy = g.spentBy), g.spentCents);
        DELETE FROM grdb_migrations WHERE identifier = 'v25-report-bounds';
        PRAGMA user_version = 24;

        """

    /// `schema-v24.sqlite`: `fillV21`'s contents with a split receipt whose lines lie in two
    /// budgets under their own tags, and a refund, each alone in its day group.
    static func fillV24(_ store: any DataAccess, clock: TestClock) throws {
        try fillV21(store, clock: clock)
        let costco = Expense(name: "Costco", amount: Money(cents: 9_000), date: try Day(parsing: "2026-03-10"), budgetID: 0, tags: ["bulk"])
        _ = try store.addSplitExpense(
            costco, lines: [NamedLine(budget: "Food", share: .percent(6_000), name: "Fruit", tags: ["fresh"]), NamedLine(budget: "Café", share: .rest)])
        clock.advance(by: 0.5)
        let refund = Expense(name: "Returned bread", amount: Money(cents: 500), date: try Day(parsing: "2026-03-12"), budgetID: 0)
        _ = try store.addRefund(refund, toBudgetNamed: "Food", of: nil)
    }

    /// The inverse of `v24-rule-detail`: the fixtures' rules have one budget each.
    static let beforeV24 = """
        ALTER TABLE importRule DROP COLUMN detail;
        DELETE FROM grdb_migrations WHERE identifier = 'v24-rule-detail';
        PRAGMA user_version = 23;

        """

    /// The inverse of `v23-serve-tokens`: the fixtures have no token.
    static let beforeV23 = """
        DROP TABLE serveToken;
        DELETE FROM grdb_migrations WHERE identifier = 'v23-serve-tokens';
        PRAGMA user_version = 22;

        """

    /// The inverse of `v21-expense-lines`: every expense of the fixtures is plain.
    static let beforeV21 = """
        DROP INDEX expense_detail;
        ALTER TABLE expense DROP COLUMN detail;
        ALTER TABLE removedExpense DROP COLUMN detail;
        DELETE FROM grdb_migrations WHERE identifier = 'v21-expense-lines';
        PRAGMA user_version = 20;

        """

    /// `schema-v20.sqlite`: `fillV18`'s contents with the groceries paid in yen at a given rate,
    /// the amount in the ledger's currency unchanged (so every figure stays), as `v20` allows.
    static func fillV20(_ store: any DataAccess, clock: TestClock) throws {
        try fillV18(store, clock: clock)
        var groceries = try store.expense(id: 1)
        groceries.foreign = ForeignCharge(
            original: CurrencyAmount(minorUnits: 7_400, currency: try Currency(code: "JPY")), rate: try ExchangeRate(parsing: "0.6215"), source: .given)
        _ = try store.updateExpense(groceries)
    }

    /// The inverse of `v19-why-over-groups`: a cache, filled again on migration.
    static let beforeV19 = """
        DROP TABLE expenseGroup;
        DELETE FROM grdb_migrations WHERE identifier = 'v19-why-over-groups';
        PRAGMA user_version = 18;

        """

    /// `schema-v21.sqlite` and `schema-v22.sqlite`: `fillV18`'s contents with a rate and a dinner
    /// paid in yen in March.
    static func fillV21(_ store: any DataAccess, clock: TestClock) throws {
        try fillV18(store, clock: clock)
        let jpy = try Currency(code: "JPY")
        try store.saveRates([DayRate(day: try Day(parsing: "2026-03-06"), from: try Currency(code: "EUR"), to: jpy, rate: try ExchangeRate(parsing: "161.54"))])
        let dinner = try store.converting(
            Expense(name: "Dinner", amount: Money(cents: 1), date: try Day(parsing: "2026-03-08"), budgetID: 0),
            from: CurrencyAmount(minorUnits: 4500, currency: jpy), given: nil)
        _ = try store.addExpense(dinner, toBudgetNamed: "Food")
    }

    /// `schema-v18.sqlite`: `fillV14`'s contents with a sinking fund on Food, the target `v18` added.
    static func fillV18(_ store: any DataAccess, clock: TestClock) throws {
        try fillV14(store, clock: clock)
        var food = try store.budget(named: "Food")
        food.target = BudgetTarget(amount: Money(cents: 50_000), by: try Month(parsing: "2026-06"))
        _ = try store.updateBudget(food)
    }

    /// The inverse of `v18-budget-goals`: no budget of the fills before `fillV18` has a target.
    static let beforeV18 = """
        ALTER TABLE budget DROP COLUMN targetAccountId;
        ALTER TABLE budget DROP COLUMN targetBy;
        ALTER TABLE budget DROP COLUMN targetCents;
        DELETE FROM grdb_migrations WHERE identifier = 'v18-budget-goals';
        PRAGMA user_version = 17;

        """

    /// The inverse of `v17-statement-accounts`; the rules keep their ids.
    static let beforeV17 = """
        ALTER TABLE account DROP COLUMN number;
        CREATE TABLE importRuleOld (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            pattern TEXT NOT NULL CHECK (pattern <> '' AND length(pattern) <= 2000),
            budgetId INTEGER NOT NULL REFERENCES budget(id) ON DELETE CASCADE,
            tags TEXT NOT NULL DEFAULT '' CHECK (instr(tags, ';;') = 0),
            rename TEXT CHECK (rename IS NULL OR (rename <> '' AND length(rename) <= 2000)),
            priority INTEGER NOT NULL DEFAULT 100 CHECK (priority BETWEEN 0 AND 1000000)
        ) STRICT;
        INSERT INTO importRuleOld SELECT id, pattern, budgetId, tags, rename, priority FROM importRule;
        DROP TABLE importRule;
        ALTER TABLE importRuleOld RENAME TO importRule;
        CREATE INDEX importRule_budgetId ON importRule(budgetId);
        DELETE FROM grdb_migrations WHERE identifier = 'v17-statement-accounts';
        PRAGMA user_version = 16;

        """

    static let beforeV16 = """
        ALTER TABLE importProfile DROP COLUMN skip;
        DELETE FROM grdb_migrations WHERE identifier = 'v16-profile-skip';
        PRAGMA user_version = 15;

        """

    /// The inverse of `v15-expense-accounts`.
    static let beforeV15 = """
        DROP TABLE accountDay;
        ALTER TABLE expense DROP COLUMN accountId;
        ALTER TABLE removedExpense DROP COLUMN accountId;
        ALTER TABLE setting DROP COLUMN defaultAccountId;
        DELETE FROM grdb_migrations WHERE identifier = 'v15-expense-accounts';
        PRAGMA user_version = 14;

        """

    static let fills: [String: @Sendable (any DataAccess, TestClock) throws -> Void] = [
        "schema-v1.sqlite": fillV1,
        // v2 changed how the same rows are stored, so its fixture holds the same contents.
        "schema-v2.sqlite": fillV1,
        // v3 added each budget's monthly totals, filled from the expenses on migration.
        "schema-v3.sqlite": fillV1,
        // v4 added periods, rollover, limit history and the month-start setting; old budgets
        // became monthly without rollover, so the same contents keep every figure.
        "schema-v4.sqlite": fillV1,
        // v5 added the ledger's currency; this file was made from schema-v4.sqlite by v5's own
        // statements (`sqlite3`, then VACUUM) and given EUR, which later migrations must keep.
        "schema-v5.sqlite": fillV5,
        // v6 added recurring bills and alerts, v7 import rules, row keys and profiles; v8 who spent
        // each expense. This file was made by `makeFixtures` and taken back to v7 (`downgrades`).
        "schema-v7.sqlite": fillV7,
        // v9 added how many snapshots are kept; v10 the change history. This file was made by
        // `makeFixtures` and taken back to v9 (`downgrades`): the file `v10-history` migrates from.
        "schema-v9.sqlite": fillV7,
        // v11 keeps what a change set removes in bulk beside it. This file was made by
        // `makeFixtures` and taken back to v10: its history (each change of `fillV7`, the import
        // among them) is what v10 recorded, since nothing in it was undone.
        "schema-v10.sqlite": fillV7,
        // v12 adds the month report's cache of each day's spending, filled on migration. This
        // file was made by `makeFixtures` and taken back to v11.
        "schema-v11.sqlite": fillV7,
        // v13 drops the caches' triggers (`ExpenseCaches` writes both); this file was made by
        // `makeFixtures` and taken back to v12, triggers and all.
        "schema-v12.sqlite": fillV7,
        // v14 adds accounts, incomes, transfers and balance assertions, empty in an older file.
        // This file was made by `makeFixtures` and taken back to v13.
        "schema-v13.sqlite": fillV7,
        // v15 lets an expense name its account and keeps each account's days for balances. This
        // file was made by `makeFixtures` and taken back to v14, with accounts and their entries.
        "schema-v14.sqlite": fillV14,
        // v16 lets a profile keep the lines to skip above a bank export's header. This file was
        // made by `makeFixtures` and taken back to v15: its profile has no such column.
        "schema-v15.sqlite": fillV14,
        // v17 lets an account keep its IBAN or number, and a rule send entries to an account. This
        // file was made by `makeFixtures` and taken back to v16: its accounts have no number and
        // its rules a budget each.
        "schema-v16.sqlite": fillV14,
        // v18 lets a budget have a target (a goal). This file was made by `makeFixtures` and
        // taken back to v17: its budgets have no target columns.
        "schema-v17.sqlite": fillV14,
        // v19 keeps why over's sums per period, budget, name and tag set, filled on migration.
        // This file was made by `makeFixtures` and taken back to v18, with a goal.
        "schema-v18.sqlite": fillV18,
        // v20 lets an expense keep an amount in another currency and the ledger a table of
        // rates. This file was made by `makeFixtures` and taken back to v19: its expenses are
        // all in the ledger's currency, and it has no rate table.
        "schema-v19.sqlite": fillV18,
        // v21 lets an expense be split into lines and records refunds. This file was made by
        // `makeFixtures` and taken back to v20: its expenses are plain, one in another currency.
        "schema-v20.sqlite": fillV20,
        // v22 lets a budget have its own currency. This file was made by `makeFixtures` and taken
        // back to v21, with a rate and an expense in yen (`BudgetCurrencyMigrationTests`).
        "schema-v21.sqlite": fillV21,
        // v23 keeps `tally serve`'s tokens. This file was made by `makeFixtures` and taken back
        // to v22: it has no token table.
        "schema-v22.sqlite": fillV21,
        // v24 lets an import rule split or refund. This file was made by `makeFixtures` and taken
        // back to v23: its one rule (`fillV7`'s) has one budget (`RuleDetailMigrationTests`).
        "schema-v23.sqlite": fillV21,
        // v25 makes each day group's largest the largest total of the expenses with a portion in
        // it, and covers the report's reads of splits and foreign expenses by their indexes. This
        // file was made by `makeFixtures` and taken back to v24, with a split and a refund whose
        // groups keep the largest portion (`ReportBoundsMigrationTests`).
        "schema-v24.sqlite": fillV24,
        // v26 lets an income keep an amount in another currency. This file was made by
        // `makeFixtures` and taken back to v25: its incomes are in the ledger's currency
        // (`ForeignIncomeMigrationTests`).
        "schema-v25.sqlite": fillV24,
        // v27 leaves the links of recurring payments and of set-aside rows to their one writer.
        // This file was made by `makeFixtures` at v26, with linked and unlinked payments and an
        // undone import (`LinkMigrationTests`).
        "schema-v26.sqlite": LinkMigrationTests.fillV26,
    ]
}
