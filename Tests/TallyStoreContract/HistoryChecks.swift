import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - History and undo

extension StoreContract {
    /// Everything undo must put back, derived figures included: the stored rows, the import
    /// memory, and each budget's figures over the months the checks use (SQLite answers those
    /// from its `budgetMonth` cache).
    struct LedgerState: Equatable {
        var settings: LedgerSettings
        var budgets: [Budget]
        var expenses: [Expense]
        var recurringRules: [RecurringRule]
        var payments: [RecurringPayment]
        var rules: [ImportRule]
        var profiles: [ImportProfile]
        var rowKeys: Set<Int64>
        var imports: [ImportRecord?]
        var statuses: [[BudgetStatus]]
        var spent: [Month: [Int64: Money]]
        var available: [Month: [Int64: Money]]
        var people: [PersonSpending]
        var accounts: [Account]
        var incomes: [Income]
        var transfers: [Transfer]
        var assertions: [BalanceAssertion]
        var rates: [DayRate]

        init(_ store: any DataAccess) throws {
            rates = try store.rates(RateQuery())
            let book = try store.accountBook()
            accounts = book.accounts
            assertions = book.assertions
            incomes = try store.incomes()
            transfers = try store.transfers()
            settings = try store.settings()
            budgets = try store.budgets()
            expenses = try store.expenses(ExpenseQuery(sort: .date))
            recurringRules = try store.recurringRules()
            payments = try store.recurringPayments()
            rules = try store.rules()
            profiles = try store.profiles()
            rowKeys = try store.importedRowKeys()
            imports = try ["bank", "backup"].map { try store.importRecord(fingerprint: $0) }
            let months = try month("2026-01")...month("2026-04")
            statuses = try ["2026-01", "2026-02", "2026-03", "2026-04"].map { try store.budgetStatuses(for: month($0)) }
            spent = try store.spentByMonth(in: months)
            available = try store.availableByMonth(in: months)
            people = try store.spendingByPerson(in: DayInterval(first: day("2026-01-01"), last: day("2026-04-30")))
        }
    }

