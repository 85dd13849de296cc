import Foundation
import TallyCore
import Testing

@testable import TallyImportExport

/// Statements and entries in other currencies than the ledger's: a whole statement converts at
/// the table's rate of each entry's day; an entry booked from another currency keeps its
/// original at a rate that gives back the booked amount.
struct StatementPlannerCurrencyTests {
    private let giroIBAN = "DE89370400440532013000"
    private let savingsIBAN = "DE84370400440012345678"

    private func book() throws -> AccountBook {
        AccountBook(
            accounts: [
                Account(id: 1, name: "Giro", kind: .checking, opening: Money(cents: 100_000), number: giroIBAN),
                Account(id: 2, name: "Savings", kind: .savings, number: savingsIBAN),
            ],
            transfers: [], assertions: [], days: [])
    }

    /// A EUR ledger whose table has USD→EUR on Friday 2026-03-06 and Monday 2026-03-09.
    private func planner(ledger: String? = "EUR") throws -> StatementPlanner {
        var planner = StatementPlanner(book: try book(), rowKeys: ImportRowKeys())
        var refund = ImportRule(id: 7, pattern: "REFUND", budget: "Travel")
        refund.refund = true
        planner.rules = [refund]
        planner.defaultBudget = "Travel"
        planner.ledgerCurrency = try ledger.map { try Currency(code: $0) }
        let table = RateTable([
            DayRate(day: try Day(parsing: "2026-03-06"), from: try Currency(code: "EUR"), to: try Currency(code: "USD"), rate: try ExchangeRate(parsing: "1.0823")),
            DayRate(day: try Day(parsing: "2026-03-09"), from: try Currency(code: "EUR"), to: try Currency(code: "USD"), rate: try ExchangeRate(parsing: "1.0841")),
        ])
        planner.tableRate = { (currency: Currency, day: Day) throws(TallyError) -> ExchangeRate in
            try table.rate(from: currency, to: try Currency(code: "EUR"), on: day)
        }
        return planner
    }

    private func file(_ entries: [StatementEntry], currency: String?, closing: StatementBalance? = nil) -> StatementFile {
        var statement = ReadStatement(account: StatementAccount(iban: giroIBAN, currency: currency), index: 1, id: nil)
        statement.entries = entries
        statement.summary = StatementSummary(closing: closing)
        return StatementFile(format: .ofx, statements: [statement])
    }

    private func entry(_ date: String, _ cents: Int64, _ name: String, counterparty: String? = nil, original: StatementOriginal? = nil) throws -> StatementEntry {
        StatementEntry(date: try Day(parsing: date), amount: Money(cents: cents), bankID: name, name: name, counterparty: counterparty, line: 1, original: original)
    }

    @Test func aStatementInUSDConvertsAtTheTablesRateOfEachDay() throws {
        let planner = try planner()
        let plan = try planner.planned(file([
            // Sunday takes Friday's rate: 12.50 / 1.0823 = 11.549 → 11.55.
            try entry("2026-03-08", -1250, "Museum"),
            // 12.50 / 1.0841 = 11.530 → 11.53.
            try entry("2026-03-09", -1250, "Museum shop"),
            try entry("2026-03-09", 10_000, "Salary"),
            try entry("2026-03-09", 500, "REFUND Museum"),
            try entry("2026-03-09", -2000, "To savings", counterparty: savingsIBAN),
        ], currency: "USD", closing: StatementBalance(amount: Money(cents: 50_000), day: try Day(parsing: "2026-03-31"))))
        let expenses = plan.expenses.map(\.expense)
        #expect(expenses.map(\.amount) == [Money(cents: 1155), Money(cents: 1153), Money(cents: 461)])
        #expect(expenses.map { $0.foreign?.original.description } == ["12.50 USD", "12.50 USD", "5.00 USD"])
        #expect(expenses.allSatisfy { $0.foreign?.source == .table })
        #expect(expenses.map(\.isRefund) == [false, false, true])
        #expect(expenses[0].foreign?.rate == (try ExchangeRate(parsing: "1.0823").inverted()))
        // 100.00 / 1.0841 = 92.24; 20.00 / 1.0841 = 18.45.
        #expect(plan.entries.incomes.map(\.income.amount) == [Money(cents: 9224)])
        #expect(plan.entries.transfers.map(\.transfer.amount) == [Money(cents: 1845)])
        // The balance counts dollars, the account euros: not compared, not recorded.
        #expect(plan.parts[0].currency == (try Currency(code: "USD")))
        #expect(plan.parts[0].balance == .otherCurrency(try Currency(code: "USD")))
        #expect(plan.entries.assertions.isEmpty)
    }

