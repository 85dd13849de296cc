import Foundation
import TallyCore

/// Draws the two line/column charts into a rectangle of a canvas.
///
/// Amounts are exact until here; only positions on the image are computed in floating point.
struct ChartPainter {
    let report: MonthlyReport
    let canvas: Canvas
    let money: MoneyFormat
    var drawsFrame = true

    private let padding = 18.0

    /// `month` for a calendar month, `period` for one that starts on another day.
    private var unit: String { PeriodText.isCalendarMonth(report.periodDays) ? "month" : "period" }

    func cumulative(in frame: Rect) {
        let limit = report.totals.available.cents
        let spentValues = report.days.map(\.cumulative.cents)
        drawFrame(frame, title: "Spending this \(unit)")
        let legendY = frame.y + 52
        var x = frame.x + padding
        canvas.line(from: (x, legendY - 4), to: (x + 16, legendY - 4), Palette.spent, width: 2.5)
        // The line's own total: what the period's days spent, which a yearly or once budget's
        // figures (year to date, whole range) may exceed.
        let spentInPeriod = report.days.last?.cumulative ?? .zero
        x += 22 + canvas.text("Spent \(money.string(spentInPeriod))", x: x + 22, y: legendY, size: 12, Palette.muted)
        x += 16
        canvas.dashedLine(from: (x, legendY - 4), to: (x + 16, legendY - 4), Palette.pace, width: 1.5, dash: 4)
        canvas.text("Even pace to \(money.string(report.totals.available))", x: x + 22, y: legendY, size: 12, Palette.muted)

        let axis = Axis(maximum: max(limit, spentValues.last ?? 0))
        let plot = plotArea(in: frame, axis: axis)
        drawGrid(axis, in: plot)

        let dayCount = Double(report.days.count)
        func point(_ day: Double, _ cents: Int64) -> (Double, Double) {
            (plot.x + plot.width * day / dayCount, plot.maxY - plot.height * axis.fraction(of: cents))
        }
        for (position, label) in labelledDays() {
            canvas.text(label, x: point(Double(position), 0).0, y: plot.maxY + 20, size: 11, Palette.muted, anchor: .center)
        }
        let pace = { canvas.dashedLine(from: point(0, 0), to: point(dayCount, limit), Palette.pace, width: 1.5, dash: 5) }
        guard !report.hasNoExpenses else {
            pace()
            emptyMessage("No expenses in \(report.month.longName)", in: plot)
            return
        }
        // The period may start on another day than the 1st and run into the next month.
        let lived = spentValues.prefix(report.days.prefix { $0.day <= report.through }.count)
        let points = [point(0, 0)] + lived.enumerated().map { point(Double($0.offset + 1), $0.element) }
        canvas.fillPolygon(points + [point(Double(lived.count), 0)], Palette.spentTint)
        canvas.line(from: (plot.x, plot.maxY), to: (plot.maxX, plot.maxY), Palette.muted)
        pace()
        canvas.polyline(points, Palette.spent, width: 2.5)
    }

    func trend(in frame: Rect) {
        let totals = report.trend.totals.map(\.cents)
        let limit = report.totals.available.cents
        drawFrame(frame, title: "Last six \(unit)s")
        let legendY = frame.y + 52
        var x = frame.x + padding
        canvas.fillRounded(Rect(x: x, y: legendY - 10, width: 12, height: 10), radius: 2, Palette.spent)
        x += 18 + canvas.text("Spent per \(unit)", x: x + 18, y: legendY, size: 12, Palette.muted) + 16
        if limit > 0 {
            canvas.dashedLine(from: (x, legendY - 4), to: (x + 16, legendY - 4), Palette.pace, width: 1.5, dash: 4)
            canvas.text("Available this \(unit)", x: x + 22, y: legendY, size: 12, Palette.muted)
        }

        let axis = Axis(maximum: max(limit, totals.max() ?? 0))
        let plot = plotArea(in: frame, axis: axis)
        drawGrid(axis, in: plot)
        if limit > 0 {
            let y = plot.maxY - plot.height * axis.fraction(of: limit)
            canvas.dashedLine(from: (plot.x, y), to: (plot.maxX, y), Palette.pace, width: 1.5, dash: 5)
        }
        let slot = plot.width / Double(max(totals.count, 1))
        let last = totals.count - 1
        for (index, (month, cents)) in zip(report.trend.months, totals).enumerated() {
            let center = plot.x + slot * (Double(index) + 0.5)
            let barHeight = plot.height * axis.fraction(of: cents)
            let bar = Rect(x: center - slot * 0.3, y: plot.maxY - barHeight, width: slot * 0.6, height: barHeight)
            canvas.fillRounded(bar, radius: 3, index == last ? Palette.spent : Palette.pastMonth)
            if cents > 0 {
                let text = Axis.compact(cents)
                let width = Typesetter.layout.width(of: text, size: 11, weight: .bold) + 8
                canvas.fill(Rect(x: center - width / 2, y: bar.y - 19, width: width, height: 16), drawsFrame ? Palette.card : Palette.background)
                canvas.text(Axis.compact(cents), x: center, y: bar.y - 6, size: 11, index == last ? Palette.ink : Palette.muted,
                            weight: index == last ? .bold : .regular, anchor: .center)
            }
            let label = index == 0 || month.month == 1 ? "\(month.shortName) \(month.year)" : month.shortName
            canvas.text(label, x: center, y: plot.maxY + 20, size: 11, index == last ? Palette.ink : Palette.muted,
                        weight: index == last ? .bold : .regular, anchor: .center)
        }
        canvas.line(from: (plot.x, plot.maxY), to: (plot.maxX, plot.maxY), Palette.muted)
        if totals.allSatisfy({ $0 == 0 }) {
            emptyMessage("No spending in the last six months", in: plot)
        }
    }

