import Foundation
import TallyCore

/// The dashboard's colours, public so tests can look for them in the pixels.
public enum Palette {
    public static let background = Color(0xFFFFFF)
    public static let card = Color(0xF4F6F9)
    public static let ink = Color(0x1F2933)
    public static let muted = Color(0x66788A)
    public static let grid = Color(0xE3E8EE)
    public static let track = Color(0xE9EDF2)
    public static let spent = Color(0x2F6FDE)
    public static let spentTint = Color(0xDCE7FA)
    public static let pastMonth = Color(0xB3C9F2)
    public static let near = Color(0xE39B2D)
    public static let over = Color(0xD64545)
    public static let pace = Color(0x8A97A6)

    /// The bar colour for a budget's ``BudgetLevel``: red when over, amber when near, blue otherwise.
    public static func bar(for line: MonthlyReport.BudgetLine) -> Color {
        switch line.level {
        case .over: over
        case .near: near
        case .ok: spent
        }
    }
}

/// Draws a report as one PNG dashboard with libgd: the period's name and dates, summary cards, a
/// bar per budget against what it had available, the period's cumulative spending against an
/// even pace, and the six-period trend.
public struct PNGRenderer: Sendable {
    public enum Chart: Sendable {
        case cumulative, trend
    }

    /// 1 for normal screens, 2 for high-density ones: the same picture at twice the pixels.
    public var scale: Int
    /// How amounts look: the locale's and the ledger currency's, or ``MoneyFormat/plain``.
    public var money: MoneyFormat

    public init(scale: Int = 1, money: MoneyFormat = .plain) {
        self.scale = scale
        self.money = money
    }

    public func render(_ report: MonthlyReport) throws(ReportError) -> Data {
        let layout = DashboardLayout(report: report, money: money)
        let canvas = try Canvas(width: DashboardLayout.width, height: layout.height, scale: scale, background: Palette.background)
        drawHeader(report, layout, on: canvas)
        drawBudgets(report, layout, on: canvas)
        ChartPainter(report: report, canvas: canvas, money: money).cumulative(in: layout.cumulativeChart)
        ChartPainter(report: report, canvas: canvas, money: money).trend(in: layout.trendChart)
        drawWhyOver(layout, on: canvas)
        drawGoals(layout, on: canvas)
        drawCurrencies(layout, on: canvas)
        return try canvas.pngData()
    }

    /// Each goal's line, a budget behind its goal in the warning colour.
    private func drawGoals(_ layout: DashboardLayout, on canvas: Canvas) {
        guard let titleY = layout.goalsTitleY else { return }
        canvas.text("Goals", x: DashboardLayout.margin, y: titleY, size: 15, Palette.ink, weight: .bold)
        for line in layout.goalLines {
            canvas.text(
                line.text, x: DashboardLayout.margin, y: line.baseline, size: DashboardLayout.amountSize,
                line.progress == .behind ? Palette.near : Palette.ink)
        }
    }

    /// Spending in other currencies, as the text report's "By currency" gives it.
    private func drawCurrencies(_ layout: DashboardLayout, on canvas: Canvas) {
        guard let titleY = layout.currenciesTitleY else { return }
        canvas.text("By currency", x: DashboardLayout.margin, y: titleY, size: 15, Palette.ink, weight: .bold)
        for line in layout.currencyLines {
            canvas.text(line.text, x: DashboardLayout.margin, y: line.baseline, size: DashboardLayout.amountSize, Palette.ink)
        }
    }

    private func drawWhyOver(_ layout: DashboardLayout, on canvas: Canvas) {
        guard let titleY = layout.whyOverTitleY else { return }
        let margin = DashboardLayout.margin
        canvas.text("Why over", x: margin, y: titleY, size: 15, Palette.ink, weight: .bold)
        for line in layout.whyOverLines {
            if let level = line.level {
                let tone = level == .over ? Palette.over : level == .near ? Palette.near : Palette.ink
                canvas.text(line.text, x: margin, y: line.baseline, size: DashboardLayout.amountSize, tone, weight: .bold)
            } else {
                canvas.text(line.text, x: margin + 12, y: line.baseline, size: 11.5, Palette.muted)
            }
        }
    }

    /// One chart on its own, as the HTML page embeds it.
    public func render(_ chart: Chart, of report: MonthlyReport, width: Double = 440, height: Double = 280) throws(ReportError) -> Data {
        let canvas = try Canvas(width: width, height: height, scale: scale, background: Palette.background)
        let frame = Rect(x: 0, y: 0, width: width, height: height)
        let painter = ChartPainter(report: report, canvas: canvas, money: money, drawsFrame: false)
        switch chart {
        case .cumulative: painter.cumulative(in: frame)
        case .trend: painter.trend(in: frame)
        }
        return try canvas.pngData()
    }

