import TallyCore

/// Renders `tally prices` as a table, or as JSON with the report vocabulary: per period
/// `period`, `from`, `to`, `expenseCount`, `quantity`, `average`, `lowest`, `highest`, and
/// `change` with `changeShare` against the first period.
public enum PriceRenderers {
    public static func text(_ report: PriceReport, money: MoneyFormat = .plain) -> String {
        let count = report.range.count
        var lines = [
            "Unit prices of \(quoted(report.search)), \(report.range.first.isoString) to \(report.range.last.isoString) (\(count) period\(count == 1 ? "" : "s"))",
            "",
        ]
        guard let overall = report.overall else {
            lines.append("No expense named like \(quoted(report.search)) in the range.")
            return lines.joined(separator: "\n") + "\n"
        }
        var table = Table([.left("Period"), .right("Expenses"), .right("Quantity"), .right("Average"), .right("Lowest"), .right("Highest"), .right("Change"), .right("%")])
        for line in report.lines {
            let figures = line.figures
            table.append([
                line.month.isoString, String(figures.expenseCount), String(figures.quantity), money.string(figures.average),
                money.string(figures.lowest), money.string(figures.highest), money.signed(line.change.amount),
                line.change.percentString ?? "–",
            ])
        }
        table.append(["All", String(overall.expenseCount), String(overall.quantity), money.string(overall.average),
                      money.string(overall.lowest), money.string(overall.highest)])
        lines.append(table.rendered())
        lines.append("")
        lines.append("Average: what was paid per unit, weighted by quantity, to the nearest cent. Change: against \(report.lines[0].month.isoString).")
        return lines.joined(separator: "\n") + "\n"
    }

    public static func json(_ report: PriceReport) throws(ReportError) -> String {
        try ListJSON.encode(Document(report)) + "\n"
    }

    private struct Document: Encodable {
        let search, from, to: String
        let periods: [Line]
        let overall: ListJSON.Nullable<Figures>

        init(_ report: PriceReport) {
            search = report.search
            from = report.range.first.isoString
            to = report.range.last.isoString
            periods = report.lines.map(Line.init)
            overall = ListJSON.Nullable(report.overall.map(Figures.init))
        }
    }

    private struct Figures: Encodable, Sendable {
        let average, lowest, highest: String
        let quantity: Int64
        let expenseCount: Int

        init(_ figures: UnitPriceFigures) {
            average = figures.average.plainString
            lowest = figures.lowest.plainString
            highest = figures.highest.plainString
            quantity = figures.quantity
            expenseCount = figures.expenseCount
        }
    }

    private struct Line: Encodable {
        let period, from, to, average, lowest, highest, change: String
        let changeShare: ListJSON.Nullable<String>
        let quantity: Int64
        let expenseCount: Int

        init(_ line: PriceReport.Line) {
            period = line.month.isoString
            from = line.days.first.isoString
            to = line.days.last.isoString
            average = line.figures.average.plainString
            lowest = line.figures.lowest.plainString
            highest = line.figures.highest.plainString
            change = line.change.amount.plainString
            changeShare = ListJSON.Nullable(line.change.ratioString)
            quantity = line.figures.quantity
            expenseCount = line.figures.expenseCount
        }
    }
}
