import Foundation
import TallyCore

/// Renders a report as JSON with sorted keys and amounts as two-decimal strings, so the output
/// is byte-for-byte stable and no consumer parses money into a float by accident.
public struct JSONRenderer: Sendable {
    public init() {}

    public func render(_ report: MonthlyReport) throws(ReportError) -> String {
        try ListJSON.encode(Document(report)) + "\n"
    }

    private struct Document: Encodable {
        let month: String
        /// The ledger's ISO 4217 code, `null` without one: amounts stay plain decimal strings.
        let currency: ListJSON.Nullable<String>
        /// The period's first and last days, `YYYY-MM-DD`.
        let from, to: String
        let budgets: [BudgetLine]
        let totals: Totals
        let days: [DayLine]
        let top: [TopLine]
        let tags: [TagLine]
        let trend: TrendLine
        /// Only when more than one person spent in the period.
        let people: [PersonLine]?

        init(_ report: MonthlyReport) {
            month = report.month.isoString
            currency = ListJSON.Nullable(report.currency?.code)
            from = report.periodDays.first.isoString
            to = report.periodDays.last.isoString
            budgets = report.budgets.map(BudgetLine.init)
            totals = Totals(report.totals, pace: report.pace)
            days = report.days.map { DayLine(date: $0.day.isoString, spent: $0.spent.plainString, cumulative: $0.cumulative.plainString) }
            top = report.top.map(TopLine.init)
            tags = report.tags.map { TagLine(tag: $0.tag, spent: $0.spent.plainString) }
            trend = TrendLine(report.trend)
            people = report.people.isEmpty ? nil : report.people.map(PersonLine.init)
        }
    }

    /// `by` is `null` for expenses that record no one.
    private struct PersonLine: Encodable {
        let by: ListJSON.Nullable<String>
        let spent: String
        let expenses: Int

        init(_ person: PersonSpending) {
            by = ListJSON.Nullable(person.by.isEmpty ? nil : person.by)
            spent = person.spent.plainString
            expenses = person.expenses
        }
    }

    private struct BudgetLine: Encodable {
        let name, limit, carried, available, spent, remaining, share, status: String
        /// `monthly`, `yearly` or `once`; `from` and `to` are the days the figures cover.
        let period, from, to: String
        let over: Bool
        let expenseCount: Int
        /// The pace, `null` outside the current period (and `projected` before a tenth of it).
        let elapsed, projected, perDay: String?
        /// Only for a budget over or past its warning level.
        let whyOver: WhyOverLine?

        private enum CodingKeys: String, CodingKey {
            case name, limit, carried, available, spent, remaining, share, status, period, from, to, over, expenseCount
            case elapsed, projected, perDay, whyOver
        }

