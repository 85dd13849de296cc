import Foundation
import Testing
import TallyCore
@testable import TallyImportExport

/// Version 7: accounts, incomes, transfers and balance assertions in a backup, and the `kind`
/// column of a CSV export.
struct AccountDocumentTests {
    private let epoch = Date(timeIntervalSince1970: 0)

    private func day(_ text: String) throws -> Day { try Day(parsing: text) }

    /// An account of every kind, a negative opening, an opening day, an archived account, an
    /// income with tags and who received it, transfers with and without a name, assertions.
    private func declared() throws -> DeclaredAccounts {
        let accounts = [
            Account(name: "Checking", kind: .checking, opening: Money(cents: 120_000), openingDate: try day("2026-11-01"), createdAt: epoch),
            Account(name: "Savings \"rainy\"", kind: .savings, opening: Money(cents: -2_050), createdAt: epoch),
            Account(name: "Visa", kind: .credit, opening: Money(cents: 30_000), openingDate: try day("2026-10-15"), createdAt: epoch),
            Account(name: "Wallet", kind: .cash, archived: true, createdAt: epoch),
            Account(name: "Car loan", kind: .loan, opening: Money(cents: 900_000), createdAt: epoch),
        ]
        return DeclaredAccounts(
            accounts: accounts,
            incomes: [
                DeclaredIncome(Income(name: "Salary", amount: Money(cents: 320_000), date: try day("2026-11-02"), accountID: 0,
                    tags: ["job", "monthly"], by: "Anna", createdAt: epoch), account: "Checking"),
                DeclaredIncome(Income(name: "Gift", amount: Money(cents: 5_000), date: try day("2026-11-03"), accountID: 0,
                    createdAt: epoch), account: "Wallet"),
            ],
            transfers: [
                DeclaredTransfer(Transfer(amount: Money(cents: 50_000), date: try day("2026-11-05"), from: 0, to: 0, createdAt: epoch),
                    from: "Checking", to: "Savings \"rainy\""),
                DeclaredTransfer(Transfer(amount: Money(cents: 25_050), date: try day("2026-11-06"), from: 0, to: 0, name: "Card payment",
                    createdAt: epoch), from: "Checking", to: "Visa"),
            ],
            assertions: [
                DeclaredAssertion(BalanceAssertion(accountID: 0, date: try day("2026-11-30"), balance: Money(cents: 364_950), createdAt: epoch),
                    account: "Checking"),
                DeclaredAssertion(BalanceAssertion(accountID: 0, date: try day("2026-11-30"), balance: Money(cents: -100), createdAt: epoch),
                    account: "Visa"),
            ])
    }

    private func export(_ accounts: DeclaredAccounts) throws -> MemorySink {
        let sink = MemorySink()
        let writer = JSONExportWriter(sink: sink)
        try writer.begin(budgets: [], accounts: accounts)
        try writer.finish()
        return sink
    }

    /// Restored as written: no id, every entry's account by name, the import's placeholder time.
    private func asRead(_ declared: DeclaredAccounts) -> DeclaredAccounts {
        var expected = declared
        for index in expected.accounts.indices { expected.accounts[index].createdAt = CSVRowMapper.placeholderDate }
        for index in expected.accounts.indices { expected.accounts[index].updatedAt = CSVRowMapper.placeholderDate }
        for index in expected.incomes.indices {
            expected.incomes[index].income.createdAt = CSVRowMapper.placeholderDate
            expected.incomes[index].income.updatedAt = CSVRowMapper.placeholderDate
        }
        for index in expected.transfers.indices {
            expected.transfers[index].transfer = Transfer(
                amount: declared.transfers[index].transfer.amount, date: declared.transfers[index].transfer.date, from: 1, to: 2,
                name: declared.transfers[index].transfer.name, createdAt: CSVRowMapper.placeholderDate)
        }
        return expected
    }

