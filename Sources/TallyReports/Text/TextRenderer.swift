import TallyCore

/// Renders a report as a terminal table with a bar per budget.
///
/// The title names the period, with its dates when it is not a calendar month; a yearly budget's
/// name is marked `(year to date)`, a once budget's `(once)`, and a note under the table gives
/// the days their figures cover.
///
/// Colour is an option rather than a guess: only the caller knows whether stdout is a terminal
/// and whether `NO_COLOR` is set.
public struct TextRenderer: Sendable {
    public var useColor: Bool
    /// How amounts look: the locale's and the ledger currency's, or ``MoneyFormat/plain``.
    public var money: MoneyFormat
    /// Widest budget or expense name before it is shortened with `…`, in terminal columns.
    public var maximumNameWidth: Int
    public var barWidth: Int

    public init(useColor: Bool = false, money: MoneyFormat = .plain, maximumNameWidth: Int = 28, barWidth: Int = 20) {
        self.useColor = useColor
        self.money = money
        self.maximumNameWidth = maximumNameWidth
        self.barWidth = barWidth
    }

    public func render(_ report: MonthlyReport) -> String {
        var lines: [String] = []
        let count = report.budgets.count
        let expenses = report.totals.expenseCount
        lines.append(
            style("\(PeriodText.title(report.month, days: report.periodDays)) · \(count) budget\(count == 1 ? "" : "s") · \(expenses) expense\(expenses == 1 ? "" : "s")", .bold)
        )
        lines.append("")
        if report.budgets.isEmpty {
            lines.append("No budgets to report.")
        } else {
            lines += budgetTable(report)
        }
        let goals = report.budgets.filter { $0.goal != nil }
        if !goals.isEmpty {
            lines.append("")
            lines += goalLines(goals)
        }
        if report.hasAccounts {
            lines.append("")
            lines += moneyInLines(report)
        }
        if report.hasNoExpenses {
            lines.append("")
            lines.append("No expenses in \(PeriodText.title(report.month, days: report.periodDays)).")
        } else {
            let explained = report.budgets.filter { $0.whyOver != nil }
            if !explained.isEmpty {
                lines.append("")
                lines += whyOver(explained)
            }
            lines.append("")
            lines += topExpenses(report)
            if !report.tags.isEmpty {
                lines.append("")
                lines += tagTotals(report)
            }
            if !report.people.isEmpty {
                lines.append("")
                lines += personTotals(report)
            }
            if !report.byCurrency.isEmpty {
                lines.append("")
                lines += currencyTotals(report.byCurrency)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func budgetTable(_ report: MonthlyReport) -> [String] {
        let names = report.budgets.map { line in
            DisplayWidth.truncated(line.name, to: maximumNameWidth) + (PeriodText.kind(line.period).map { " (\($0))" } ?? "")
        }
        let nameWidth = max(DisplayWidth.of("Budget"), DisplayWidth.of("Total"), names.map(DisplayWidth.of).max() ?? 0)
        let totals = report.totals
        // A budget in its own currency shows its figures in it (``MoneyFormat/inCurrency(_:)``).
        let figures = report.budgets.map { line in
            let format = line.currency.map(money.inCurrency) ?? money
            return [line.limit, line.carried, line.available, line.spent, line.remaining].map(format.string)
        }
        let totalFigures = [totals.limit, totals.carried, totals.available, totals.spent, totals.remaining].map(money.string)
        let amounts = (figures + [totalFigures]).flatMap { $0 }
        let amountWidth = max(DisplayWidth.of("Available"), DisplayWidth.of("Remaining"), amounts.map { DisplayWidth.of($0) }.max() ?? 0)
        let usedWidth = max(4, (report.budgets.map(\.share) + [totals.share]).map { $0.percentString.count }.max() ?? 0)

        func row(_ name: String, _ values: [String], _ used: String) -> String {
            ([DisplayWidth.padded(name, to: nameWidth)] + values.map { DisplayWidth.padded($0, to: amountWidth, leading: true) }
                + [DisplayWidth.padded(used, to: usedWidth, leading: true)]).joined(separator: "  ")
        }

        var lines = [style(row("Budget", ["Limit", "Carried", "Available", "Spent", "Remaining"], "Used"), .bold)]
        for ((line, name), values) in zip(zip(report.budgets, names), figures) {
            let text = row(name, values, line.share.percentString)
            let tone = tone(for: line.level)
            var full = text + "  " + style(bar(for: line.share), tone)
            if line.isOver { full += " " + style("over", .red) }
            lines.append(full)
        }
        let tableWidth = nameWidth + totalFigures.count * (amountWidth + 2) + usedWidth + 2
        lines.append(String(repeating: "─", count: tableWidth))
        let totalRow = row("Total", totalFigures, totals.share.percentString)
        lines.append(style(totalRow, .bold) + (totals.isOver ? "  " + style("over", .red) : ""))
        if let note = report.outOfTotalsNote {
            let spent = report.outOfTotals.compactMap { line in line.ledgerSpent.map { "\(line.name) spent \(money.string($0))" } }
            lines.append(note + (spent.isEmpty ? "" : " (" + spent.joined(separator: ", ") + ")"))
        }
        if let pace = report.pace {
            lines.append("")
            lines += paceLines(report, pace, nameWidth: nameWidth, amountWidth: amountWidth)
        }
        let notes = report.budgets.filter { $0.period != .monthly }
        if !notes.isEmpty {
            lines.append("")
            for line in notes {
                lines.append("\(DisplayWidth.truncated(line.name, to: maximumNameWidth)): \(PeriodText.coverage(line.period, days: line.days)).")
            }
        }
        return lines
    }

    /// `Goals`, then one line per budget with a target: `Holiday: goal 1,200.00 by 2027-06:
    /// funded 500.00, needs 100.00 this period, on-track`, behind in yellow.
    private func goalLines(_ lines: [MonthlyReport.BudgetLine]) -> [String] {
        [style("Goals", .bold)] + lines.compactMap { line in
            guard let goal = line.goal else { return nil }
            let text = "\(DisplayWidth.truncated(line.name, to: maximumNameWidth)): \(GoalText.line(goal, period: line.period, account: line.goalAccount, money: money))"
            return goal.progress == .behind ? style(text, .yellow) : text
        }
    }

    /// Money in against spending and what the accounts held at the period's end, once the
    /// ledger has an account; "n/a" for a rate without income or a net worth without balances.
    private func moneyInLines(_ report: MonthlyReport) -> [String] {
        let figures = report.moneyIn
        let rows: [(label: String, value: String)] = [
            ("Income", money.string(figures.income)),
            ("Spending", money.string(figures.spending)),
            ("Saved", money.string(figures.saved)),
            ("Savings rate", figures.savingsRate?.percentString ?? "n/a"),
            ("Unbudgeted", money.string(report.unbudgeted)),
            ("Net worth", figures.netWorth.map(money.string) ?? "n/a"),
        ]
        let labelWidth = rows.map { DisplayWidth.of($0.label) }.max() ?? 0
        let valueWidth = rows.map { DisplayWidth.of($0.value) }.max() ?? 0
        return [style("Money in", .bold)] + rows.map {
            "  \(DisplayWidth.padded($0.label, to: labelWidth))  \(DisplayWidth.padded($0.value, to: valueWidth, leading: true))"
        }
    }

    /// The current period's pace: each budget's projection (`too early` before a tenth of the
    /// period) and what it can spend a day, then the totals.
    private func paceLines(_ report: MonthlyReport, _ total: MonthlyReport.TotalPace, nameWidth: Int, amountWidth: Int) -> [String] {
        func row(_ name: String, _ projected: Money?, _ perDay: Money) -> String {
            [
                DisplayWidth.padded(DisplayWidth.truncated(name, to: maximumNameWidth), to: nameWidth),
                DisplayWidth.padded(projected.map(money.string) ?? "too early", to: amountWidth, leading: true),
                DisplayWidth.padded(money.string(perDay), to: amountWidth, leading: true),
            ].joined(separator: "  ")
        }
        var lines = [
            style("Pace: \(total.elapsed.wholePercent) % of the period gone", .bold),
            style([DisplayWidth.padded("Budget", to: nameWidth), DisplayWidth.padded("Projected", to: amountWidth, leading: true),
                DisplayWidth.padded("Per day", to: amountWidth, leading: true)].joined(separator: "  "), .bold),
        ]
        for line in report.budgets {
            guard let pace = line.pace else { continue }
            lines.append(row(line.name, pace.projected, pace.perDay))
        }
        lines.append(style(row("Total", total.projected, total.perDay), .bold))
        return lines
    }

    /// Each budget over or near its limit, with what grew and its largest expenses.
    private func whyOver(_ lines: [MonthlyReport.BudgetLine]) -> [String] {
        var text = [style("Why over", .bold)]
        for line in lines {
            guard let why = line.whyOver else { continue }
            let name = DisplayWidth.truncated(line.name, to: maximumNameWidth)
            text.append("  " + style(WhyOverText.head(name, why, money: money), tone(for: line.level)))
            for growth in why.grown { text.append("    " + WhyOverText.growth(growth, money: money)) }
            if !why.largest.isEmpty {
                text.append("    largest: " + why.largest.map { WhyOverText.largest($0, money: money) }.joined(separator: ", "))
            }
        }
        return text
    }

    private func topExpenses(_ report: MonthlyReport) -> [String] {
        let names = report.top.map { DisplayWidth.truncated($0.name, to: maximumNameWidth) }
        let budgets = report.top.map { DisplayWidth.truncated($0.budgetName, to: maximumNameWidth) }
        let nameWidth = names.map(DisplayWidth.of).max() ?? 0
        let budgetWidth = budgets.map(DisplayWidth.of).max() ?? 0
        let amountWidth = report.top.map { DisplayWidth.of(money.string($0.total)) }.max() ?? 0
        var lines = [style("Top expenses", .bold)]
        for (index, expense) in report.top.enumerated() {
            lines.append(
                "  \(expense.date.isoString)  \(DisplayWidth.padded(names[index], to: nameWidth))  "
                    + "\(DisplayWidth.padded(budgets[index], to: budgetWidth))  "
                    + DisplayWidth.padded(money.string(expense.total), to: amountWidth, leading: true)
            )
        }
        return lines
    }

    private func tagTotals(_ report: MonthlyReport) -> [String] {
        let tags = report.tags.map { DisplayWidth.truncated($0.tag, to: maximumNameWidth) }
        let tagWidth = tags.map(DisplayWidth.of).max() ?? 0
        let amountWidth = report.tags.map { DisplayWidth.of(money.string($0.spent)) }.max() ?? 0
        var lines = [style("By tag", .bold)]
        for (tag, total) in zip(tags, report.tags) {
            lines.append("  \(DisplayWidth.padded(tag, to: tagWidth))  \(DisplayWidth.padded(money.string(total.spent), to: amountWidth, leading: true))")
        }
        return lines
    }

    /// Who spent what: name, amount and how many expenses, largest first.
    private func personTotals(_ report: MonthlyReport) -> [String] {
        let names = report.people.map { DisplayWidth.truncated(TextRenderer.personName($0.by), to: maximumNameWidth) }
        let nameWidth = names.map(DisplayWidth.of).max() ?? 0
        let amountWidth = report.people.map { DisplayWidth.of(money.string($0.spent)) }.max() ?? 0
        var lines = [style("By person", .bold)]
        for (name, person) in zip(names, report.people) {
            lines.append(
                "  \(DisplayWidth.padded(name, to: nameWidth))  \(DisplayWidth.padded(money.string(person.spent), to: amountWidth, leading: true))"
                    + "  \(person.expenses) \(person.expenses == 1 ? "expense" : "expenses")")
        }
        return lines
    }

    /// Spending in other currencies: each currency's original total, its ledger equivalent and how many expenses.
    func currencyTotals(_ spending: [CurrencySpending]) -> [String] {
        let originals = spending.map(\.original.description)
        let originalWidth = originals.map(DisplayWidth.of).max() ?? 0
        let amountWidth = spending.map { DisplayWidth.of(money.string($0.converted)) }.max() ?? 0
        var lines = [style("By currency", .bold)]
        for (original, entry) in zip(originals, spending) {
            lines.append(
                "  \(DisplayWidth.padded(original, to: originalWidth, leading: true))  = \(DisplayWidth.padded(money.string(entry.converted), to: amountWidth, leading: true))"
                    + "  \(entry.expenseCount) \(entry.expenseCount == 1 ? "expense" : "expenses")")
        }
        return lines
    }

    /// How a report names the expenses that record no one.
    static func personName(_ by: String) -> String { by.isEmpty ? "(not recorded)" : by }

    /// A bar of `barWidth` cells in eighths; a share above 100 % fills it.
    private func bar(for share: Share) -> String {
        let eighths = Int(min(share.basisPoints, 10_000) * Int64(barWidth * 8) / 10_000)
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var text = String(repeating: "█", count: eighths / 8) + partials[eighths % 8]
        let cells = eighths / 8 + (eighths % 8 > 0 ? 1 : 0)
        text += String(repeating: "░", count: barWidth - cells)
        return text
    }

    private enum Tone: String {
        case bold = "1", red = "31", yellow = "33", green = "32"
    }

    private func tone(for level: BudgetLevel) -> Tone {
        switch level {
        case .over: .red
        case .near: .yellow
        case .ok: .green
        }
    }

    private func style(_ text: String, _ tone: Tone) -> String {
        useColor ? "\u{1B}[\(tone.rawValue)m\(text)\u{1B}[0m" : text
    }
}

extension Month {
    static let englishNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// `November 2026`, the same in every locale so golden files and images are stable.
    public var longName: String { "\(Month.englishNames[month - 1]) \(year)" }

    /// `Nov`.
    public var shortName: String { String(Month.englishNames[month - 1].prefix(3)) }
}
