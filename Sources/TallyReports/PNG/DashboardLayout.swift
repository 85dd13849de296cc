import TallyCore

/// Where everything on the dashboard image goes, in points (pixels at scale 1).
///
/// Computed from the report alone, measuring text at scale 1, so a `--scale 2` image is the
/// same picture at twice the size, and tests can find the pixels of any bar.
public struct DashboardLayout: Sendable {
    public static let width = 960.0
    static let margin = 36.0
    static let rowHeight = 34.0
    static let nameSize = 13.0
    static let amountSize = 12.5
    static let chartHeight = 280.0

    public var height: Double
    public var cards: [Rect]
    /// Income, saved and net worth under the totals, once the ledger has an account; else empty.
    public var moneyCards: [Rect] = []
    public var budgetsTitleY: Double
    /// One per budget, in report order.
    public var rows: [Row]
    /// The box that says there are no budgets, when there are none.
    public var emptyBudgets: Rect?
    public var cumulativeChart: Rect
    public var trendChart: Rect
    /// The "Why over" heading under the charts, when a budget explains itself.
    public var whyOverTitleY: Double?
    /// Its lines: each budget's sentence, then its largest expenses, shortened to fit.
    public var whyOverLines: [WhyOverLine] = []

    /// The "Goals" heading at the bottom, when a budget has a target.
    public var goalsTitleY: Double?
    /// One line per budget with a target (``GoalText/line(_:period:money:)``), shortened to fit.
    public var goalLines: [GoalLine] = []

    /// The "By currency" heading at the very bottom, when the period has expenses in other
    /// currencies; its lines are each currency's original total, its ledger equivalent and count.
    public var currenciesTitleY: Double?
    public var currencyLines: [(text: String, baseline: Double)] = []

    public struct GoalLine: Sendable {
        public var text: String
        public var baseline: Double
        public var progress: GoalProgress
    }

    public struct WhyOverLine: Sendable {
        public var text: String
        public var baseline: Double
        /// The budget's sentence, coloured by its level; else the muted line of its largest expenses.
        public var level: BudgetLevel?
    }

    public struct Row: Sendable {
        /// The budget name as drawn, shortened with `…` when it would not fit, then ` · year to
        /// date` for a yearly budget or ` · once` for a once budget.
        public var label: String
        public var labelX: Double
        public var baseline: Double
        public var track: Rect
        /// The coloured part of the bar, spent against available; the whole track when over budget.
        public var fill: Rect
        public var amountsX: Double
        public var shareX: Double
    }

