import Foundation
import TallyCore

/// Draws a report over time with libgd: a bar per period stacked by budget (or tag), each
/// period's total available as a line across its bar, a legend, once the ledger has an account
/// the net worth and savings rate panels (``MoneyInChart``), and the report's table under it.
///
/// The picture grows with the report instead of shrinking it: 24 periods and 30 budgets make a
/// wide, tall image whose every label stays at a readable size.
public struct RangePNGRenderer: Sendable {
    public var scale: Int
    /// How amounts look: the locale's and the ledger currency's, or ``MoneyFormat/plain``.
    public var money: MoneyFormat = .plain

    public init(scale: Int = 1, money: MoneyFormat = .plain) {
        self.money = money
        self.scale = scale
    }

    /// The whole picture: title, chart, legend and table.
    public func render(_ report: RangeReport) throws(ReportError) -> Data {
        let layout = RangeLayout(report: report, withTable: true)
        let canvas = try Canvas(width: layout.width, height: layout.height, scale: scale, background: Palette.background)
        let painter = RangePainter(report: report, layout: layout, canvas: canvas, money: money)
        painter.header()
        painter.chart()
        painter.legend()
        painter.moneyIn()
        painter.table()
        return try canvas.pngData()
    }

    /// The chart and its legend alone, as the HTML page embeds it above its own table.
    public func renderChart(_ report: RangeReport) throws(ReportError) -> Data {
        let layout = RangeLayout(report: report, withTable: false)
        let canvas = try Canvas(width: layout.width, height: layout.height, scale: scale, background: Palette.background)
        let painter = RangePainter(report: report, layout: layout, canvas: canvas, money: money)
        painter.chart()
        painter.legend()
        painter.moneyIn()
        return try canvas.pngData()
    }
}

/// Where everything of a report over time goes, in points.
struct RangeLayout {
    static let margin = 32.0
    static let nameWidth = 170.0
    static let columnWidth = 74.0
    static let rowHeight = 22.0
    static let legendItemWidth = 180.0
    /// "By currency" under the table: its title's gap, then a line per currency.
    static let currencyGap = 30.0
    static let currencyLineHeight = 22.0
    static let seriesColors: [Color] = [
        Color(0x2F6FDE), Color(0xE39B2D), Color(0x2E9E6B), Color(0x9B59B6), Color(0xD64545), Color(0x17A2B8),
        Color(0x8C6D3F), Color(0xE377C2), Color(0x5B6B7C), Color(0xBCBD22), Color(0x1F4E9C), Color(0xF28E2B),
    ]

    let width: Double
    let height: Double
    let chart: Rect
    let legendTop: Double
    let legendColumns: Int
    /// The net worth and savings rate panels, once the ledger has an account.
    let moneyChart: Rect?
    let tableTop: Double
    /// The columns after the names: one per period, then total and average.
    let columnCount: Int

    init(report: RangeReport, withTable: Bool) {
        let margin = Self.margin
        columnCount = report.periods.count + 2
        width = max(960, margin * 2 + Self.nameWidth + Double(columnCount) * Self.columnWidth)
        let top = withTable ? 110.0 : 20.0
        chart = Rect(x: margin, y: top, width: width - margin * 2, height: 320)
        legendTop = chart.maxY + 24
        legendColumns = max(1, Int((width - margin * 2) / Self.legendItemWidth))
        let legendRows = (report.rows.count + legendColumns - 1) / legendColumns
        let legendBottom = legendTop + Double(legendRows) * 20 + 24
        moneyChart = report.hasAccounts ? Rect(x: margin, y: legendBottom, width: width - margin * 2, height: MoneyInChart.height) : nil
        tableTop = legendBottom + (moneyChart.map { $0.height + 24 } ?? 0)
        // The header, the rows and the total; then a gap and five money-in rows with an account.
        let tableRows = Double(report.rows.count + 2 + (report.hasAccounts ? 6 : 0))
        let notes = Double(RangeText.notes(report).count)
        let currencies = report.byCurrency.isEmpty ? 0 : Self.currencyGap + Double(report.byCurrency.count) * Self.currencyLineHeight
        height = withTable ? tableTop + tableRows * Self.rowHeight + 16 + notes * 18 + currencies + margin : tableTop
    }

    static func color(ofRow index: Int) -> Color { seriesColors[index % seriesColors.count] }
}

