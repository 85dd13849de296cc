import TallyCore

/// Why over in words, the same in every format.
public enum WhyOverText {
    /// `Eating out +62.0% against the average of the 3 periods before: 4 expenses tagged
    /// delivery, 78.40, +62.0%; 2 expenses named Pizza, 33.00, new`.
    public static func sentence(_ name: String, _ why: WhyOver, money: MoneyFormat = .plain) -> String {
        let head = head(name, why, money: money)
        guard !why.grown.isEmpty, !isEmpty(why) else { return head }
        return head + ": " + why.grown.map { growth($0, money: money) }.joined(separator: "; ")
    }

    /// The sentence's first part: `Eating out +62.0% against the average of the 3 periods before`.
    /// Without spending in the periods before, the change is the amount (`+165.75`).
    public static func head(_ name: String, _ why: WhyOver, money: MoneyFormat = .plain) -> String {
        if isEmpty(why) { return "\(name): nothing spent in the period itself" }
        let change = why.change.percentString ?? money.signed(why.change.amount)
        let head = "\(name) \(change) against the average of the \(WhyOver.earlierPeriods) periods before"
        return why.grown.isEmpty ? head + "; nothing in it grew" : head
    }

    /// `4 expenses tagged delivery, 78.40, +62.0%`: one group that grew, with its change against
    /// its own average in the periods before, or `new` when it had none.
    public static func growth(_ growth: WhyOver.Growth, money: MoneyFormat = .plain) -> String {
        growth.phrase(money: money) + ", " + (growth.change.percentString ?? "new")
    }

    /// `Birthday dinner 94.00 (2026-11-21)`; a split receipt whole, marked: `Costco 120.00 (2026-11-10, split)`.
    public static func largest(_ expense: Expense, money: MoneyFormat = .plain) -> String {
        "\(expense.name) \(money.string((try? expense.total()) ?? expense.amount)) (\(expense.date.isoString)\(expense.lines.isEmpty ? "" : ", split"))"
    }

    private static func isEmpty(_ why: WhyOver) -> Bool {
        why.change.amount == .zero && why.change.base == .zero
    }
}
