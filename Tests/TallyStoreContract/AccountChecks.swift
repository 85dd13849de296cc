import Foundation
import TallyCore
import TallyTestSupport
import Testing

// MARK: - Accounts, incomes, transfers, balance assertions

extension StoreContract {
    static func accountsAreAddedListedEditedAndRemovedWithTheirEntries(_ stores: Stores) throws {
        let store = try stores.make()
        let savings = try store.addAccount(Account(name: " Épargne ", kind: .savings, opening: Money(cents: -500), openingDate: day("2026-01-01")))
        #expect(savings.id != nil && savings.name == "Épargne")
        #expect(savings.opening == Money(cents: -500))
        let checking = try store.addAccount(Account(name: "Checking", kind: .checking))
        #expect(try store.accountBook().accounts.map(\.name) == ["Checking", "Épargne"])
        expectError(.duplicateAccount("EPARGNE")) { () throws(TallyError) in try store.addAccount(Account(name: "EPARGNE", kind: .cash)) }

        var renamed = savings
        renamed.name = "Savings"
        renamed.kind = .cash
        renamed.archived = true
        let saved = try store.updateAccount(renamed)
        #expect(saved.createdAt == savings.createdAt)
        #expect(try store.accountBook().account(named: "savings") == saved)
        var clash = checking
        clash.name = "SAVINGS"
        expectError(.duplicateAccount("SAVINGS")) { () throws(TallyError) in try store.updateAccount(clash) }

        _ = try store.addIncome(Income(name: "Gift", amount: money("20"), date: day("2026-02-01"), accountID: 0), toAccountNamed: "savings")
        _ = try store.addTransfer(Transfer(amount: money("5"), date: day("2026-02-02"), from: 0, to: 0), from: "checking", to: "savings")
        _ = try store.reconcile(accountNamed: "savings", balance: money("20"), on: day("2026-02-28"))
        expectError(.accountInUse("Savings", entries: 2, assertions: 1, expenses: 0)) { () throws(TallyError) in try store.removeAccount(named: "savings", includingEntries: false) }
        #expect(try store.incomes().count == 1)
        let removed = try store.removeAccount(named: "SAVINGS", includingEntries: true)
        #expect(removed.entries == 2)
        let book = try store.accountBook()
        #expect(book.accounts.map(\.name) == ["Checking"])
        #expect(try store.incomes().isEmpty)
        #expect(try store.transfers().isEmpty)
        #expect(book.assertions.isEmpty)
        expectError(.accountNotFound("Savings")) { () throws(TallyError) in try store.removeAccount(named: "Savings", includingEntries: true) }
    }

    /// An account keeps its IBAN or number normalized; two accounts never share one; it can be
    /// changed and forgotten, and undo puts the old one back.
    static func accountsKeepAUniqueNumber(_ stores: Stores) throws {
        let store = try stores.make()
        let giro = try store.addAccount(Account(name: "Giro", kind: .checking, number: "de89 3704-0044 0532 0130 00"))
        #expect(giro.number == "DE89370400440532013000")
        #expect(try store.accountBook().account(named: "giro").number == "DE89370400440532013000")
        expectError(.duplicateAccountNumber("DE89370400440532013000", account: "Giro")) { () throws(TallyError) in
            try store.addAccount(Account(name: "Other", kind: .savings, number: "DE89370400440532013000"))
        }
        expectError(.invalidAccountNumber("12#4")) { () throws(TallyError) in try store.addAccount(Account(name: "Bad", kind: .cash, number: "12#4")) }
        var savings = try store.addAccount(Account(name: "Savings", kind: .savings, number: "12345678"))
        savings.number = "DE89370400440532013000"
        expectError(.duplicateAccountNumber("DE89370400440532013000", account: "Giro")) { () throws(TallyError) in try store.updateAccount(savings) }
        savings.number = nil
        _ = try store.updateAccount(savings)
        #expect(try store.accountBook().account(named: "savings").number == nil)
        _ = try store.undo(nil, dryRun: false)
        #expect(try store.accountBook().account(named: "savings").number == "12345678")
        // A statement's number finds the account: the same, or ending with it, as an IBAN ends
        // with the domestic number.
        let book = try store.accountBook()
        #expect(try book.account(named: "giro").isNamed(byNumber: "DE89370400440532013000"))
        #expect(try book.account(named: "savings").isNamed(byNumber: "DE84370400440012345678"))
        #expect(try !book.account(named: "savings").isNamed(byNumber: "DE00370400440012345678"))
        #expect(try !book.account(named: "savings").isNamed(byNumber: "2345678"))
    }