    private func drawFrame(_ frame: Rect, title: String) {
        if drawsFrame { canvas.fillRounded(frame, radius: 12, Palette.card) }
        canvas.text(title, x: frame.x + padding, y: frame.y + 30, size: 15, Palette.ink, weight: .bold)
    }

    private func plotArea(in frame: Rect, axis: Axis) -> Rect {
        let labelWidth = axis.ticks.map { Typesetter.layout.width(of: Axis.compact($0), size: 11) }.max() ?? 0
        let left = frame.x + padding + labelWidth + 8
        let top = frame.y + 78
        return Rect(x: left, y: top, width: frame.maxX - padding - left, height: frame.maxY - 36 - top)
    }

    private func drawGrid(_ axis: Axis, in plot: Rect) {
        for tick in axis.ticks {
            let y = plot.maxY - plot.height * axis.fraction(of: tick)
            if tick > 0 { canvas.line(from: (plot.x, y), to: (plot.maxX, y), drawsFrame ? Palette.grid : Palette.track) }
            canvas.text(Axis.compact(tick), x: plot.x - 8, y: y + 4, size: 11, Palette.muted, anchor: .trailing)
        }
    }

    /// The positions (1 for the period's first day) labelled under the cumulative chart, each with
    /// its day of the month; the first with its month too when the period is not a calendar month.
    private func labelledDays() -> [(position: Int, label: String)] {
        let count = report.days.count
        guard count > 0 else { return [] }
        let calendarMonth = PeriodText.isCalendarMonth(report.periodDays)
        return ([1, 8, 15, 22].filter { $0 < count - 3 } + [count]).map { position in
            let day = report.days[position - 1].day
            let label = !calendarMonth && position == 1 ? PeriodText.dayAndMonth(day) : "\(day.day)"
            return (position, label)
        }
    }

    private func emptyMessage(_ message: String, in plot: Rect) {
        let width = Typesetter.layout.width(of: message, size: 13, weight: .bold) + 32
        let box = Rect(x: plot.midX - width / 2, y: plot.midY - 20, width: width, height: 36)
        canvas.fillRounded(box, radius: 8, drawsFrame ? Palette.background : Palette.card)
        canvas.text(message, x: plot.midX, y: box.y + 23, size: 13, Palette.ink, weight: .bold, anchor: .center)
    }
}

/// A value axis from zero with round steps, in cents.
struct Axis {
    let step: Int64
    let ticks: [Int64]

    init(maximum: Int64) {
        let target = Double(max(maximum, 100)) / 4
        let magnitude = pow(10, (log10(target)).rounded(.down))
        let multiplier = [1, 2, 2.5, 5, 10].first { $0 * magnitude >= target } ?? 10
        let step = max(100, Int64(multiplier * magnitude))
        let count = Int((max(maximum, 1) + step - 1) / step)
        self.step = step
        ticks = (0...max(count, 1)).map { Int64($0) * step }
    }

    var top: Int64 { ticks.last ?? 100 }

    func fraction(of cents: Int64) -> Double { min(1, max(0, Double(cents) / Double(top))) }

    /// `950`, `1.2k`, `34k`, `1.5M`, rounded half up in whole units.
    static func compact(_ cents: Int64) -> String {
        let units = (cents + 50) / 100
        func tenths(_ divisor: Int64, _ suffix: String) -> String {
            let value = (units * 10 + divisor / 2) / divisor
            return value % 10 == 0 || value >= 100 ? "\((value + 5) / 10)\(suffix)" : "\(value / 10).\(value % 10)\(suffix)"
        }
        if units >= 1_000_000_000 { return tenths(1_000_000_000, "B") }
        if units >= 1_000_000 { return tenths(1_000_000, "M") }
        if units >= 1_000 { return tenths(1_000, "k") }
        return "\(units)"
    }
}
