/// What was spent in one other currency over a period: the original amounts summed in that
/// currency's minor units, and their ledger-currency equivalent (the converted totals that
/// budgets sum), with how many expenses. Reports show it as "by currency".
public struct CurrencySpending: Hashable, Sendable {
    public var original: CurrencyAmount
    public var converted: Money
    public var expenseCount: Int

    public init(original: CurrencyAmount, converted: Money, expenseCount: Int) {
        self.original = original
        self.converted = converted
        self.expenseCount = expenseCount
    }

    /// Each currency's totals over `expenses` (each original × quantity, exactly; overflow is an
    /// error), ordered by currency code; expenses in the ledger's currency are left out.
    public static func totals(_ expenses: some Sequence<Expense>) throws(TallyError) -> [CurrencySpending] {
        var byCode: [String: CurrencySpending] = [:]
        for expense in expenses {
            guard let foreign = expense.foreign else { continue }
            let code = foreign.original.currency.code
            var entry = byCode[code] ?? CurrencySpending(
                original: CurrencyAmount(minorUnits: 0, currency: foreign.original.currency), converted: .zero, expenseCount: 0)
            let (paid, overflow1) = foreign.original.minorUnits.multipliedReportingOverflow(by: expense.quantity)
            let (sum, overflow2) = entry.original.minorUnits.addingReportingOverflow(paid)
            guard !overflow1, !overflow2 else { throw .arithmeticOverflow }
            entry.original.minorUnits = sum
            entry.converted = try entry.converted + expense.total()
            entry.expenseCount += 1
            byCode[code] = entry
        }
        return byCode.values.sorted { $0.original.currency.code < $1.original.currency.code }
    }
}

extension DataAccess {
    /// ``CurrencySpending/totals(_:)`` of the expenses within `days`, as the store sums them
    /// beside its day groups (``LedgerRows/daySpending(in:)``), without reading the expenses. A
    /// range without any expense in another currency (most ledgers) reads none of its groups:
    /// one expense asked for tells.
    public func spendingByCurrency(in days: DayInterval) throws(TallyError) -> [CurrencySpending] {
        try reading { (rows: any LedgerRows) throws(TallyError) in
            var probe = ExpenseQuery(days: days)
            probe.inOtherCurrency = true
            probe.limit = 1
            guard try !rows.expenses(probe).isEmpty else { return [] }
            return try rows.daySpending(in: days).byCurrency
        }
    }
}