    @Test func accountsAndTheirRowsAreWrittenAsVersionSevenAndReadBack() throws {
        let declared = try declared()
        let sink = try export(declared)
        #expect(sink.string == """
            {
              "version": 7,
              "settings": {"monthStart": 1},
              "budgets": [],
              "accounts": [
                {"name": "Checking", "kind": "checking", "opening": "1200.00", "openingDate": "2026-11-01"},
                {"name": "Savings \\"rainy\\"", "kind": "savings", "opening": "-20.50"},
                {"name": "Visa", "kind": "credit", "opening": "300.00", "openingDate": "2026-10-15"},
                {"name": "Wallet", "kind": "cash", "opening": "0.00", "archived": true},
                {"name": "Car loan", "kind": "loan", "opening": "9000.00"}
              ],
              "incomes": [
                {"name": "Salary", "amount": "3200.00", "date": "2026-11-02", "account": "Checking", "tags": ["job", "monthly"], "by": "Anna"},
                {"name": "Gift", "amount": "50.00", "date": "2026-11-03", "account": "Wallet", "tags": []}
              ],
              "transfers": [
                {"amount": "500.00", "date": "2026-11-05", "from": "Checking", "to": "Savings \\"rainy\\""},
                {"amount": "250.50", "date": "2026-11-06", "from": "Checking", "to": "Visa", "name": "Card payment"}
              ],
              "assertions": [
                {"account": "Checking", "date": "2026-11-30", "balance": "3649.50"},
                {"account": "Visa", "date": "2026-11-30", "balance": "-1.00"}
              ],
              "expenses": []
            }

            """)
        let document = try LedgerDocument.decode(Data(sink.bytes))
        #expect(document.version == 7)
        let read = try document.validatedAccounts()
        let expected = asRead(declared)
        #expect(read.accounts == expected.accounts)
        #expect(read.incomes == expected.incomes)
        #expect(read.transfers == expected.transfers)
        #expect(read.assertions.map(\.account) == expected.assertions.map(\.account))
        #expect(read.assertions.map(\.assertion.balance) == expected.assertions.map(\.assertion.balance))
        // JSONEncoder writes a document the decoder reads the same.
        #expect(try LedgerDocument.decode(try JSONEncoder().encode(document)) == document)
    }

    /// Only accounts raise the version: a document without them is written as before.
    @Test func aDocumentWithoutAccountsKeepsItsOlderVersion() throws {
        #expect(LedgerDocument.version(budgets: [], settings: LedgerSettings()) == 1)
        #expect(LedgerDocument.version(budgets: [], settings: LedgerSettings(), recordsPeople: true) == 5)
        #expect(LedgerDocument.version(budgets: [], settings: LedgerSettings(), hasAccounts: true) == 7)
        let plain = try LedgerDocument.decode(Data(try export(DeclaredAccounts()).bytes))
        #expect(plain.version == 1)
        #expect(plain.accounts == nil && plain.incomes == nil && plain.transfers == nil && plain.assertions == nil)
        #expect(try plain.validatedAccounts().isEmpty)
        // A version-5 document, written before accounts, still reads.
        let old = try LedgerDocument.decode(Data(#"{"version": 5, "budgets": [], "expenses": []}"#.utf8))
        #expect(try old.validatedAccounts().isEmpty)
    }

    @Test func aBadEntryIsRefusedNamingItsPlaceAndValue() throws {
        func refusal(_ json: String) -> String? {
            let text = #"{"version": 7, "budgets": [], "expenses": [], "# + json + "}"
            do {
                _ = try LedgerDocument.decode(Data(text.utf8)).validatedAccounts()
                return nil
            } catch {
                guard case .importFile(nil, let reason, _) = error else { return "\(error)" }
                return reason
            }
        }
        #expect(refusal(#""accounts": [{"name": "Bank", "kind": "bank", "opening": "0.00"}]"#)
            == "accounts[0].kind 'bank': use checking, savings, credit, cash, loan")
        #expect(refusal(#""accounts": [{"name": "Bank", "kind": "cash", "opening": "12,50"}]"#)?.hasPrefix("accounts[0].opening '12,50': ") == true)
        #expect(refusal(#""accounts": [{"name": " ", "kind": "cash", "opening": "1.00"}]"#)?.hasPrefix("accounts[0].name ' ': ") == true)
        #expect(refusal(#""accounts": [{"name": "A", "kind": "cash", "opening": "1.00", "openingDate": "2026-02-30"}]"#)?
            .hasPrefix("accounts[0].openingDate '2026-02-30': ") == true)
        #expect(refusal(#""incomes": [{"name": "Pay", "amount": "0.00", "date": "2026-01-01", "account": "A", "tags": []}]"#)?
            .hasPrefix("incomes[0].amount '0.00': ") == true)
        #expect(refusal(#""incomes": [{"name": "Pay", "amount": "1.00", "date": "2026-01-01", "account": "A", "tags": ["a,b"]}]"#)?
            .hasPrefix("incomes[0].tags 'a,b': ") == true)
        #expect(refusal(#""transfers": [{"amount": "1.00", "date": "2026-01-01", "from": "Visa", "to": "VISA"}]"#)?
            .hasPrefix("transfers[0].to 'VISA': ") == true)
        #expect(refusal(#""assertions": [{"account": "A", "date": "2026-01-01", "balance": "-x"}]"#)?
            .hasPrefix("assertions[0].balance '-x': ") == true)
        #expect(refusal(#""accounts": [{"name": "A", "kind": "cash"}]"#) == "not a Tally JSON document: missing accounts[0].opening")
    }

    /// A CSV export gains `account`, `to` and `kind` only when it has incomes or transfers.
    @Test func csvExportAddsTheKindColumnOnlyWithIncomesOrTransfers() throws {
        let expense = Expense(name: "Bread", amount: Money(cents: 250), date: try day("2026-11-04"), budgetID: 1, createdAt: epoch)
        func csv(_ accounts: DeclaredAccounts) throws -> String {
            let sink = MemorySink()
            let writer = CSVExportWriter(sink: sink)
            try writer.begin(accounts: accounts)
            try writer.write(expense, budgetName: "Food")
            try writer.finish()
            return sink.string
        }
        #expect(try csv(DeclaredAccounts()) == "date,budget,name,amount,quantity,tags,by\n2026-11-04,Food,Bread,2.50,1,,\n")
        var onlyAccounts = try declared()
        onlyAccounts.incomes = []
        onlyAccounts.transfers = []
        #expect(try csv(onlyAccounts) == "date,budget,name,amount,quantity,tags,by\n2026-11-04,Food,Bread,2.50,1,,\n")
        #expect(try csv(try declared()) == #"""
            date,budget,name,amount,quantity,tags,by,account,to,kind
            2026-11-04,Food,Bread,2.50,1,,,,,expense
            2026-11-02,,Salary,3200.00,,job;monthly,Anna,Checking,,income
            2026-11-03,,Gift,50.00,,,,Wallet,,income
            2026-11-05,,,500.00,,,,Checking,"Savings ""rainy""",transfer
            2026-11-06,,Card payment,250.50,,,,Checking,Visa,transfer

            """#)
    }

    /// Expense rows of a file with a `kind` column import; an income or transfer row is refused,
    /// naming its line, rather than read as an expense or left out.
    @Test func aCSVImportReadsExpenseRowsAndRefusesTheOthers() throws {
        let header = "date,budget,name,amount,quantity,tags,by,account,to,kind\n"
        let expenses = header + "2026-11-04,Food,Bread,2.50,1,,,,,expense\n2026-11-05,Food,Milk,1.00,1,,,,,\n"
        let plan = try ImportPlanner.plan(.bytes(Array(expenses.utf8)), format: .csv)
        #expect(plan.summary.expenseCount == 2)
        let income = expenses + "2026-11-02,,Salary,3200.00,,,,Checking,,income\n"
        #expect(throws: TallyError.importRow(
            line: 4, column: "kind", value: "income",
            reason: "a CSV import reads expense rows only; incomes and transfers come back from a JSON export")) {
            try ImportPlanner.plan(.bytes(Array(income.utf8)), format: .csv)
        }
        let odd = header + "2026-11-04,Food,Bread,2.50,1,,,,,gift\n"
        #expect(throws: TallyError.importRow(line: 2, column: "kind", value: "gift", reason: "use expense, income, transfer, refund")) {
            try ImportPlanner.plan(.bytes(Array(odd.utf8)), format: .csv)
        }
        // A refund row is money back into its budget (``CSVLedgerColumns``).
        var refunds: [ImportedExpense] = []
        let refund = header + "2026-11-04,Food,Returned bread,2.50,1,,,,,refund\n"
        try ImportPlanner.forEachExpense(in: ImportPlanner.plan(.bytes(Array(refund.utf8)), format: .csv)) { refunds.append($0) }
        #expect(refunds.map(\.expense.isRefund) == [true])
        // A bank's file read with --columns keeps its own `kind` column to itself.
        var options = CSVImportOptions()
        options.columns = try ColumnMapping(parsing: "date=date,name=name,amount=amount,budget=budget")
        #expect(try ImportPlanner.plan(.bytes(Array(odd.utf8)), format: .csv, options: options).summary.expenseCount == 1)
    }
}
