import Foundation
import TallyCore
import Testing

@testable import TallyImportExport

/// What each entry of a statement becomes, decided once for every format: the account each
/// statement goes to, expenses, incomes and transfers, dedupe and the balance check.
struct StatementPlanTests {
    private func day(_ text: String) throws -> Day { try Day(parsing: text) }
    private func money(_ cents: Int64) -> Money { Money(cents: cents) }

    private let giroIBAN = "DE89370400440532013000"
    private let savingsIBAN = "DE84370400440012345678"

    /// Giro (opening 1,000.00 on 2026-11-01) and Savings, each with its IBAN, and a Visa card.
    private func book(days: [AccountDay] = [], transfers: [Transfer] = []) throws -> AccountBook {
        AccountBook(
            accounts: [
                Account(id: 1, name: "Giro", kind: .checking, opening: money(100_000), openingDate: try day("2026-11-01"), number: giroIBAN),
                Account(id: 2, name: "Savings", kind: .savings, number: savingsIBAN),
                Account(id: 3, name: "Visa", kind: .credit, opening: money(5_000)),
            ],
            transfers: transfers, assertions: [], days: days)
    }

    private func statement(
        _ index: Int = 1, iban: String? = nil, _ entries: [StatementEntry], closing: StatementBalance? = nil, currency: String? = nil
    ) -> ReadStatement {
        var statement = ReadStatement(account: StatementAccount(iban: iban, currency: currency), index: index, id: nil)
        statement.entries = entries
        statement.summary = StatementSummary(closing: closing)
        return statement
    }

    private func entry(_ date: String, _ cents: Int64, _ name: String, id: String? = nil, counterparty: String? = nil, line: Int = 1) throws -> StatementEntry {
        StatementEntry(date: try day(date), amount: money(cents), bankID: id, name: name, counterparty: counterparty, line: line)
    }

    private func planner(_ book: AccountBook, known: Set<Int64> = []) -> StatementPlanner {
        let keys = ImportRowKeys()
        keys.known = known
        var planner = StatementPlanner(book: book, rowKeys: keys)
        planner.rules = [ImportRule(id: 7, pattern: "REWE", budget: "Groceries", tags: ["food"])]
        planner.defaultBudget = "Other"
        return planner
    }

    @Test func debitsCreditsAndOwnAccountsBecomeExpensesIncomesAndTransfers() throws {
        let file = StatementFile(format: .camt053, statements: [
            statement(iban: giroIBAN, [
                try entry("2026-11-02", -4_599, "REWE Markt", id: "A1"),
                try entry("2026-11-03", -1_200, "Kiosk", id: "A2"),
                try entry("2026-11-04", 250_000, "ACME Payroll", id: "A3"),
                try entry("2026-11-05", -50_000, "Sparplan", id: "A4", counterparty: savingsIBAN),
                try entry("2026-11-06", 0, "Info", id: "A5"),
            ], closing: StatementBalance(amount: money(294_201), day: try day("2026-11-30"))),
        ])
        let plan = try planner(try book()).planned(file)
        #expect(plan.expenses.map(\.budgetName) == ["Groceries", "Other"])
        #expect(plan.expenses.map(\.expense.amount) == [money(4_599), money(1_200)])
        #expect(plan.expenses.allSatisfy { $0.expense.accountID == 1 })
        #expect(plan.expenses[0].expense.tags == ["food"])
        #expect(plan.entries.incomes.map(\.income.amount) == [money(250_000)])
        #expect(plan.entries.transfers.map { [$0.from, $0.to] } == [["Giro", "Savings"]])
        #expect(plan.parts[0].zeroEntries == 1)
        // 1,000.00 − 45.99 − 12.00 + 2,500.00 − 500.00 = 2,942.01: recorded as an assertion.
        #expect(plan.parts[0].balance == .matches(day: try day("2026-11-30"), balance: money(294_201), recorded: true))
        #expect(plan.entries.assertions.map(\.assertion.balance) == [money(294_201)])
        #expect(plan.assignments.byRule == [7: 1] && plan.assignments.fallback == 1)
    }

    @Test func aMismatchIsReportedAndRecordsNoAssertion() throws {
        let file = StatementFile(format: .ofx, statements: [
            statement(iban: giroIBAN, [try entry("2026-11-02", -1_000, "Kiosk", id: "B1")],
                closing: StatementBalance(amount: money(98_500), day: try day("2026-11-30"))),
        ])
        let plan = try planner(try book()).planned(file)
        #expect(plan.parts[0].balance == .differs(day: try day("2026-11-30"), stated: money(98_500), computed: money(99_000), difference: money(-500)))
        #expect(plan.entries.assertions.isEmpty)
    }

