import TallyCore

/// Renders a report as JSON with sorted keys and amounts as two-decimal strings, so the output
/// is byte-for-byte stable and no consumer parses money into a float by accident. The document
/// is a ``JSONValue``, written as `ListJSON.encode` writes every other `--json` output.
public struct JSONRenderer: Sendable {
    public init() {}

    public func render(_ report: MonthlyReport) -> String {
        Self.document(report).text + "\n"
    }

    /// `currency` is the ledger's ISO 4217 code, `null` without one: amounts stay plain decimal
    /// strings. `from` and `to` are the period's first and last days, `YYYY-MM-DD`. `people` is
    /// there only when more than one person spent in the period. `income`, `saved` (income −
    /// `totals.spent`), `savingsRate` (saved ÷ income, `null` without income), `netWorth` (`null`
    /// when no account has a balance at the period's end) and `unbudgeted` (income −
    /// `totals.available`) are always there, accounts or not.
    static func document(_ report: MonthlyReport) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("month", .string(report.month.isoString)),
            ("currency", .string(report.currency?.code)),
            ("from", .string(report.periodDays.first.isoString)),
            ("to", .string(report.periodDays.last.isoString)),
            ("budgets", .array(report.budgets.map(budget))),
            ("totals", totals(report.totals, pace: report.pace)),
            ("days", .array(report.days.map { day in
                .object([("date", .string(day.day.isoString)), ("spent", .string(day.spent.plainString)), ("cumulative", .string(day.cumulative.plainString))])
            })),
            ("top", .array(report.top.map(top))),
            ("tags", .array(report.tags.map { .object([("tag", .string($0.tag)), ("spent", .string($0.spent.plainString))]) })),
            ("trend", trend(report.trend)),
            ("income", .string(report.moneyIn.income.plainString)),
            ("saved", .string(report.moneyIn.saved.plainString)),
            ("savingsRate", .string(report.moneyIn.savingsRate?.ratioString)),
            ("netWorth", .string(report.moneyIn.netWorth?.plainString)),
            ("unbudgeted", .string(report.unbudgeted.plainString)),
        ]
        if !report.people.isEmpty { members.append(("people", .array(report.people.map(person)))) }
        if !report.byCurrency.isEmpty { members.append(("byCurrency", .array(report.byCurrency.map(currencySpending)))) }
        return .object(members)
    }

    /// `original` in the currency's own decimals, `amount` its ledger-currency equivalent.
    static func currencySpending(_ spending: CurrencySpending) -> JSONValue {
        .object([
            ("currency", .string(spending.original.currency.code)), ("original", .string(spending.original.plainString)),
            ("amount", .string(spending.converted.plainString)), ("expenses", .int(Int64(spending.expenseCount))),
        ])
    }

    /// `by` is `null` for expenses that record no one.
    private static func person(_ person: PersonSpending) -> JSONValue {
        .object([("by", .string(person.by.isEmpty ? nil : person.by)), ("spent", .string(person.spent.plainString)), ("expenses", .int(Int64(person.expenses)))])
    }

    /// `period` is `monthly`, `yearly` or `once`; `from` and `to` are the days the figures
    /// cover. The pace is `null` outside the current period (and `projected` before a tenth of
    /// it); `whyOver` is there only for a budget over or past its warning level, `goal` only
    /// for one with a target.
    private static func budget(_ line: MonthlyReport.BudgetLine) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(line.name)), ("period", .string(line.period.rawValue)),
            ("from", .string(line.days.first.isoString)), ("to", .string(line.days.last.isoString)),
        ]
        members += figures(
            limit: line.limit, carried: line.carried, available: line.available, spent: line.spent, remaining: line.remaining,
            share: line.share, level: line.level, over: line.isOver, expenseCount: line.expenseCount,
            elapsed: line.pace?.elapsed, projected: line.pace?.projected, perDay: line.pace?.perDay)
        // A budget in its own currency: its code (its figures are in it) and its ledger spending.
        if let currency = line.currency { members.append(("currency", .string(currency.code))) }
        if let ledgerSpent = line.ledgerSpent { members.append(("ledgerSpent", .string(ledgerSpent.plainString))) }
        if let why = line.whyOver { members.append(("whyOver", whyOver(why, name: line.name))) }
        if let goal = line.goal { members.append(("goal", Self.goal(GoalJSON(goal, period: line.period, account: line.goalAccount)))) }
        return .object(members)
    }

    /// A budget's goal, in the keys and order of ``GoalJSON``.
    private static func goal(_ goal: GoalJSON) -> JSONValue {
        .object([
            ("target", .string(goal.target)), ("targetBy", .string(goal.targetBy)), ("every", .string(goal.every)),
            ("funded", .string(goal.funded)), ("needed", .string(goal.needed)), ("status", .string(goal.status)),
            ("shortfall", .string(goal.shortfall)), ("periodsLeft", goal.periodsLeft.map { .int(Int64($0)) } ?? .null),
            ("account", .string(goal.account)), ("accountBalance", .string(goal.accountBalance)),
        ])
    }

    /// Every key always, the pace's as `null` when there is none.
    private static func totals(_ totals: MonthlyReport.Totals, pace: MonthlyReport.TotalPace?) -> JSONValue {
        .object(figures(
            limit: totals.limit, carried: totals.carried, available: totals.available, spent: totals.spent, remaining: totals.remaining,
            share: totals.share, level: totals.level, over: totals.isOver, expenseCount: totals.expenseCount,
            elapsed: pace?.elapsed, projected: pace?.projected, perDay: pace?.perDay))
    }

    /// The figures a budget line and the totals share.
    private static func figures(
        limit: Money, carried: Money, available: Money, spent: Money, remaining: Money, share: Share, level: BudgetLevel,
        over: Bool, expenseCount: Int, elapsed: Share?, projected: Money?, perDay: Money?
    ) -> [(String, JSONValue)] {
        [
            ("limit", .string(limit.plainString)), ("carried", .string(carried.plainString)),
            ("available", .string(available.plainString)), ("spent", .string(spent.plainString)),
            ("remaining", .string(remaining.plainString)), ("share", .string(share.ratioString)),
            ("status", .string(level.rawValue)), ("over", .bool(over)), ("expenseCount", .int(Int64(expenseCount))),
            ("elapsed", .string(elapsed?.ratioString)), ("projected", .string(projected?.plainString)),
            ("perDay", .string(perDay?.plainString)),
        ]
    }

    /// `summary` is the sentence the text report prints; `change` and `changeShare` (`null`
    /// without earlier spending) compare the period with `earlierAverage`.
    private static func whyOver(_ why: WhyOver, name: String) -> JSONValue {
        .object([
            ("summary", .string(WhyOverText.sentence(name, why))),
            ("earlierAverage", .string(why.change.base.plainString)),
            ("change", .string(why.change.amount.plainString)),
            ("changeShare", .string(why.change.ratioString)),
            ("largest", .array(why.largest.map { top(MonthlyReport.TopExpense($0, budgetName: name)) })),
            ("grown", .array(why.grown.map { growth in
                .object([
                    ("kind", .string(growth.kind.rawValue)), ("name", .string(growth.name)),
                    ("spent", .string(growth.spent.plainString)), ("earlierAverage", .string(growth.change.base.plainString)),
                    ("change", .string(growth.change.amount.plainString)), ("changeShare", .string(growth.change.ratioString)),
                    ("expenseCount", .int(Int64(growth.count))),
                ])
            })),
        ])
    }

    /// `id` is there only for a saved expense.
    private static func top(_ expense: MonthlyReport.TopExpense) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(expense.name)), ("budget", .string(expense.budgetName)), ("date", .string(expense.date.isoString)),
            ("amount", .string(expense.amount.plainString)), ("quantity", .int(expense.quantity)),
            ("total", .string(expense.total.plainString)), ("tags", .array(expense.tags.map { .string($0) })),
        ]
        if let id = expense.id { members.append(("id", .int(id))) }
        return .object(members)
    }

    private static func trend(_ trend: MonthlyReport.Trend) -> JSONValue {
        .object([
            ("months", .array(trend.months.map { .string($0.isoString) })),
            ("budgets", .array(trend.budgets.map { series in
                .object([("name", .string(series.name)), ("spent", .array(series.spent.map { .string($0.plainString) }))])
            })),
            ("totals", .array(trend.totals.map { .string($0.plainString) })),
        ])
    }
}