    /// A transfer rule points at its account by id: it follows a rename, goes with the account's
    /// removal, and undo brings both back.
    static func transferRulesFollowTheirAccount(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addBudget(Budget(name: "Food", limit: money("100")))
        _ = try store.addAccount(Account(name: "Savings", kind: .savings))
        _ = try store.addRule(ImportRule(pattern: "bakery", budget: "food"))
        let rule = try store.addRule(ImportRule(pattern: "SAVINGS PLAN", budget: "", rename: "Saving", priority: 5, transferTo: "savings"))
        #expect(rule.transferTo == "Savings" && rule.budget.isEmpty && rule.id != nil)
        expectError(.accountNotFound("Nope")) { () throws(TallyError) in try store.addRule(ImportRule(pattern: "x", budget: "", transferTo: "Nope")) }
        expectError(.transferRuleWithBudget) { () throws(TallyError) in try store.addRule(ImportRule(pattern: "x", budget: "Food", transferTo: "Savings")) }
        #expect(try store.rules().map(\.transferTo) == ["Savings", nil])

        var savings = try store.accountBook().account(named: "savings")
        savings.name = "Rainy day"
        _ = try store.updateAccount(savings)
        #expect(try store.rules().first?.transferTo == "Rainy day")

        _ = try store.removeAccount(named: "rainy day", includingEntries: true)
        #expect(try store.rules().map(\.pattern) == ["bakery"])
        _ = try store.undo(nil, dryRun: false)
        let restored = try store.rules()
        #expect(restored.map(\.pattern) == ["SAVINGS PLAN", "bakery"])
        #expect(restored.first?.transferTo == "Rainy day" && restored.first?.id == rule.id && restored.first?.rename == "Saving")
    }