    /// Each kind of change, undone and redone: after the undo the ledger is as before the change,
    /// after the redo (undoing the undo) as after it, derived figures included.
    static func everyKindOfChangeIsUndoneAndRedone(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        let bread = Expense(name: "Bread", amount: try money("2.50"), date: try day("2026-02-01"), budgetID: 0, tags: ["daily"], by: "Anna")
        var foodID: Int64 = 0
        var expenseID: Int64 = 0
        var ruleID: Int64 = 0
        var recurringID: Int64 = 0
        let steps: [(String, () throws -> Void)] = [
            ("settings", { _ = try store.updateSettings(LedgerSettings(calendar: try PeriodCalendar(monthStart: 5), currency: try Currency(code: "EUR"), warn: 70)) }),
            ("add budget", { foodID = try store.addBudget(Budget(name: "Food", limit: money("300"))).id ?? 0 }),
            ("edit budget", {
                var food = try store.budget(named: "food")
                food.name = "Groceries"
                food.limitChanges = [LimitChange(from: try month("2026-03"), limit: try money("250"))]
                _ = try store.updateBudget(food)
            }),
            ("add expense", { expenseID = try store.addExpense(Expense(name: "Milk", amount: money("1.20"), date: day("2026-01-10"), budgetID: foodID, tags: ["Dairy"])).id ?? 0 }),
            ("add to budget named", { _ = try store.addExpense(bread, toBudgetNamed: "groceries") }),
            ("add many", { try store.addExpenses([bread, bread].map { var expense = $0; expense.budgetID = foodID; return expense }) }),
            ("edit expense", {
                var milk = try store.expense(id: expenseID)
                milk.amount = try money("1.50")
                milk.tags = ["dairy", "weekly"]
                milk.by = "Ben"
                _ = try store.updateExpense(milk)
            }),
            ("import", {
                let keys = ImportRowKeys()
                _ = try store.importExpenses(
                    ImportRequest(source: "bank.csv", missingBudgetLimit: try money("50"), rowKeys: keys)
                ) { (insert: ImportInsert) throws(TallyError) -> String? in
                    for key in Int64(1)...3 where keys.admit(key) { try insert(bread, key == 3 ? "Cafe" : "Groceries") }
                    return "bank"
                }
            }),
            ("add rule", { ruleID = try store.addRule(ImportRule(pattern: "rewe", budget: "groceries", tags: ["shop"])).id ?? 0 }),
            ("edit rule", { _ = try store.updateRule(ImportRule(id: ruleID, pattern: "lidl", budget: "cafe", priority: 5)) }),
            ("save profile", { _ = try store.saveProfile(ImportProfile(name: "Bank", columns: "date,name,amount")) }),
            ("replace profile", { _ = try store.saveProfile(ImportProfile(name: "bank", dateFormat: "%d.%m.%Y")) }),
            ("add recurring", {
                recurringID = try store.addRecurringRule(
                    RecurringRule(name: "Rent", budgetID: foodID, amount: money("100"), every: .month, day: 6, start: day("2026-01-06"))).id ?? 0
            }),
            ("edit recurring", {
                var rule = try store.recurringRule(id: recurringID)
                rule.skips = [try day("2026-02-06")]
                _ = try store.updateRecurringRule(rule)
            }),
            ("post recurring", { _ = try store.postRecurring(through: try day("2026-03-31"), dryRun: false) }),
            ("remove expense", { try store.removeExpense(id: expenseID) }),
            ("remove posted expense", { try store.removeExpense(id: try store.recurringPayments().compactMap(\.expenseID).first ?? 0) }),
            ("remove rule", { try store.removeRule(id: ruleID) }),
            ("remove profile", { try store.removeProfile(named: "BANK") }),
            ("remove recurring", { try store.removeRecurringRule(id: recurringID) }),
            ("remove budget", { try store.removeBudget(named: "groceries", includingExpenses: true) }),
            ("add account", { _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: money("100"), openingDate: day("2026-01-01"))) }),
            ("add card", { _ = try store.addAccount(Account(name: "Visa", kind: .credit)) }),
            ("edit account", {
                var account = try store.accountBook().account(named: "checking")
                account.archived = true
                _ = try store.updateAccount(account)
            }),
            ("add income", { _ = try store.addIncome(Income(name: "Salary", amount: money("3200"), date: day("2026-01-31"), accountID: 0, tags: ["pay"]), toAccountNamed: "Checking") }),
            ("edit income", { _ = try store.updateIncome(id: try store.incomes()[0].id ?? 0, force: false) { (income: inout Income, _: AccountBook) throws(TallyError) in income.amount = try money("3300") } }),
            ("add transfer", { _ = try store.addTransfer(Transfer(amount: money("50"), date: day("2026-02-01"), from: 0, to: 0, name: "Card"), from: "checking", to: "visa") }),
            ("reconcile", { _ = try store.reconcile(accountNamed: "Checking", balance: money("3350"), on: day("2026-02-01")) }),
            ("remove transfer", { _ = try store.removeTransfer(id: try store.transfers()[0].id ?? 0, force: true) }),
            ("remove income", { _ = try store.removeIncome(id: try store.incomes()[0].id ?? 0, force: true) }),
            ("remove account", { _ = try store.removeAccount(named: "checking", includingEntries: true) }),
            ("import rates", {
                let eur = try Currency(code: "EUR"), jpy = try Currency(code: "JPY")
                try store.saveRates([
                    DayRate(day: try day("2026-03-06"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "160.5")),
                    DayRate(day: try day("2026-03-09"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "161")),
                ])
            }),
            // Replaces one row and adds another: undo puts the old rate back and removes the new one.
            ("set rates", {
                let eur = try Currency(code: "EUR"), usd = try Currency(code: "USD"), jpy = try Currency(code: "JPY")
                try store.saveRates([
                    DayRate(day: try day("2026-03-09"), from: eur, to: jpy, rate: try ExchangeRate(parsing: "159.25")),
                    DayRate(day: try day("2026-03-09"), from: eur, to: usd, rate: try ExchangeRate(parsing: "1.08")),
                ])
            }),
        ]
        // Each step starts from the state read after the last redo: nothing writes in between,
        // so reading it again (some 25 reads) would read the same rows.
        var current = try LedgerState(store)
        for (name, step) in steps {
            clock.advance(by: 60)
            let before = current
            try step()
            let after = try LedgerState(store)
            #expect(before != after, "\(name) changed nothing")
            let changeSet = try #require(try store.changeSets(since: nil, limit: 1).first, "\(name) recorded no change set")
            #expect(!changeSet.undone && changeSet.changeSet.undoes == nil)
            clock.advance(by: 1)
            let undo = try store.undo(nil, dryRun: false)
            #expect(undo.undone.id == changeSet.changeSet.id, "\(name)")
            #expect(try LedgerState(store) == before, "undoing \(name) did not restore the ledger")
            #expect(try store.changeSets(since: nil, limit: 2).map(\.undone) == [false, true])
            let redo = try store.undo(undo.undo.id, dryRun: false)
            #expect(redo.undo.undoes == undo.undo.id)
            current = try LedgerState(store)
            #expect(current == after, "redoing \(name) did not restore the change")
        }
    }

    /// `undo ID` refuses while a later change that stands touched the same rows, naming it,
    /// and changes nothing; once that one is undone, it goes through.
    static func undoRefusesWhileALaterChangeTouchedTheSameRows(_ stores: Stores) throws {
        let store = try stores.make()
        let food = try store.addBudget(Budget(name: "Food", limit: money("300")))
        let milk = try store.addExpense(Expense(name: "Milk", amount: money("1.20"), date: day("2026-01-10"), budgetID: food.id ?? 0))
        var edited = milk
        edited.amount = try money("2")
        _ = try store.updateExpense(edited)
        _ = try store.addBudget(Budget(name: "Rent", limit: money("900")))
        let ids = try store.changeSets(since: nil, limit: nil).map(\.changeSet.id)
        #expect(ids.count == 4)
        let (addBudget, addMilk, editMilk, addRent) = (ids[3], ids[2], ids[1], ids[0])
        let before = try LedgerState(store)
        expectError(.undoBlocked(addMilk, by: [editMilk])) { () throws(TallyError) in try store.undo(addMilk, dryRun: false) }
        // The budget's expense was added later: it needs the budget.
        expectError(.undoBlocked(addBudget, by: [addMilk, editMilk])) { () throws(TallyError) in try store.undo(addBudget, dryRun: false) }
        #expect(try LedgerState(store) == before)
        #expect(try store.changeSets(since: nil, limit: nil).count == 4)

        // An unrelated later change blocks nothing.
        _ = try store.undo(editMilk, dryRun: false)
        _ = try store.undo(addMilk, dryRun: false)
        #expect(try store.expenses(ExpenseQuery()).isEmpty)
        #expect(try store.budgets().map(\.name) == ["Food", "Rent"])
        expectError(.changeSetAlreadyUndone(addMilk, by: addMilk + 4)) { () throws(TallyError) in try store.undo(addMilk, dryRun: false) }
        _ = addRent
    }

    /// Nothing to undo, an unknown id: one error, nothing changed; a dry run decides the same and writes nothing.
    static func undoWithNothingToUndoOrAnUnknownIDFailsAndADryRunWritesNothing(_ stores: Stores) throws {
        let store = try stores.make()
        expectError(.nothingToUndo) { () throws(TallyError) in try store.undo(nil, dryRun: false) }
        expectError(.nothingToUndo) { () throws(TallyError) in try store.undo(nil, dryRun: true) }
        expectError(.changeSetNotFound(7)) { () throws(TallyError) in try store.undo(7, dryRun: false) }
        #expect(try store.changeSets(since: nil, limit: nil).isEmpty)
        // Reads and refused writes record nothing.
        _ = try store.budgets()
        expectError(.budgetNotFound("Nope")) { () throws(TallyError) in try store.removeBudget(named: "Nope", includingExpenses: true) }
        #expect(try store.changeSets(since: nil, limit: nil).isEmpty)

        _ = try store.addBudget(Budget(name: "Food", limit: money("300")))
        let before = try LedgerState(store)
        let dry = try store.undo(nil, dryRun: true)
        #expect(dry.dryRun && dry.undone.summary == "1 budget added" && dry.undo.content.countsPhrase == "1 budget removed")
        #expect(try LedgerState(store) == before)
        #expect(try store.changeSets(since: nil, limit: nil).count == 1)
        let done = try store.undo(nil, dryRun: false)
        #expect(done.undo.id == dry.undo.id)
        // Undoing again walks back: the undo itself is not what the next plain undo reverts.
        expectError(.nothingToUndo) { () throws(TallyError) in try store.undo(nil, dryRun: false) }
    }

    /// An import is one change set holding its range; undoing it removes its expenses, the budgets
    /// it created, its row keys and its file record, so the same file imports again; redoing it
    /// brings all of them back with their ids.
    static func anImportIsOneChangeSetAndUndoingItForgetsItsRowsAndFile(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("300")))
        let bread = Expense(name: "Bread", amount: try money("2.50"), date: try day("2026-03-01"), budgetID: 0)
        func importFile() throws -> ImportOutcome {
            let keys = ImportRowKeys()
            return try store.importExpenses(ImportRequest(source: "bank.csv", missingBudgetLimit: try money("50"), rowKeys: keys)) {
                (insert: ImportInsert) throws(TallyError) -> String? in
                for key in Int64(1)...50 where keys.admit(key) { try insert(bread, key.isMultiple(of: 2) ? "Food" : "New") }
                return "bank"
            }
        }
        let before = try LedgerState(store)
        #expect(try importFile().importedCount == 50)
        let after = try LedgerState(store)
        let entries = try store.changeSets(since: nil, limit: nil)
        #expect(entries.count == 2)
        #expect(entries[0].changeSet.summary == "1 budget, 50 expenses added")

        let undo = try store.undo(nil, dryRun: false)
        #expect(undo.undo.content.countsPhrase == "1 budget, 50 expenses removed")
        #expect(try LedgerState(store) == before)
        _ = try store.undo(undo.undo.id, dryRun: false)
        #expect(try LedgerState(store) == after)
        // Undone again, the file is new to the ledger once more.
        _ = try store.undo(nil, dryRun: false)
        #expect(try importFile().importedCount == 50)
        #expect(try store.expenses(ExpenseQuery()).count == 50)

        // An expense added since to the budget the import created keeps the import from being undone.
        let newBudget = try store.budget(named: "New")
        _ = try store.addExpense(Expense(name: "Cake", amount: money("4"), date: day("2026-03-02"), budgetID: newBudget.id ?? 0))
        let imported = try store.changeSets(since: nil, limit: 2)[1].changeSet.id
        let later = try store.changeSets(since: nil, limit: 1)[0].changeSet.id
        let blocked = try LedgerState(store)
        expectError(.undoBlocked(imported, by: [later])) { () throws(TallyError) in try store.undo(imported, dryRun: false) }
        #expect(try LedgerState(store) == blocked)
    }

    /// History older than the ledger's history length is pruned whole; what is kept undoes whole.
    static func historyIsPrunedWholeAfterItsLength(_ stores: Stores) throws {
        let clock = TestClock()
        let store = try stores.make(clock: clock)
        var settings = try store.settings()
        settings.historyDays = 2
        _ = try store.updateSettings(settings)
        _ = try store.addBudget(Budget(name: "Food", limit: money("300")))
        clock.advance(by: 3 * 86_400)
        _ = try store.addBudget(Budget(name: "Rent", limit: money("900")))
        let entries = try store.changeSets(since: nil, limit: nil)
        #expect(entries.map(\.changeSet.summary) == ["1 budget added"])
        _ = try store.undo(nil, dryRun: false)
        #expect(try store.budgets().map(\.name) == ["Food"])
        expectError(.nothingToUndo) { () throws(TallyError) in try store.undo(nil, dryRun: false) }
        #expect(try store.changeSets(since: clock().addingTimeInterval(1), limit: nil).isEmpty)
        expectError(.invalidHistoryDays(0)) { () throws(TallyError) in try LedgerSettings.checkHistoryDays(0) }
    }
}
