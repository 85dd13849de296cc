import TallyCore

/// What every renderer of a report over time says in words, in English, the same in every locale.
public enum RangeText {
    /// Under a report with tags as rows.
    public static let tagTotalNote = "An expense with several tags counts in each tag's row; the total counts it once."

    /// `Spending by budget, Jan 2026 – Dec 2026 (12 periods)`.
    public static func title(_ report: RangeReport) -> String {
        let count = report.periods.count
        let span = report.range.first == report.range.last
            ? report.range.first.longName : "\(report.range.first.shortName) \(report.range.first.year) – \(report.range.last.shortName) \(report.range.last.year)"
        return "Spending by \(report.kind.rawValue), \(span) (\(count) period\(count == 1 ? "" : "s"))"
    }

    /// The notes under the table: the tag narrowing it, the comparison, the periods' days when
    /// months do not start on the 1st, how a tag total counts.
    public static func notes(_ report: RangeReport) -> [String] {
        var notes: [String] = []
        if let tag = report.tag { notes.append("Only expenses tagged \(tag).") }
        if let comparison = report.comparison {
            let what = comparison.baseline == .previous ? "the previous \(report.periods.count) period\(report.periods.count == 1 ? "" : "s")" : "the same periods a year earlier"
            notes.append("Base: \(what), \(comparison.range.first.isoString) to \(comparison.range.last.isoString).")
        }
        if let first = report.periods.first, !PeriodText.isCalendarMonth(first.days) {
            notes.append("Periods start on day \(first.days.first.day): \(first.month.isoString) is \(PeriodText.range(first.days)).")
        }
        if report.kind == .tag { notes.append(tagTotalNote) }
        return notes
    }

}

/// Renders a report over time as a terminal table: a row per budget (or tag), a column per
/// period with what was spent and, for a budget, its share of what was available; then the
/// total, the average per period and the share of the range; with a comparison, the base, the
/// change and its percentage (`–` when the base is zero).
public struct RangeTextRenderer: Sendable {
    /// Widest row name before it is shortened with `…`, in terminal columns.
    public var maximumNameWidth: Int
    /// How amounts look: the locale's and the ledger currency's, or ``MoneyFormat/plain``.
    public var money: MoneyFormat

    public init(maximumNameWidth: Int = 28, money: MoneyFormat = .plain) {
        self.maximumNameWidth = maximumNameWidth
        self.money = money
    }

    public func render(_ report: RangeReport) -> String {
        var lines = [RangeText.title(report), ""]
        if report.rows.isEmpty {
            lines.append(report.kind == .budget ? "No budgets to report." : "No tagged expenses in the range.")
        } else {
            lines.append(table(report))
        }
        if report.hasAccounts {
            lines.append("")
            lines.append(moneyInTable(report))
        }
        if !report.byCurrency.isEmpty {
            lines.append("")
            lines += TextRenderer(money: money).currencyTotals(report.byCurrency)
        }
        let notes = RangeText.notes(report)
        if !notes.isEmpty {
            lines.append("")
            lines += notes
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Money in per period, once the ledger has an account: income, every budget's spending,
    /// saved, the savings rate ("n/a" without income) and net worth at the period's end.
    private func moneyInTable(_ report: RangeReport) -> String {
        var table = Table([.left("Money in")] + report.periods.map { .right($0.month.isoString) })
        let figures = report.moneyIn
        table.append(["Income"] + figures.map { money.string($0.income) })
        table.append(["Spending"] + figures.map { money.string($0.spending) })
        table.append(["Saved"] + figures.map { money.string($0.saved) })
        table.append(["Savings rate"] + figures.map { $0.savingsRate?.percentString ?? "n/a" })
        table.append(["Net worth"] + figures.map { $0.netWorth.map(money.string) ?? "n/a" })
        return table.rendered()
    }

    private func table(_ report: RangeReport) -> String {
        let withLimits = report.kind == .budget
        var columns: [Table.Column] = [.left(report.kind == .budget ? "Budget" : "Tag")]
        columns += report.periods.map { .right($0.month.isoString) }
        columns += [.right("Total"), .right("Average")]
        if withLimits { columns.append(.right("Used")) }
        if report.comparison != nil { columns += [.right("Base"), .right("Change"), .right("%")] }
        var table = Table(columns)
        func cells(_ row: RangeReport.Row) -> [String] {
            var cells = [DisplayWidth.truncated(row.name, to: maximumNameWidth)]
            cells += row.cells.map { cell in
                cell.share.map { "\(money.string(cell.spent)) \($0.percentString)" } ?? money.string(cell.spent)
            }
            cells += [money.string(row.total), money.string(row.average)]
            if withLimits { cells.append(row.share?.percentString ?? "") }
            if let change = row.change {
                cells += [money.string(change.base), money.signed(change.amount), change.percentString ?? "–"]
            }
            return cells
        }
        for row in report.rows { table.append(cells(row)) }
        table.append(cells(report.total))
        var lines = table.rendered().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A rule above the total row, as wide as the header's.
        if let rule = lines.dropFirst().first { lines.insert(rule, at: lines.count - 1) }
        return lines.joined(separator: "\n")
    }
}