/// Paints the parts of a ``RangeLayout`` on a canvas.
struct RangePainter {
    let report: RangeReport
    let layout: RangeLayout
    let canvas: Canvas
    let money: MoneyFormat

    func header() {
        let margin = RangeLayout.margin
        canvas.text("REPORT OVER TIME", x: margin, y: 46, size: 11, Palette.muted, weight: .bold)
        canvas.text(RangeText.title(report), x: margin, y: 80, size: 22, Palette.ink, weight: .bold)
        let spent = "Spent \(money.string(report.total.total))"
        let available = report.total.available.map { " of \(money.string($0)) available" } ?? ""
        canvas.text(spent + available, x: layout.width - margin, y: 80, size: 13, Palette.muted, anchor: .trailing)
    }

    func chart() {
        let frame = layout.chart
        let limits = report.total.cells.compactMap(\.available)
        let highest = (report.total.cells.map(\.spent.cents) + limits.map(\.cents)).max() ?? 0
        let axis = Axis(maximum: highest)
        let labelWidth = axis.ticks.map { Typesetter.layout.width(of: Axis.compact($0), size: 11) }.max() ?? 0
        let plot = Rect(x: frame.x + labelWidth + 8, y: frame.y + 8, width: frame.width - labelWidth - 8, height: frame.height - 36)
        for tick in axis.ticks {
            let y = plot.maxY - plot.height * axis.fraction(of: tick)
            canvas.line(from: (plot.x, y), to: (plot.maxX, y), tick == 0 ? Palette.muted : Palette.grid)
            canvas.text(Axis.compact(tick), x: plot.x - 8, y: y + 4, size: 11, Palette.muted, anchor: .trailing)
        }
        let count = max(report.periods.count, 1)
        let slot = plot.width / Double(count)
        let barWidth = max(4, min(48, slot * 0.62))
        // Label every period while they fit, else every second, third… and always the last.
        let every = max(1, Int((46 / slot).rounded(.up)))
        for (index, period) in report.periods.enumerated() {
            let center = plot.x + slot * (Double(index) + 0.5)
            var base = plot.maxY
            // The total row's spending is what the bar stacks up to; with tags as rows an expense
            // with two tags would stack twice, so each tag's share of the bar is scaled to it.
            let rowsSum = report.rows.reduce(Int64(0)) { $0 + $1.cells[index].spent.cents }
            let scale = rowsSum > 0 ? Double(report.total.cells[index].spent.cents) / Double(rowsSum) : 0
            for (rowIndex, row) in report.rows.enumerated() {
                let cents = Double(row.cells[index].spent.cents) * scale
                guard cents > 0 else { continue }
                let height = plot.height * min(1, cents / Double(axis.top))
                canvas.fill(Rect(x: center - barWidth / 2, y: base - height, width: barWidth, height: height), RangeLayout.color(ofRow: rowIndex))
                base -= height
            }
            if let available = report.total.cells[index].available, available.cents > 0 {
                let y = plot.maxY - plot.height * axis.fraction(of: available.cents)
                canvas.line(from: (center - slot * 0.45, y), to: (center + slot * 0.45, y), Palette.ink, width: 2)
            }
            if index % every == 0 || index == report.periods.count - 1 {
                canvas.text(Self.shortLabel(period.month), x: center, y: plot.maxY + 18, size: 11, Palette.muted, anchor: .center)
            }
        }
        if report.kind == .budget, !limits.isEmpty {
            canvas.line(from: (plot.maxX - 150, frame.maxY - 4), to: (plot.maxX - 126, frame.maxY - 4), Palette.ink, width: 2)
            canvas.text("available", x: plot.maxX - 120, y: frame.maxY, size: 11, Palette.muted)
        }
    }

    func moneyIn() {
        if let frame = layout.moneyChart { MoneyInChart(report: report, canvas: canvas).draw(in: frame) }
    }

    func legend() {
        let margin = RangeLayout.margin
        for (index, row) in report.rows.enumerated() {
            let x = margin + Double(index % layout.legendColumns) * RangeLayout.legendItemWidth
            let y = layout.legendTop + Double(index / layout.legendColumns) * 20
            canvas.fillRounded(Rect(x: x, y: y - 10, width: 12, height: 12), radius: 3, RangeLayout.color(ofRow: index))
            let name = Typesetter.layout.fitted(row.name, maximumWidth: RangeLayout.legendItemWidth - 28, size: 12)
            canvas.text(name, x: x + 18, y: y, size: 12, Palette.ink)
        }
    }