        /// Every key always, the pace's as `null` when there is none.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            for (key, value) in [
                (CodingKeys.name, name), (.limit, limit), (.carried, carried), (.available, available), (.spent, spent),
                (.remaining, remaining), (.share, share), (.status, status), (.period, period), (.from, from), (.to, to),
            ] {
                try container.encode(value, forKey: key)
            }
            try container.encode(over, forKey: .over)
            try container.encode(expenseCount, forKey: .expenseCount)
            try container.encode(elapsed, forKey: .elapsed)
            try container.encode(projected, forKey: .projected)
            try container.encode(perDay, forKey: .perDay)
            try container.encodeIfPresent(whyOver, forKey: .whyOver)
        }

        init(_ line: MonthlyReport.BudgetLine) {
            name = line.name
            period = line.period.rawValue
            from = line.days.first.isoString
            to = line.days.last.isoString
            limit = line.limit.plainString
            carried = line.carried.plainString
            available = line.available.plainString
            spent = line.spent.plainString
            remaining = line.remaining.plainString
            share = line.share.ratioString
            status = line.level.rawValue
            over = line.isOver
            expenseCount = line.expenseCount
            elapsed = line.pace?.elapsed.ratioString
            projected = line.pace?.projected?.plainString
            perDay = line.pace?.perDay.plainString
            whyOver = line.whyOver.map { WhyOverLine($0, name: line.name) }
        }
    }

    /// `summary` is the sentence the text report prints; `change` and `changeShare` (`null`
    /// without earlier spending) compare the period with `earlierAverage`.
    private struct WhyOverLine: Encodable {
        let summary, earlierAverage, change: String
        let changeShare: ListJSON.Nullable<String>
        let largest: [TopLine]
        let grown: [Growth]

        init(_ why: WhyOver, name: String) {
            summary = WhyOverText.sentence(name, why)
            earlierAverage = why.change.base.plainString
            change = why.change.amount.plainString
            changeShare = ListJSON.Nullable(why.change.ratioString)
            largest = why.largest.map { TopLine(MonthlyReport.TopExpense($0, budgetName: name)) }
            grown = why.grown.map(Growth.init)
        }

        struct Growth: Encodable {
            let kind, name, spent, earlierAverage, change: String
            let changeShare: ListJSON.Nullable<String>
            let expenseCount: Int

            init(_ growth: WhyOver.Growth) {
                kind = growth.kind.rawValue
                name = growth.name
                spent = growth.spent.plainString
                earlierAverage = growth.change.base.plainString
                change = growth.change.amount.plainString
                changeShare = ListJSON.Nullable(growth.change.ratioString)
                expenseCount = growth.count
            }
        }
    }

    private struct Totals: Encodable {
        let limit, carried, available, spent, remaining, share, status: String
        let over: Bool
        let expenseCount: Int
        let elapsed, projected, perDay: String?

        private enum CodingKeys: String, CodingKey {
            case limit, carried, available, spent, remaining, share, status, over, expenseCount, elapsed, projected, perDay
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            for (key, value) in [
                (CodingKeys.limit, limit), (.carried, carried), (.available, available), (.spent, spent), (.remaining, remaining),
                (.share, share), (.status, status),
            ] {
                try container.encode(value, forKey: key)
            }
            try container.encode(over, forKey: .over)
            try container.encode(expenseCount, forKey: .expenseCount)
            try container.encode(elapsed, forKey: .elapsed)
            try container.encode(projected, forKey: .projected)
            try container.encode(perDay, forKey: .perDay)
        }

        init(_ totals: MonthlyReport.Totals, pace: MonthlyReport.TotalPace?) {
            elapsed = pace?.elapsed.ratioString
            projected = pace?.projected?.plainString
            perDay = pace?.perDay.plainString
            limit = totals.limit.plainString
            carried = totals.carried.plainString
            available = totals.available.plainString
            spent = totals.spent.plainString
            remaining = totals.remaining.plainString
            share = totals.share.ratioString
            status = totals.level.rawValue
            over = totals.isOver
            expenseCount = totals.expenseCount
        }
    }

    private struct DayLine: Encodable {
        let date, spent, cumulative: String
    }

    private struct TopLine: Encodable {
        let id: Int64?
        let name, budget, date, amount, total: String
        let quantity: Int64
        let tags: [String]

        init(_ expense: MonthlyReport.TopExpense) {
            id = expense.id
            name = expense.name
            budget = expense.budgetName
            date = expense.date.isoString
            amount = expense.amount.plainString
            quantity = expense.quantity
            total = expense.total.plainString
            tags = expense.tags
        }
    }

    private struct TagLine: Encodable {
        let tag, spent: String
    }

    private struct TrendLine: Encodable {
        let months: [String]
        let budgets: [Series]
        let totals: [String]

        struct Series: Encodable {
            let name: String
            let spent: [String]
        }

        init(_ trend: MonthlyReport.Trend) {
            months = trend.months.map(\.isoString)
            budgets = trend.budgets.map { Series(name: $0.name, spent: $0.spent.map(\.plainString)) }
            totals = trend.totals.map(\.plainString)
        }
    }
}