    /// A card's statement says what is held (negative: owed); the assertion keeps what is owed.
    @Test func aLiabilityComparesWhatIsOwed() throws {
        var planner = planner(try book())
        planner.chosenAccount = try book().account(named: "visa")
        let file = StatementFile(format: .ofx, statements: [
            statement(1, [try entry("2026-11-02", -2_000, "Kiosk", id: "C1")], closing: StatementBalance(amount: money(-7_000), day: try day("2026-11-30"))),
        ])
        let plan = try planner.planned(file)
        #expect(plan.parts[0].balance == .matches(day: try day("2026-11-30"), balance: money(-7_000), recorded: true))
        #expect(plan.entries.assertions.map(\.assertion.balance) == [money(7_000)])
    }

    /// The same bank id on the same account, day and amount is there already; the other side of
    /// a transfer recorded from the other account's statement is too.
    @Test func entriesAlreadyThereAreLeftOut() throws {
        let first = StatementFile(format: .ofx, statements: [
            statement(iban: giroIBAN, [
                try entry("2026-11-02", -1_000, "Kiosk", id: "D1"), try entry("2026-11-03", -2_000, "Kiosk", id: "D2"),
            ]),
        ])
        let keys = ImportRowKeys()
        var planner = planner(try book())
        planner.rowKeys = keys
        _ = try planner.planned(first)
        let overlapping = StatementFile(format: .ofx, statements: [
            statement(iban: giroIBAN, [
                try entry("2026-11-03", -2_000, "Kiosk", id: "D2"), try entry("2026-11-04", -3_000, "Kiosk", id: "D3"),
            ]),
        ])
        let again = ImportRowKeys()
        again.known = Set(keys.newKeys)
        planner.rowKeys = again
        let plan = try planner.planned(overlapping)
        #expect(plan.expenses.map(\.expense.amount) == [money(3_000)])
        #expect(plan.duplicateCount == 1)

        // The same id on another account is another entry.
        let savings = StatementFile(format: .ofx, statements: [statement(iban: savingsIBAN, [try entry("2026-11-03", -2_000, "Kiosk", id: "D2")])])
        #expect(try planner.planned(savings).expenses.count == 1)

        // Savings' statement holds the other side of a transfer Giro's import recorded.
        var withTransfer = self.planner(try book(transfers: [Transfer(id: 9, amount: money(50_000), date: try day("2026-11-05"), from: 1, to: 2)]))
        withTransfer.transfers = try book(transfers: [Transfer(id: 9, amount: money(50_000), date: try day("2026-11-05"), from: 1, to: 2)]).transfers
        let side = StatementFile(format: .camt053, statements: [
            statement(iban: savingsIBAN, [try entry("2026-11-07", 50_000, "Sparplan", id: "S1", counterparty: giroIBAN)]),
        ])
        let sidePlan = try withTransfer.planned(side)
        #expect(sidePlan.entries.transfers.isEmpty && sidePlan.entries.incomes.isEmpty)
        #expect(sidePlan.duplicateCount == 1)
    }

    /// Two statements of one file, each for its own account: a transfer between them is one.
    @Test func aFileOfSeveralStatementsGoesToEachAccountByNumber() throws {
        let file = StatementFile(format: .ofx, statements: [
            statement(1, iban: giroIBAN, [try entry("2026-11-05", -50_000, "To savings", id: "G1", counterparty: savingsIBAN)]),
            statement(2, iban: savingsIBAN, [try entry("2026-11-06", 50_000, "From giro", id: "S1", counterparty: giroIBAN)]),
        ])
        let plan = try planner(try book()).planned(file)
        #expect(plan.parts.map(\.account.name) == ["Giro", "Savings"])
        #expect(plan.entries.transfers.count == 1)
        #expect(plan.parts.map(\.duplicates) == [0, 1])
    }

