import TallyCore

extension ListRenderers {
    /// `rates list`: one line per rate, by day; the rate reads "one FROM is RATE TO".
    public static func ratesAsTable(_ rates: [DayRate]) -> String {
        var table = Table([.left("Date"), .left("From"), .left("To"), .right("Rate")])
        for rate in rates { table.append([rate.day.isoString, rate.from.code, rate.to.code, rate.rate.plainString]) }
        return table.rendered()
    }

    /// `rates reapply`: each budget's spending on the changed expenses before and after, then a total line.
    public static func reapplication(
        _ outcome: RateReapplication, budgetNames: [Int64: String], dryRun: Bool, money: MoneyFormat = .plain
    ) -> String {
        let verb = dryRun ? "would change" : "changed"
        guard !outcome.changes.isEmpty || !outcome.incomes.isEmpty else {
            return "No expense's rate \(verb): each already has the table's rate on its day."
        }
        guard !outcome.changes.isEmpty else { return incomesLine(outcome.incomes, verb: verb, money: money) + (dryRun ? "; nothing was written." : "; 'tally undo' takes it back.") }
        var table = Table([.left("Budget"), .right("Expenses"), .right("Before"), .right("After"), .right("Change")])
        let rows = outcome.byBudget.map { (name: budgetNames[$0.key] ?? "#\($0.key)", id: $0.key, figures: $0.value) }
            .sorted { $0.name < $1.name }
        for row in rows {
            // A split counts in each of its lines' budgets, as its spending does.
            let count = outcome.changes.filter { $0.before.counts(in: row.id) }.count
            let change = (try? row.figures.after - row.figures.before).map { money.signed($0) } ?? "?"
            table.append([row.name, String(count), money.string(row.figures.before), money.string(row.figures.after), change])
        }
        let count = outcome.changes.count
        let incomes = outcome.incomes.isEmpty ? "" : "\n" + incomesLine(outcome.incomes, verb: verb, money: money)
        return table.rendered() + "\n\(count) expense\(count == 1 ? "" : "s") \(verb) to the rate table's rate on \(count == 1 ? "its" : "their") day"
            + incomes + (dryRun ? "; nothing was written." : "; 'tally undo' takes it back.")
    }

    /// `2 incomes changed: 3,200.00 before, 3,210.50 after (+10.50)`.
    private static func incomesLine(_ changes: [IncomeRateChange], verb: String, money: MoneyFormat) -> String {
        var before = Money.zero
        var after = Money.zero
        for change in changes {
            before = (try? before + change.before.amount) ?? before
            after = (try? after + change.after.amount) ?? after
        }
        let difference = (try? after - before).map { money.signed($0) } ?? "?"
        let count = changes.count
        return "\(count) income\(count == 1 ? "" : "s") \(verb): \(money.string(before)) before, \(money.string(after)) after (\(difference))"
    }
}

extension ListJSON {
    /// `rates list --json`: `rate` as exact decimal text, one `from` worth `rate` `to`.
    public struct RateItem: Encodable, Sendable {
        public var date: String
        public var from: String
        public var to: String
        public var rate: String

        public init(_ rate: DayRate) {
            date = rate.day.isoString
            from = rate.from.code
            to = rate.to.code
            self.rate = rate.rate.plainString
        }
    }

    /// `rates reapply --json`: each changed expense's id, amounts and rates before and after;
    /// then each changed income's, with `income: true` and its `account` in place of `budget`.
    public struct RateChangeItem: Encodable, Sendable {
        public var id: Int64
        public var budget: String?
        public var income: Bool?
        public var account: String?
        public var before: String
        public var after: String
        public var rateBefore: String
        public var rateAfter: String

        public init(_ change: RateChange, budgetName: String) {
            id = change.before.id ?? 0
            budget = budgetName
            before = change.before.amount.plainString
            after = change.after.amount.plainString
            rateBefore = change.before.foreign?.rate.plainString ?? ""
            rateAfter = change.after.foreign?.rate.plainString ?? ""
        }

        public init(_ change: IncomeRateChange, accountName: String) {
            id = change.before.id ?? 0
            income = true
            account = accountName
            before = change.before.amount.plainString
            after = change.after.amount.plainString
            rateBefore = change.before.foreign?.rate.plainString ?? ""
            rateAfter = change.after.foreign?.rate.plainString ?? ""
        }
    }
}
