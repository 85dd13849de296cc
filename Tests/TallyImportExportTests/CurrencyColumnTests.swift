import Testing
import TallyCore
@testable import TallyImportExport

/// A mapped currency column: rows read in their own currency's minor units, left for the use
/// case to convert; rows in the ledger's currency as without the column.
struct CurrencyColumnTests {
    private func options(_ columns: String = "date=Date,name=Name,amount=Amount,budget=Budget,currency=Cur,rate=Rate") throws -> CSVImportOptions {
        var options = CSVImportOptions(columns: try ColumnMapping(parsing: columns))
        options.ledgerCurrency = try Currency(code: "EUR")
        return options
    }

    private func rows(_ text: String, _ options: CSVImportOptions) throws(TallyError) -> (ImportPlan, [ImportedExpense]) {
        let plan = try ImportPlanner.plan(.bytes(Array(text.utf8)), format: .csv, options: options)
        var rows: [ImportedExpense] = []
        try ImportPlanner.forEachExpense(in: plan) { rows.append($0) }
        return (plan, rows)
    }

    @Test func rowsInOtherCurrenciesKeepTheirAmountInTheirOwnMinorUnits() throws {
        let file = """
            Date,Name,Amount,Budget,Cur,Rate
            2026-03-01,Ramen,4500,Food,JPY,
            2026-03-02,Taxi,1.250,Food,bhd,2.43
            2026-03-02,Bread,2.50,Food,EUR,
            2026-03-03,Milk,1.20,Food,,
            2026-03-04,Cab,12.5,Food,USD,

            """
        let (plan, rows) = try rows(file, try options())
        #expect(rows.map { $0.foreign?.original } == [
            CurrencyAmount(minorUnits: 4500, currency: try Currency(code: "JPY")),
            CurrencyAmount(minorUnits: 1250, currency: try Currency(code: "BHD")), nil, nil,
            CurrencyAmount(minorUnits: 1250, currency: try Currency(code: "USD")),
        ])
        #expect(rows[1].foreign?.given == (try ExchangeRate(parsing: "2.43")))
        #expect(rows[0].foreign?.given == nil)
        #expect(rows[2].expense.amount == Money(cents: 250) && rows[3].expense.amount == Money(cents: 120))
        // Only rows without a rate cell need the table, on their days.
        #expect(plan.summary.tableRateDays == [
            try Currency(code: "JPY"): [try Day(parsing: "2026-03-01")], try Currency(code: "USD"): [try Day(parsing: "2026-03-04")],
        ])
    }

    /// Without `--columns`, a header's `currency` column is read too: left out, its rows'
    /// amounts would pass for the ledger's, 1:1. A `rate` column counts only beside it.
    @Test func theDefaultHeadersCurrencyColumnIsReadNotLeftOut() throws {
        var options = CSVImportOptions(defaultBudget: "Food")
        options.ledgerCurrency = try Currency(code: "EUR")
        let file = "date,name,amount,currency,rate\n2026-03-01,Ramen,4500,JPY,\n2026-03-02,Taxi,1.250,BHD,2.43\n2026-03-03,Milk,1.20,,\n"
        let (_, rows) = try rows(file, options)
        #expect(rows.map { $0.foreign?.original } == [
            CurrencyAmount(minorUnits: 4500, currency: try Currency(code: "JPY")),
            CurrencyAmount(minorUnits: 1250, currency: try Currency(code: "BHD")), nil,
        ])
        #expect(rows[1].foreign?.given == (try ExchangeRate(parsing: "2.43")))
        let rateAlone = "date,name,amount,rate\n2026-03-01,Milk,1.20,2.43\n"
        #expect(try self.rows(rateAlone, options).1.map { $0.foreign == nil && $0.expense.amount == Money(cents: 120) } == [true])
        // A ledger without a currency cannot take them.
        #expect(throws: TallyError.foreignMoney(.noLedgerCurrency)) { try self.rows(file, CSVImportOptions(defaultBudget: "Food")) }
    }

    @Test func aRowKeyIsOfTheRowAsWrittenAndItsCurrency() throws {
        let file = "Date,Name,Amount,Budget,Cur,Rate\n2026-03-01,Ramen,12.50,Food,USD,\n2026-03-01,Ramen,12.50,Food,GBP,\n2026-03-01,Ramen,12.50,Food,EUR,\n"
        let (_, rows) = try rows(file, try options())
        let keys = rows.compactMap(\.rowKey)
        #expect(Set(keys).count == 3)
        // The ledger's own currency keys as the same row without a currency column does.
        let plain = "Date,Name,Amount,Budget,Cur,Rate\n2026-03-01,Ramen,12.50,Food,,\n"
        #expect(try self.rows(plain, try options()).1.first?.rowKey == keys[2])
    }

    @Test func badCellsNameTheirLineAndColumn() throws {
        let cases: [(String, String)] = [
            ("2026-03-01,Ramen,4500.5,Food,JPY,", "line 2, column 'Amount', value '4500.5': its currency has no decimals (JPY)"),
            ("2026-03-01,Ramen,1.2345,Food,BHD,", "line 2, column 'Amount', value '1.2345': its currency has at most 3 decimals (BHD)"),
            ("2026-03-01,Ramen,45,Food,QQQ,", "line 2, column 'Cur', value 'QQQ': not an ISO 4217 currency code"),
            ("2026-03-01,Ramen,45,Food,XAU,", "line 2, column 'Cur', value 'XAU': currency XAU has no minor unit"),
            ("2026-03-01,Ramen,45,Food,JPY,-1", "line 2, column 'Rate', value '-1': use a positive decimal"),
            ("2026-03-01,Ramen,45,Food,JPY,0", "line 2, column 'Rate', value '0': use a positive decimal"),
            ("2026-03-01,Ramen,45,Food,EUR,1.1", "line 2, column 'Rate', value '1.1': a rate needs an amount in another currency"),
        ]
        let options = try options()
        for (row, message) in cases {
            do throws(TallyError) {
                _ = try rows("Date,Name,Amount,Budget,Cur,Rate\n\(row)\n", options)
                Issue.record("\(row) was read")
            } catch {
                guard case .foreignMoney(.importCell) = error else { Issue.record("\(row): \(error)"); continue }
                #expect(error.errorDescription?.hasPrefix(message) == true, "\(row): \(error.errorDescription ?? "")")
            }
        }
    }

    @Test func aLedgerWithoutCurrencyRefusesRowsInOne() throws {
        var options = try options()
        options.ledgerCurrency = nil
        #expect(throws: TallyError.foreignMoney(.noLedgerCurrency)) {
            _ = try rows("Date,Name,Amount,Budget,Cur,Rate\n2026-03-01,Ramen,45,Food,JPY,\n", options)
        }
        // Rows with an empty currency cell are the ledger's, as without the column.
        #expect(try rows("Date,Name,Amount,Budget,Cur,Rate\n2026-03-01,Bread,4.50,Food,,\n", options).1.count == 1)
    }

    @Test func aRateColumnNeedsACurrencyColumn() {
        #expect(throws: TallyError.self) { _ = try ColumnMapping(parsing: "date=D,name=N,amount=A,rate=R") }
    }

    @Test func decimalCommaAndSignsReadInTheRowsCurrency() throws {
        var options = try options("date=Date,name=Name,amount=Amount,budget=Budget,currency=Cur")
        options.amountFormat.decimalComma = true
        options.expenseSign = .negative
        let file = "Date;Name;Amount;Budget;Cur\n2026-03-01;Ramen;-4.500;Food;JPY\n2026-03-01;Tea;-¥300;Food;JPY\n2026-03-02;Pub;-12,50 £;Food;GBP\n"
        options.delimiter = .semicolon
        let (_, rows) = try rows(file, options)
        #expect(rows.compactMap { $0.foreign?.original.minorUnits } == [4500, 300, 1250])
    }

    @Test func missingRatesAreOneBoundedLine() throws {
        var missing = MissingRates()
        for day in 1...9 where day != 4 { missing.add(from: "JPY", to: "EUR", on: try Day(parsing: "2026-03-0\(day)")) }
        missing.add(from: "USD", to: "EUR", on: try Day(parsing: "2026-03-04"))
        let message = TallyError.foreignMoney(.missingRates(missing.pairs)).errorDescription
        #expect(message == "missing rates: JPY→EUR on 2026-03-01 to 2026-03-03, 2026-03-05 to 2026-03-09; USD→EUR on 2026-03-04")
        var many = MissingRates()
        for code in ["AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK"] {
            for day in stride(from: 1, through: 27, by: 2) { many.add(from: code, to: "EUR", on: try Day(parsing: "2026-03-\(day < 10 ? "0" : "")\(day)")) }
        }
        let long = try #require(TallyError.foreignMoney(.missingRates(many.pairs)).errorDescription)
        #expect(long.hasSuffix("and 2 more pairs") && long.contains("AUD→EUR on 2026-03-01, 2026-03-03, 2026-03-05, and 11 more days"), "\(long)")
        #expect(long.count < 600 && !long.contains("\n"))
    }
}