    @Test func aStatementNoAccountMatchesAsksForAccount() throws {
        let file = StatementFile(format: .camt053, statements: [
            statement(1, iban: giroIBAN, [try entry("2026-11-02", -1, "X", id: "1")]),
            statement(2, iban: "DE02120300000000202051", [try entry("2026-11-02", -1, "X", id: "1")]),
        ])
        #expect(throws: TallyError.importFile(
            line: nil,
            reason: "statement 2 (DE02120300000000202051) is for an account the ledger does not know",
            hint: .accountUnknown(number: "DE02120300000000202051", isIBAN: true))
        ) { try planner(try book()).planned(file) }
        // QIF names no account: --account, else the ledger's default account.
        let qif = StatementFile(format: .qif, statements: [statement(1, [try entry("2026-11-02", -100, "X")])])
        #expect(throws: TallyError.importFile(line: nil, reason: "statement 1 names no account", hint: .accountUnnamed)) { try planner(try book()).planned(qif) }
        var withDefault = planner(try book())
        withDefault.defaultAccount = try book().account(named: "savings")
        #expect(try withDefault.planned(qif).parts[0].account.name == "Savings")
    }

    @Test func refusalsNameTheProblem() throws {
        var noFallback = planner(try book())
        noFallback.defaultBudget = nil
        let file = StatementFile(format: .ofx, statements: [statement(iban: giroIBAN, [try entry("2026-11-02", -100, "Kiosk", id: "1")])])
        #expect(throws: TallyError.importFile(
            line: nil, reason: "no rule matches debits such as 'Kiosk'", hint: .debitsWithoutBudget)
        ) { try noFallback.planned(file) }

        // A statement in a code that is no currency, when the ledger has one to convert into.
        var euro = planner(try book())
        euro.ledgerCurrency = try Currency(code: "EUR")
        let unknown = StatementFile(format: .ofx, statements: [statement(iban: giroIBAN, [try entry("2026-11-02", -100, "X", id: "1")], currency: "QQQ")])
        #expect(throws: TallyError.foreignMoney(.statementField(
            line: nil, field: "the currency of statement 1 (\(giroIBAN))", value: "QQQ", reason: "not an ISO 4217 currency code"))
        ) { try euro.planned(unknown) }

        let early = StatementFile(format: .ofx, statements: [statement(iban: giroIBAN, [try entry("2026-10-31", -100, "X", id: "1")])])
        #expect(throws: TallyError.entryBeforeOpening(account: "Giro", day: try day("2026-10-31"), opening: try day("2026-11-01"))) {
            try planner(try book()).planned(early)
        }
    }

    /// A transfer rule makes a debit a transfer into its account and a credit one out of it;
    /// budget rules never touch credits.
    @Test func aTransferRuleMakesTransfers() throws {
        var planner = planner(try book())
        var rule = ImportRule(id: 8, pattern: "SPARPLAN", budget: "", rename: "Monthly saving", transferTo: "Savings")
        rule.transferAccountID = 2
        planner.rules.append(rule)
        planner.rules.append(ImportRule(id: 9, pattern: "REFUND", budget: "Groceries"))
        let file = StatementFile(format: .mt940, statements: [
            statement(iban: giroIBAN, [
                try entry("2026-11-02", -20_000, "SPARPLAN 11/2026", id: "T1"),
                try entry("2026-11-03", 5_000, "Sparplan zurueck", id: "T2"),
                try entry("2026-11-04", 1_500, "REFUND REWE", id: "T3"),
            ]),
        ])
        let plan = try planner.planned(file)
        #expect(plan.entries.transfers.map { [$0.from, $0.to, $0.transfer.name] } == [["Giro", "Savings", "Monthly saving"], ["Savings", "Giro", "Monthly saving"]])
        #expect(plan.entries.incomes.map(\.income.name) == ["REFUND REWE"])
        #expect(plan.expenses.isEmpty)
    }

    /// Remittance texts run past an expense name's 200 characters: the name is cut, with an ellipsis.
    @Test func aLongBankTextIsCut() throws {
        let long = String(repeating: "x", count: 500)
        let file = StatementFile(format: .camt053, statements: [statement(iban: giroIBAN, [try entry("2026-11-02", -100, long, id: "1")])])
        let name = try planner(try book()).planned(file).expenses[0].expense.name
        #expect(name.count == Expense.maximumNameLength && name.hasSuffix("…"))
    }
}

extension StatementPlanner {
    /// A plan of `file` by a fresh copy of this planner, which stays as it was.
    func planned(_ file: StatementFile) throws(TallyError) -> StatementPlan {
        var copy = self
        return try copy.plan(file)
    }
}
