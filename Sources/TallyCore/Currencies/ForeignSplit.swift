/// A split typed against an amount in another currency (`tally add Dinner 4500 JPY --split
/// food=3000 --split drinks=rest`), turned into lines of the ledger-currency expense.
///
/// Rule (the one place it is decided; README "Spending abroad"):
/// - Fixed line amounts are in the amount's currency, in its minor units, as the person read them
///   off the receipt. The shares are checked against the original total (amount × quantity)
///   first, with the rules and errors of any split (``ExpenseLines/allocate(_:total:)``).
/// - Each fixed line is then converted at the expense's rate, half-even
///   (``ExchangeRate/convert(_:into:)``), once: later edits and `rates reapply` keep it in the
///   ledger's currency, as any fixed line. Percentages stay percentages of the converted total.
/// - With a fixed line and no `rest`, the line largest in the original (the first of equals)
///   becomes the `rest`, taking the cents the conversion's rounding leaves, so the lines still
///   sum exactly to the converted total.
extension NamedLine {
    /// ``check(_:total:)`` against `total`, an amount in another currency in its minor units:
    /// its messages write the amounts as that currency does.
    public static func check(_ lines: [NamedLine], total: CurrencyAmount) throws(TallyError) {
        _ = try allocated(lines, total: total)
    }

    /// The lines' amounts of `total` in its currency (``ExpenseLines/allocate(_:total:)``), the
    /// broken rule's amounts written as that currency does.
    private static func allocated(_ lines: [NamedLine], total: CurrencyAmount) throws(TallyError) -> [ExpenseLine] {
        func written(_ money: Money) -> String { CurrencyAmount(minorUnits: money.cents, currency: total.currency).description }
        do {
            return try ExpenseLines.allocate(lines.map { $0.line(budgetID: 0) }, total: Money(cents: total.minorUnits))
        } catch .split(.linesDoNotSum(let sum, let whole)) {
            throw .split(.foreignLinesDoNotFit(lines: written(sum), total: written(whole), rest: false))
        } catch .split(.linesExceedTotal(let sum, let whole)) {
            throw .split(.foreignLinesDoNotFit(lines: written(sum), total: written(whole), rest: true))
        }
    }

    public static func converted(_ lines: [NamedLine], of charge: ForeignCharge, quantity: Int64, into ledger: Currency) throws(TallyError) -> [NamedLine] {
        let original = try allocated(lines, total: try charge.original.multiplied(by: quantity))
        var converted = lines
        for (index, line) in lines.enumerated() {
            guard case .amount(let amount) = line.share else { continue }
            let part = CurrencyAmount(minorUnits: amount.cents, currency: charge.original.currency)
            converted[index].share = .amount(try charge.rate.convert(part, into: ledger))
        }
        let hasFixed = lines.contains { if case .amount = $0.share { true } else { false } }
        if hasFixed, !lines.contains(where: { $0.share == .rest }),
            let largest = original.indices.max(by: { original[$0].amount < original[$1].amount || (original[$0].amount == original[$1].amount && $0 > $1) })
        {
            converted[largest].share = .rest
        }
        return converted
    }
}