    private func drawHeader(_ report: MonthlyReport, _ layout: DashboardLayout, on canvas: Canvas) {
        let margin = DashboardLayout.margin
        canvas.text("MONTHLY REPORT", x: margin, y: 46, size: 11, Palette.muted, weight: .bold)
        let titleWidth = canvas.text(report.month.longName, x: margin, y: 80, size: 26, Palette.ink, weight: .bold)
        canvas.text(PeriodText.range(report.periodDays), x: margin + titleWidth + 14, y: 80, size: 15, Palette.muted)
        let count = report.totals.expenseCount
        canvas.text(
            "\(report.budgets.count) budget\(report.budgets.count == 1 ? "" : "s") · \(count) expense\(count == 1 ? "" : "s")",
            x: DashboardLayout.width - margin, y: 80, size: 13, Palette.muted, anchor: .trailing
        )
        let totals = report.totals
        let over = totals.remaining.cents < 0
        let cards: [(String, String, Color)] = [
            ("Spent", money.string(totals.spent), Palette.ink),
            ("Available", money.string(totals.available), Palette.ink),
            (over ? "Over by" : "Left", money.string(Money(cents: Int64(clamping: totals.remaining.cents.magnitude))), over ? Palette.over : Palette.ink),
        ]
        for ((label, value, color), rect) in zip(cards, layout.cards) {
            canvas.fillRounded(rect, radius: 10, Palette.card)
            canvas.text(label, x: rect.x + 18, y: rect.y + 27, size: 12, Palette.muted)
            let fitted = Typesetter.layout.fitted(value, maximumWidth: rect.width - 36, size: 22, weight: .bold)
            canvas.text(fitted, x: rect.x + 18, y: rect.y + 58, size: 22, color, weight: .bold)
        }
        if totals.available.cents > 0 {
            let share = layout.cards[0]
            canvas.text("\(totals.share.percentString) of available", x: share.maxX - 18, y: share.y + 27, size: 12,
                        totals.isOver ? Palette.over : Palette.muted, anchor: .trailing)
        }
        if totals.available != totals.limit {
            let available = layout.cards[1]
            canvas.text("limit \(money.string(totals.limit))", x: available.maxX - 18, y: available.y + 27, size: 12, Palette.muted,
                        anchor: .trailing)
        }
        drawMoneyIn(report, layout, on: canvas)
        // The pace, in the current period only: where spending is heading and what a day may take.
        if let pace = report.pace {
            let left = layout.cards[2]
            let projected = pace.projected.map { "projected \(money.string($0))" } ?? "too early to project"
            let fitted = Typesetter.layout.fitted(
                "\(projected) · \(money.string(pace.perDay)) a day", maximumWidth: left.width - 80, size: 12)
            canvas.text(fitted, x: left.maxX - 18, y: left.y + 27, size: 12, Palette.muted, anchor: .trailing)
        }
    }

    /// Income against spending, saved with its rate, net worth with what no budget holds.
    private func drawMoneyIn(_ report: MonthlyReport, _ layout: DashboardLayout, on canvas: Canvas) {
        let figures = report.moneyIn
        let negative = figures.saved.cents < 0
        let cards: [(String, String, String, Color)] = [
            ("Income", money.string(figures.income), "spent \(money.string(figures.spending))", Palette.ink),
            ("Saved", money.string(figures.saved), "rate \(figures.savingsRate?.percentString ?? "n/a")", negative ? Palette.over : Palette.ink),
            ("Net worth", figures.netWorth.map(money.string) ?? "n/a", "unbudgeted \(money.string(report.unbudgeted))", Palette.ink),
        ]
        for ((label, value, note, color), rect) in zip(cards, layout.moneyCards) {
            canvas.fillRounded(rect, radius: 10, Palette.card)
            canvas.text(label, x: rect.x + 18, y: rect.y + 27, size: 12, Palette.muted)
            let fittedNote = Typesetter.layout.fitted(note, maximumWidth: rect.width - 100, size: 12)
            canvas.text(fittedNote, x: rect.maxX - 18, y: rect.y + 27, size: 12, Palette.muted, anchor: .trailing)
            let fitted = Typesetter.layout.fitted(value, maximumWidth: rect.width - 36, size: 22, weight: .bold)
            canvas.text(fitted, x: rect.x + 18, y: rect.y + 58, size: 22, color, weight: .bold)
        }
    }

    private func drawBudgets(_ report: MonthlyReport, _ layout: DashboardLayout, on canvas: Canvas) {
        let margin = DashboardLayout.margin
        canvas.text("Budgets", x: margin, y: layout.budgetsTitleY, size: 15, Palette.ink, weight: .bold)
        if let first = layout.rows.first {
            canvas.text("spent / available", x: first.amountsX, y: layout.budgetsTitleY, size: 11, Palette.muted, anchor: .trailing)
            canvas.text("used", x: first.shareX, y: layout.budgetsTitleY, size: 11, Palette.muted, anchor: .trailing)
        }
        for (index, (line, row)) in zip(report.budgets, layout.rows).enumerated() {
            if index > 0 {
                canvas.line(from: (margin, row.baseline - 24), to: (DashboardLayout.width - margin, row.baseline - 24), Palette.grid)
            }
            canvas.text(row.label, x: row.labelX, y: row.baseline, size: DashboardLayout.nameSize, Palette.ink)
            canvas.fillRounded(row.track, radius: 5, Palette.track)
            canvas.fillRounded(row.fill, radius: 5, Palette.bar(for: line))
            let tone = line.isOver ? Palette.over : Palette.ink
            canvas.text(DashboardLayout.amountText(line, money: money), x: row.amountsX, y: row.baseline, size: DashboardLayout.amountSize, tone, anchor: .trailing)
            canvas.text(line.share.percentString, x: row.shareX, y: row.baseline, size: DashboardLayout.amountSize,
                        line.isOver ? Palette.over : Palette.muted, weight: .bold, anchor: .trailing)
        }
        if let empty = layout.emptyBudgets {
            canvas.fillRounded(empty, radius: 10, Palette.card)
            canvas.text("No budgets yet", x: empty.midX, y: empty.y + 31, size: 14, Palette.ink, weight: .bold, anchor: .center)
            canvas.text("Add a budget to see spending against its limit.", x: empty.midX, y: empty.y + 52, size: 12, Palette.muted, anchor: .center)
        }
    }
}