    public init(report: MonthlyReport, money: MoneyFormat = .plain) {
        let typesetter = Typesetter.layout
        let margin = Self.margin
        let contentWidth = Self.width - 2 * margin
        let cardWidth = (contentWidth - 2 * 16) / 3
        cards = (0..<3).map { Rect(x: margin + Double($0) * (cardWidth + 16), y: 100, width: cardWidth, height: 76) }
        budgetsTitleY = 226
        if report.hasAccounts {
            moneyCards = cards.map { Rect(x: $0.x, y: $0.maxY + 16, width: $0.width, height: $0.height) }
            budgetsTitleY += 92
        }

        let amounts = report.budgets.map { Self.amountText($0, money: money) }
        let shares = report.budgets.map(\.share.percentString)
        let amountsWidth = amounts.map { typesetter.width(of: $0, size: Self.amountSize) }.max() ?? 0
        let shareWidth = max(typesetter.width(of: "100%", size: Self.amountSize, weight: .bold), shares.map { typesetter.width(of: $0, size: Self.amountSize, weight: .bold) }.max() ?? 0)
        let shareX = Self.width - margin
        let amountsX = shareX - shareWidth - 16
        let nameWidth = 220.0
        let trackX = margin + nameWidth + 16
        let trackWidth = max(120, amountsX - amountsWidth - 20 - trackX)

        var rows: [Row] = []
        var y = budgetsTitleY + 18
        for line in report.budgets {
            let track = Rect(x: trackX, y: y + 12, width: trackWidth, height: 10)
            let filled = line.isOver ? trackWidth : trackWidth * Double(min(line.share.basisPoints, 10_000)) / 10_000
            rows.append(
                Row(
                    label: Self.label(line, maximumWidth: nameWidth, typesetter: typesetter),
                    labelX: margin, baseline: y + 22, track: track,
                    fill: Rect(x: trackX, y: track.y, width: filled, height: track.height),
                    amountsX: amountsX, shareX: shareX
                )
            )
            y += Self.rowHeight
        }
        self.rows = rows
        if report.budgets.isEmpty {
            emptyBudgets = Rect(x: margin, y: y + 4, width: contentWidth, height: 72)
            y += 84
        }
        let chartWidth = (contentWidth - 24) / 2
        let chartsY = y + 28
        cumulativeChart = Rect(x: margin, y: chartsY, width: chartWidth, height: Self.chartHeight)
        trendChart = Rect(x: margin + chartWidth + 24, y: chartsY, width: chartWidth, height: Self.chartHeight)
        var bottom = chartsY + Self.chartHeight
        let explained = report.budgets.filter { $0.whyOver != nil }
        if !explained.isEmpty {
            bottom += 44
            whyOverTitleY = bottom
            for line in explained {
                guard let why = line.whyOver else { continue }
                bottom += 24
                let head = typesetter.fitted(WhyOverText.head(line.name, why, money: money), maximumWidth: contentWidth, size: Self.amountSize, weight: .bold)
                whyOverLines.append(WhyOverLine(text: head, baseline: bottom, level: line.level))
                // Each group that grew with its own change, as the text report lists them.
                if !why.grown.isEmpty {
                    bottom += 19
                    let grew = "Grew: " + why.grown.map { WhyOverText.growth($0, money: money) }.joined(separator: "; ")
                    whyOverLines.append(WhyOverLine(text: typesetter.fitted(grew, maximumWidth: contentWidth - 12, size: 11.5), baseline: bottom, level: nil))
                }
                guard !why.largest.isEmpty else { continue }
                bottom += 19
                let largest = "Largest: " + why.largest.map { WhyOverText.largest($0, money: money) }.joined(separator: ", ")
                whyOverLines.append(WhyOverLine(text: typesetter.fitted(largest, maximumWidth: contentWidth - 12, size: 11.5), baseline: bottom, level: nil))
            }
        }
        let goals = report.budgets.filter { $0.goal != nil }
        if !goals.isEmpty {
            bottom += 44
            goalsTitleY = bottom
            for line in goals {
                guard let goal = line.goal else { continue }
                bottom += 22
                let text = typesetter.fitted(
                    "\(line.name): \(GoalText.line(goal, period: line.period, account: line.goalAccount, money: money))", maximumWidth: contentWidth, size: Self.amountSize)
                goalLines.append(GoalLine(text: text, baseline: bottom, progress: goal.progress))
            }
        }
        if !report.byCurrency.isEmpty {
            bottom += 44
            currenciesTitleY = bottom
            for entry in report.byCurrency {
                bottom += 22
                let text = typesetter.fitted(Self.currencyText(entry, money: money), maximumWidth: contentWidth, size: Self.amountSize)
                currencyLines.append((text, bottom))
            }
        }
        height = (bottom + margin).rounded(.up)
    }

    /// `4500 JPY = €27.86, 1 expense`: a "By currency" line of either picture.
    static func currencyText(_ entry: CurrencySpending, money: MoneyFormat) -> String {
        "\(entry.original.description) = \(money.string(entry.converted)), \(entry.expenseCount) \(entry.expenseCount == 1 ? "expense" : "expenses")"
    }

    static func amountText(_ line: MonthlyReport.BudgetLine, money: MoneyFormat = .plain) -> String {
        let money = line.currency.map(money.inCurrency) ?? money
        return "\(money.string(line.spent)) / \(money.string(line.available))"
    }

    private static func label(_ line: MonthlyReport.BudgetLine, maximumWidth: Double, typesetter: Typesetter) -> String {
        guard let kind = PeriodText.kind(line.period) else {
            return typesetter.fitted(line.name, maximumWidth: maximumWidth, size: nameSize)
        }
        let suffix = " · \(kind)"
        let room = max(maximumWidth - typesetter.width(of: suffix, size: nameSize), maximumWidth / 2)
        return typesetter.fitted(line.name, maximumWidth: room, size: nameSize) + suffix
    }
}
