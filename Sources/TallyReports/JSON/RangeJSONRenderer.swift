import TallyCore

/// Renders a report over time as JSON: `from`, `to`, `periods` (`{period, from, to, income,
/// spending, saved, savingsRate, netWorth}`: ``MoneyIn``, always there; `savingsRate` `null`
/// without income, `netWorth` `null` when no account has a balance at the period's end), `rows`
/// (`{name, periods: [{period, spent, available, share}], total, average}`) and `total` in the
/// same shape. Amounts are strings as everywhere; a tag has no limit, so its `available` and
/// `share` are `null`. A comparison adds `compare` (the base range) and, to each row, `base`,
/// `change` and `changeShare` (`null` when the base is zero).
public struct RangeJSONRenderer: Sendable {
    public init() {}

    public func render(_ report: RangeReport) throws(ReportError) -> String {
        try ListJSON.encode(Document(report)) + "\n"
    }

    private struct Document: Encodable {
        let from, to, by: String
        /// The ledger's ISO 4217 code, `null` without one.
        let currency: String?
        let tag: String?
        let periods: [PeriodLine]
        let rows: [RowLine]
        let total: RowLine
        let compare: CompareLine?
        /// Says how the total counts an expense with several tags.
        let note: String?
        /// Spending in other currencies over the range; left out when there is none.
        let byCurrency: [CurrencyLine]?

        struct CurrencyLine: Encodable {
            let currency: String
            let original: String
            let amount: String
            let expenses: Int
        }

        init(_ report: RangeReport) {
            from = report.range.first.isoString
            to = report.range.last.isoString
            by = report.kind.rawValue
            currency = report.currency?.code
            tag = report.tag
            periods = report.periods.enumerated().map { index, period in
                PeriodLine(
                    period: period.month.isoString, from: period.days.first.isoString, to: period.days.last.isoString,
                    money: index < report.moneyIn.count ? report.moneyIn[index] : .none)
            }
            rows = report.rows.map { RowLine($0, report) }
            total = RowLine(report.total, report)
            compare = report.comparison.map {
                CompareLine(baseline: $0.baseline.rawValue, from: $0.range.first.isoString, to: $0.range.last.isoString)
            }
            note = report.kind == .tag ? RangeText.tagTotalNote : nil
            byCurrency = report.byCurrency.isEmpty ? nil : report.byCurrency.map {
                CurrencyLine(currency: $0.original.currency.code, original: $0.original.plainString, amount: $0.converted.plainString, expenses: $0.expenseCount)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
            try container.encode(by, forKey: .by)
            try container.encode(currency, forKey: .currency)
            try container.encodeIfPresent(tag, forKey: .tag)
            try container.encode(periods, forKey: .periods)
            try container.encode(rows, forKey: .rows)
            try container.encode(total, forKey: .total)
            try container.encodeIfPresent(compare, forKey: .compare)
            try container.encodeIfPresent(note, forKey: .note)
            try container.encodeIfPresent(byCurrency, forKey: .byCurrency)
        }

        enum Keys: String, CodingKey {
            case from, to, by, currency, tag, periods, rows, total, compare, note, byCurrency
        }
    }

    private struct PeriodLine: Encodable {
        let period, from, to: String
        let income, spending, saved: String
        let savingsRate, netWorth: ListJSON.Nullable<String>

        init(period: String, from: String, to: String, money: MoneyIn) {
            self.period = period
            self.from = from
            self.to = to
            income = money.income.plainString
            spending = money.spending.plainString
            saved = money.saved.plainString
            savingsRate = ListJSON.Nullable(money.savingsRate?.ratioString)
            netWorth = ListJSON.Nullable(money.netWorth?.plainString)
        }
    }

    private struct CompareLine: Encodable {
        let baseline, from, to: String
    }

    private struct CellLine: Encodable {
        let period, spent: String
        let available, share: ListJSON.Nullable<String>
    }

    private struct RowLine: Encodable {
        let name, total, average: String
        let periods: [CellLine]
        let base, change, changeShare: String?
        let compared: Bool

        init(_ row: RangeReport.Row, _ report: RangeReport) {
            name = row.name
            total = row.total.plainString
            average = row.average.plainString
            periods = zip(report.periods, row.cells).map { period, cell in
                CellLine(
                    period: period.month.isoString, spent: cell.spent.plainString, available: ListJSON.Nullable(cell.available?.plainString),
                    share: ListJSON.Nullable(cell.share?.ratioString))
            }
            base = row.change?.base.plainString
            change = row.change?.amount.plainString
            changeShare = row.change?.ratioString
            compared = report.comparison != nil
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
            try container.encode(periods, forKey: .periods)
            try container.encode(total, forKey: .total)
            try container.encode(average, forKey: .average)
            guard compared else { return }
            try container.encode(base, forKey: .base)
            try container.encode(change, forKey: .change)
            try container.encode(changeShare, forKey: .changeShare)
        }

        enum Keys: String, CodingKey {
            case name, periods, total, average, base, change, changeShare
        }
    }
}
