import Foundation
import TallyCore

/// The money-in panels of a report over time, drawn once the ledger has an account: net worth at
/// each period's end as a line (periods without a balance leave a gap), and the savings rate as
/// bars above or below zero (none without income).
struct MoneyInChart {
    static let height = 220.0
    static let netWorthColor = Color(0x2E9E6B)
    static let rateColor = Color(0x2F6FDE)

    let report: RangeReport
    let canvas: Canvas

    func draw(in frame: Rect) {
        let half = (frame.width - 24) / 2
        netWorth(in: Rect(x: frame.x, y: frame.y, width: half, height: frame.height))
        savingsRate(in: Rect(x: frame.x + half + 24, y: frame.y, width: half, height: frame.height))
    }

    private func netWorth(in frame: Rect) {
        let values = report.moneyIn.map { $0.netWorth?.cents }
        let axis = SignedAxis(values: values.compactMap { $0 }, minimumStep: 100)
        let plot = self.plot(frame, title: "Net worth at each period's end", axis: axis) { SignedAxis.compactMoney($0) }
        var run: [(Double, Double)] = []
        for (index, value) in values.enumerated() {
            guard let value else {
                if run.count > 1 { canvas.polyline(run, Self.netWorthColor, width: 2) }
                run = []
                continue
            }
            let point = (center(index, in: plot), plot.maxY - plot.height * axis.fraction(of: value))
            canvas.fill(Rect(x: point.0 - 3, y: point.1 - 3, width: 6, height: 6), Self.netWorthColor)
            run.append(point)
        }
        if run.count > 1 { canvas.polyline(run, Self.netWorthColor, width: 2) }
        labels(in: plot)
    }

    private func savingsRate(in frame: Rect) {
        let values = report.moneyIn.map { $0.savingsRate?.basisPoints }
        let axis = SignedAxis(values: values.compactMap { $0 }, minimumStep: 500)
        let plot = self.plot(frame, title: "Savings rate", axis: axis) { "\($0 / 100)%" }
        let zero = plot.maxY - plot.height * axis.fraction(of: 0)
        let slot = plot.width / Double(max(values.count, 1))
        let barWidth = max(3, min(36, slot * 0.6))
        for (index, value) in values.enumerated() {
            guard let value, value != 0 else { continue }
            let y = plot.maxY - plot.height * axis.fraction(of: value)
            let top = min(y, zero)
            let color = value < 0 ? Palette.over : Self.rateColor
            canvas.fill(Rect(x: center(index, in: plot) - barWidth / 2, y: top, width: barWidth, height: max(1, abs(y - zero))), color)
        }
        labels(in: plot)
    }

    /// The panel's title, grid and tick labels; returns the plotting area.
    private func plot(_ frame: Rect, title: String, axis: SignedAxis, label: (Int64) -> String) -> Rect {
        canvas.text(title, x: frame.x, y: frame.y + 12, size: 12, Palette.ink, weight: .bold)
        let labelWidth = axis.ticks.map { Typesetter.layout.width(of: label($0), size: 11) }.max() ?? 0
        let plot = Rect(x: frame.x + labelWidth + 8, y: frame.y + 28, width: frame.width - labelWidth - 8, height: frame.height - 56)
        for tick in axis.ticks {
            let y = plot.maxY - plot.height * axis.fraction(of: tick)
            canvas.line(from: (plot.x, y), to: (plot.maxX, y), tick == 0 ? Palette.muted : Palette.grid)
            canvas.text(label(tick), x: plot.x - 8, y: y + 4, size: 11, Palette.muted, anchor: .trailing)
        }
        return plot
    }

    private func center(_ index: Int, in plot: Rect) -> Double {
        plot.x + plot.width / Double(max(report.periods.count, 1)) * (Double(index) + 0.5)
    }

    /// Period labels under the plot: every one while they fit, else every second, third… and the last.
    private func labels(in plot: Rect) {
        let slot = plot.width / Double(max(report.periods.count, 1))
        let every = max(1, Int((46 / slot).rounded(.up)))
        for (index, period) in report.periods.enumerated() where index % every == 0 || index == report.periods.count - 1 {
            canvas.text(RangePainter.shortLabel(period.month), x: center(index, in: plot), y: plot.maxY + 18, size: 11, Palette.muted, anchor: .center)
        }
    }
}

/// A value axis that may go below zero: round steps from the lowest value (or zero) to the
/// highest (or zero). Values are clamped to ±10¹⁵ first, so no sum of a huge ledger overflows
/// the drawing.
struct SignedAxis {
    let ticks: [Int64]
    let low: Int64
    let high: Int64

    init(values: [Int64], minimumStep: Int64) {
        let bound: Int64 = 1_000_000_000_000_000
        let clamped = values.map { min(max($0, -bound), bound) }
        let lowest = min(0, clamped.min() ?? 0)
        let highest = max(0, clamped.max() ?? 0)
        let target = Double(max(highest - lowest, minimumStep)) / 4
        let magnitude = pow(10, log10(target).rounded(.down))
        let multiplier = [1, 2, 2.5, 5, 10].first { $0 * magnitude >= target } ?? 10
        let step = max(minimumStep, Int64(multiplier * magnitude))
        low = lowest < 0 ? -((-lowest + step - 1) / step) * step : 0
        let top = highest > 0 ? (highest + step - 1) / step * step : 0
        high = top > low ? top : low + step
        ticks = Array(stride(from: low, through: high, by: Int(step)))
    }

    /// Where `value` sits between the lowest and highest tick, 0 to 1.
    func fraction(of value: Int64) -> Double {
        min(1, max(0, (Double(value) - Double(low)) / Double(high - low)))
    }

    /// ``Axis/compact(_:)`` with a sign.
    static func compactMoney(_ cents: Int64) -> String {
        cents < 0 ? "-" + Axis.compact(-cents) : Axis.compact(cents)
    }
}