    func table() {
        let margin = RangeLayout.margin
        let column = RangeLayout.columnWidth
        let top = layout.tableTop
        let first = margin + RangeLayout.nameWidth
        let headers = report.periods.map { Self.shortLabel($0.month) } + ["Total", "Average"]
        canvas.text(report.kind == .budget ? "Budget" : "Tag", x: margin, y: top, size: 11, Palette.muted, weight: .bold)
        for (index, header) in headers.enumerated() {
            canvas.text(header, x: first + Double(index + 1) * column - 6, y: top, size: 11, Palette.muted, weight: .bold, anchor: .trailing)
        }
        let rows = report.rows + [report.total]
        for (rowIndex, row) in rows.enumerated() {
            let isTotal = rowIndex == report.rows.count
            let y = top + Double(rowIndex + 1) * RangeLayout.rowHeight
            canvas.line(from: (margin, y - 15), to: (layout.width - margin, y - 15), isTotal ? Palette.muted : Palette.grid)
            let weight: Weight = isTotal ? .bold : .regular
            canvas.text(Typesetter.layout.fitted(row.name, maximumWidth: RangeLayout.nameWidth - 10, size: 12, weight: weight), x: margin, y: y, size: 12, Palette.ink, weight: weight)
            for (index, cell) in row.cells.enumerated() where cell.spent.cents != 0 {
                let tone = row.level(at: index) == .over ? Palette.over : Palette.ink
                canvas.text(amount(cell.spent, weight), x: first + Double(index + 1) * column - 6, y: y, size: 11, tone, weight: weight, anchor: .trailing)
            }
            for (offset, value) in [row.total, row.average].enumerated() {
                canvas.text(amount(value, weight), x: first + Double(row.cells.count + offset + 1) * column - 6, y: y, size: 11, Palette.ink, weight: .bold, anchor: .trailing)
            }
        }
        var y = top + Double(rows.count + 1) * RangeLayout.rowHeight
        if report.hasAccounts {
            y += RangeLayout.rowHeight
            let figures = report.moneyIn
            let lines: [(String, [String])] = [
                ("Income", figures.map { amount($0.income, .regular) }),
                ("Spending", figures.map { amount($0.spending, .regular) }),
                ("Saved", figures.map { amount($0.saved, .regular) }),
                ("Savings rate", figures.map { $0.savingsRate?.percentString ?? "n/a" }),
                ("Net worth", figures.map { $0.netWorth.map { amount($0, .regular) } ?? "n/a" }),
            ]
            for (name, values) in lines {
                canvas.line(from: (margin, y - 15), to: (layout.width - margin, y - 15), Palette.grid)
                canvas.text(name, x: margin, y: y, size: 12, Palette.ink)
                for (index, value) in values.enumerated() {
                    canvas.text(value, x: first + Double(index + 1) * column - 6, y: y, size: 11, Palette.ink, anchor: .trailing)
                }
                y += RangeLayout.rowHeight
            }
        }
        for note in RangeText.notes(report) {
            canvas.text(note, x: margin, y: y, size: 11, Palette.muted)
            y += 18
        }
        currencies(below: y)
    }

    /// Spending in other currencies over the whole range, as the month's picture draws it.
    private func currencies(below top: Double) {
        guard !report.byCurrency.isEmpty else { return }
        let margin = RangeLayout.margin
        var y = top + RangeLayout.currencyGap - 8
        canvas.text("By currency", x: margin, y: y, size: 15, Palette.ink, weight: .bold)
        for entry in report.byCurrency {
            y += RangeLayout.currencyLineHeight
            let text = Typesetter.layout.fitted(DashboardLayout.currencyText(entry, money: money), maximumWidth: layout.width - margin * 2, size: 12)
            canvas.text(text, x: margin, y: y, size: 12, Palette.ink)
        }
    }

    /// An amount that fits its column: grouped, else compact (`12k`).
    private func amount(_ value: Money, _ weight: Weight) -> String {
        let text = money.string(value)
        return Typesetter.layout.width(of: text, size: 11, weight: weight) <= RangeLayout.columnWidth - 10 ? text : Axis.compact(value.cents)
    }

    /// `Jan 26`.
    static func shortLabel(_ month: Month) -> String {
        "\(month.shortName) \(String(month.year % 100).count == 1 ? "0" : "")\(month.year % 100)"
    }
}
