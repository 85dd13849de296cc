import TallyCore
import TallyImportExport

/// The conversion of a CSV import's rows in other currencies (a mapped currency column) into the
/// ledger's, by Core's one rule (``TallyCore/Expense/converted(from:given:into:tableRate:)``),
/// and the table rates of a statement import's statements in other currencies.
///
/// Every table rate the rows need is looked up before the import's transaction opens, from one
/// read of the rate table (a store cannot be read inside its own write): a missing one fails the
/// import listing every missing pair and its days, and nothing is written.
struct ImportConversion {
    let ledger: Currency
    private let rates: [Key: ExchangeRate]

    private struct Key: Hashable {
        var currency: String
        var day: Day
    }

    /// The rates `summary`'s rows need (``ImportSummary/tableRateDays``); `nil` when the import
    /// has nothing to convert.
    init?(_ summary: ImportSummary, options: CSVImportOptions, store: (any DataAccess)?) throws(TallyError) {
        // The mapper refuses a row in another currency when the ledger has none.
        guard let ledger = options.ledgerCurrency else { return nil }
        try self.init(summary.tableRateDays, into: ledger, store: store)
    }

    /// The table's rate into `ledger` for each currency on each of its `days`: one read of the
    /// rate table, and every missing pair listed at once (a statement import's too).
    init(_ days: [Currency: Set<Day>], into ledger: Currency, store: (any DataAccess)?) throws(TallyError) {
        var rates: [Key: ExchangeRate] = [:]
        if !days.isEmpty {
            let table = RateTable(try store?.rates(RateQuery()) ?? [])
            var missing = MissingRates()
            for (currency, days) in days {
                for day in days {
                    do {
                        rates[Key(currency: currency.code, day: day)] = try table.rate(from: currency, to: ledger, on: day)
                    } catch {
                        guard case .foreignMoney(.missingRate) = error else { throw error }
                        missing.add(from: currency.code, to: ledger.code, on: day)
                    }
                }
            }
            guard missing.isEmpty else { throw .foreignMoney(.missingRates(missing.pairs)) }
        }
        self.ledger = ledger
        self.rates = rates
    }

    /// The rate looked up for `currency` on `day`; only a file changed since its first pass
    /// asks for one that was not.
    func rate(_ currency: Currency, on day: Day) throws(TallyError) -> ExchangeRate {
        guard let rate = rates[Key(currency: currency.code, day: day)] else {
            throw .foreignMoney(.missingRate(from: currency.code, to: ledger.code, day: day))
        }
        return rate
    }

    /// The row's expense in the ledger's currency: a row in another currency converted at its
    /// rate cell or the table's rate on its day, any other as it is.
    func expense(of row: ImportedExpense) throws(TallyError) -> Expense {
        guard let foreign = row.foreign else { return row.expense }
        do {
            let expense = try row.expense.converted(from: foreign.original, given: foreign.given, into: ledger) {
                (currency, day) throws(TallyError) -> ExchangeRate in try rate(currency, on: day)
            }
            try Expense.checkAmount(expense.amount)
            _ = try expense.total()
            // A split rule's lines are shared once the amount is the ledger's.
            return expense.lines.isEmpty ? expense : try expense.validated()
        } catch {
            if case .foreignMoney(.missingRate) = error { throw error }
            throw .importFile(line: row.line, reason: "\(foreign.original.description): \(error.errorDescription ?? "cannot be converted")")
        }
    }
}

extension ImportFile {
    /// The ledger's currency in `options` when the mapping names a currency column, so the
    /// mapper can tell the rows to convert from those already in it.
    func withLedgerCurrency(_ options: CSVImportOptions, _ store: (any DataAccess)?) throws(TallyError) -> CSVImportOptions {
        guard options.columns.columns[.currency] != nil, let store else { return options }
        var options = options
        options.ledgerCurrency = try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.settings().currency }
        return options
    }

    /// For a file whose rows name their currency: the file read once to find the rates its
    /// rows need, and those rates; `nil` otherwise, without reading past the header.
    func conversion(_ input: ImportInput, _ options: CSVImportOptions, _ store: any DataAccess) throws(TallyError) -> ImportConversion? {
        guard try ImportPlanner.readsRowCurrencies(input, options: options) else { return nil }
        let plan = try ImportPlanner.plan(input, format: .csv, options: options)
        return try ImportConversion(plan.summary, options: options, store: store)
    }
}