    static func balancesFollowIncomesAndTransfersForAssetsAndLiabilities(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: money("1200"), openingDate: day("2026-11-01")))
        _ = try store.addAccount(Account(name: "Visa", kind: .credit, opening: money("300"), openingDate: day("2026-11-01")))
        _ = try store.addAccount(Account(name: "Savings", kind: .savings))
        _ = try store.addIncome(Income(name: "Salary", amount: money("3200"), date: day("2026-11-02"), accountID: 0, tags: ["Pay"], by: "Anna"), toAccountNamed: "checking")
        _ = try store.addTransfer(Transfer(amount: money("500"), date: day("2026-11-05"), from: 0, to: 0), from: "Checking", to: "Savings")
        _ = try store.addTransfer(Transfer(amount: money("250.50"), date: day("2026-11-06"), from: 0, to: 0, name: "Card"), from: "Checking", to: "Visa")
        _ = try store.addIncome(Income(name: "Refund", amount: money("9.99"), date: day("2026-11-07"), accountID: 0), toAccountNamed: "visa")

        let book = try store.accountBook()
        let checking = try book.account(named: "checking"), visa = try book.account(named: "visa"), savings = try book.account(named: "savings")
        #expect(try book.balance(of: checking, through: day("2026-10-31")) == nil)
        #expect(try book.balance(of: checking, through: day("2026-11-01")) == (try money("1200")))
        #expect(try book.balance(of: checking, through: day("2026-11-05")) == (try money("3900")))
        #expect(try book.balance(of: checking, through: day("2026-11-30")) == (try money("3649.50")))
        // What is owed: the payment and the refund lower it.
        #expect(try book.balance(of: visa, through: day("2026-11-30")) == (try money("39.51")))
        #expect(try book.balance(of: savings, through: day("2026-11-04")) == .zero)
        #expect(try book.balance(of: savings, through: day("2026-11-30")) == (try money("500")))
        #expect(book.entries(of: checking).map(\.kind) == [.income, .transferOut, .transferOut])
        #expect(try store.incomes().map(\.tags) == [["pay"], []])
        #expect(try store.incomes().first?.by == "Anna")
        #expect(try store.transfers().map(\.name) == ["", "Card"])
    }

    static func brokenAccountRulesAreRefusedAndChangeNothing(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, openingDate: day("2026-11-01")))
        _ = try store.addAccount(Account(name: "Cash", kind: .cash))
        let before = try store.changeSets(since: nil, limit: nil).count
        expectError(.emptyName(.account)) { () throws(TallyError) in try store.addAccount(Account(name: " ", kind: .cash)) }
        expectError(.accountNotFound("Nope")) { () throws(TallyError) in
            try store.addIncome(Income(name: "X", amount: money("1"), date: day("2026-11-02"), accountID: 0), toAccountNamed: "Nope")
        }
        expectError(.entryBeforeOpening(account: "Checking", day: try day("2026-10-31"), opening: try day("2026-11-01"))) { () throws(TallyError) in
            try store.addIncome(Income(name: "X", amount: money("1"), date: day("2026-10-31"), accountID: 0), toAccountNamed: "checking")
        }
        expectError(.amountNotPositive(.zero)) { () throws(TallyError) in
            try store.addIncome(Income(name: "X", amount: .zero, date: day("2026-11-02"), accountID: 0), toAccountNamed: "checking")
        }
        expectError(.transferToSameAccount) { () throws(TallyError) in
            try store.addTransfer(Transfer(amount: money("1"), date: day("2026-11-02"), from: 0, to: 0), from: "cash", to: "CASH")
        }
        expectError(.incomeNotFound(9)) { () throws(TallyError) in try store.removeIncome(id: 9, force: true) }
        expectError(.transferNotFound(9)) { () throws(TallyError) in try store.removeTransfer(id: 9, force: true) }
        #expect(try store.changeSets(since: nil, limit: nil).count == before)
        #expect(try store.incomes().isEmpty)
        #expect(try store.transfers().isEmpty)
    }

    static func reconcilingRecordsOnlyAMatchAndLocksTheEntriesUpToIt(_ stores: Stores) throws {
        let store = try stores.make()
        _ = try store.addAccount(Account(name: "Checking", kind: .checking, opening: money("100"), openingDate: day("2026-11-01")))
        let salary = try store.addIncome(Income(name: "Salary", amount: money("50"), date: day("2026-11-10"), accountID: 0), toAccountNamed: "Checking").income

        let miss = try store.reconcile(accountNamed: "checking", balance: money("160"), on: day("2026-11-30"))
        #expect(!miss.matches)
        #expect(try miss.difference() == money("10"))
        #expect(miss.entriesSince.map(\.id) == [salary.id ?? 0])
        #expect(try store.accountBook().assertions.isEmpty)

        let hit = try store.reconcile(accountNamed: "checking", balance: money("150"), on: day("2026-11-30"))
        #expect(hit.matches)
        let book = try store.accountBook()
        #expect(book.reconciledThrough(try book.account(named: "checking")) == (try day("2026-11-30")))

        expectError(.entryReconciled(account: "Checking", through: try day("2026-11-30"))) { () throws(TallyError) in
            try store.updateIncome(id: salary.id ?? 0, force: false) { (income: inout Income, _: AccountBook) throws(TallyError) in income.amount = try money("60") }
        }
        expectError(.entryReconciled(account: "Checking", through: try day("2026-11-30"))) { () throws(TallyError) in
            try store.removeIncome(id: salary.id ?? 0, force: false)
        }
        #expect(try store.accountBook().brokenAssertions().isEmpty)
        _ = try store.updateIncome(id: salary.id ?? 0, force: true) { (income: inout Income, _: AccountBook) throws(TallyError) in income.amount = try money("60") }
        let broken = try store.accountBook().brokenAssertions()
        #expect(broken.count == 1)
        #expect(try broken.first?.difference() == (try money("10")))
        // A later entry does not touch the reconciled days.
        _ = try store.addIncome(Income(name: "Late", amount: money("1"), date: day("2026-12-01"), accountID: 0), toAccountNamed: "Checking")
        #expect(try store.accountBook().brokenAssertions().count == 1)
    }
}