    @Test func aMissingRateIsAnErrorNeverOneToOne() throws {
        let planner = try planner()
        #expect(throws: TallyError.foreignMoney(.missingRate(from: "USD", to: "EUR", day: try Day(parsing: "2026-03-05")))) {
            try planner.planned(file([try entry("2026-03-05", -1250, "Early")], currency: "USD"))
        }
        var withoutTable = try self.planner()
        withoutTable.tableRate = nil
        #expect(throws: TallyError.foreignMoney(.missingRate(from: "USD", to: "EUR", day: try Day(parsing: "2026-03-09")))) {
            try withoutTable.planned(file([try entry("2026-03-09", -1250, "Museum")], currency: "USD"))
        }
    }

    /// In the ledger's currency, the booked amount stays; the original is kept at the stated rate
    /// when it gives the booked amount back, else at booked / original, as given.
    @Test func entriesBookedFromAnotherCurrencyKeepTheirOriginal() throws {
        let jpy = try Currency(code: "JPY")
        let usd = try Currency(code: "USD")
        let planner = try planner()
        let plan = try planner.planned(file([
            // 4500 JPY at 1 / 161.54 is 27.86, but the bank booked 28.20 (its fee included).
            try entry("2026-03-09", -2820, "Ramen", original: StatementOriginal(amount: CurrencyAmount(minorUnits: 4500, currency: jpy), rate: try ExchangeRate(parsing: "161.54").inverted())),
            try entry("2026-03-09", -1153, "Museum", original: StatementOriginal(amount: CurrencyAmount(minorUnits: 1250, currency: usd), rate: try ExchangeRate(parsing: "0.9224"))),
            try entry("2026-03-10", 920, "REFUND Museum", original: StatementOriginal(amount: CurrencyAmount(minorUnits: 1000, currency: usd))),
            try entry("2026-03-10", 920, "Payback", original: StatementOriginal(amount: CurrencyAmount(minorUnits: 1000, currency: usd))),
        ], currency: "EUR"))
        let expenses = plan.expenses.map(\.expense)
        #expect(expenses.map(\.amount) == [Money(cents: 2820), Money(cents: 1153), Money(cents: 920)])
        #expect(expenses.map { $0.foreign?.original.description } == ["4500 JPY", "12.50 USD", "10.00 USD"])
        #expect(expenses.map { $0.foreign?.rate.plainString } == ["0.006266666667", "0.9224", "0.92"])
        #expect(expenses.allSatisfy { $0.foreign?.source == .given })
        for expense in expenses { #expect(try expense.foreign?.amount(in: try Currency(code: "EUR")) == expense.amount) }
        // An income keeps the booked amount only.
        #expect(plan.entries.incomes.map(\.income.amount) == [Money(cents: 920)])
    }

    /// A ledger without a currency takes the file's amounts as they are, as before.
    @Test func aLedgerWithoutACurrencyConvertsNothing() throws {
        let planner = try planner(ledger: nil)
        let original = StatementOriginal(amount: CurrencyAmount(minorUnits: 4500, currency: try Currency(code: "JPY")))
        let plan = try planner.planned(file([try entry("2026-03-09", -2820, "Ramen", original: original)], currency: "USD"))
        #expect(plan.expenses.map(\.expense.amount) == [Money(cents: 2820)])
        #expect(plan.expenses[0].expense.foreign == nil)
        #expect(plan.parts[0].currency == nil)
    }

    @Test func statementAmountsInTheirCurrencysMinorUnits() throws {
        let jpy = try Currency(code: "JPY")
        #expect(try CurrencyAmount(hundredths: Money(cents: 450_000), currency: jpy) == CurrencyAmount(minorUnits: 4500, currency: jpy))
        #expect(try CurrencyAmount(hundredths: Money(cents: -1250), currency: try Currency(code: "BHD")).minorUnits == 12_500)
        #expect(throws: TallyError.foreignMoney(.invalidAmount("4500.50", currency: "JPY", digits: 0))) {
            try CurrencyAmount(hundredths: Money(cents: 450_050), currency: jpy)
        }
        // 27.86 EUR at 0.00619 EUR per yen: 4500.8 → 4501 JPY.
        #expect(try ExchangeRate(parsing: "0.00619").original(of: Money(cents: 2786), in: jpy) == CurrencyAmount(minorUnits: 4501, currency: jpy))
    }
}
