import TallyCore

/// How every renderer words a ``WhyOver``, in English; amounts as the locale writes them.
public enum WhyOverText {
    /// `Eating out +62.0%: 4 expenses tagged delivery, 78.40; 2 expenses named Pizza, 33.00`.
    /// Without spending in the periods before, the change is the amount (`+165.75`).
    public static func sentence(_ name: String, _ why: WhyOver, money: MoneyFormat = .plain) -> String {
        if why.change.amount == .zero, why.change.base == .zero { return "\(name): nothing spent in the period itself" }
        let change = why.change.percentString ?? money.signed(why.change.amount)
        let head = "\(name) \(change) against the average of the \(WhyOver.earlierPeriods) periods before"
        guard !why.grown.isEmpty else { return head + "; nothing in it grew" }
        return head + ": " + why.grown.map { $0.phrase(money: money) }.joined(separator: "; ")
    }

    /// `Birthday dinner 94.00 (2026-11-21)`.
    public static func largest(_ expense: Expense, money: MoneyFormat = .plain) -> String {
        "\(expense.name) \(money.string((try? expense.total()) ?? expense.amount)) (\(expense.date.isoString))"
    }
}
