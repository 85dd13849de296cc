import Foundation
import Mustache
import TallyCore

/// Renders a report as one self-contained HTML page from a Mustache template.
///
/// The page needs nothing else: CSS is inline and the charts are PNGs in `data:` URLs. Every
/// value a user typed goes through `{{…}}`, which escapes it for HTML.
public struct HTMLRenderer: Sendable {
    /// The built-in templates, compiled into the binary from `templates/` at build time.
    public static let templateNames = EmbeddedTemplates.all.keys.sorted()
    static let mainTemplate = "report.html"
    /// The report pages' CSS, which `tally serve` also serves to its own pages.
    public static var styles: String { EmbeddedTemplates.all["styles"] ?? "" }

    private let userTemplate: (path: String, text: String)?
    public var chartScale: Int
    /// How amounts look: the locale's and the ledger currency's, or ``MoneyFormat/plain``.
    public var money: MoneyFormat = .plain
    /// Partials to add or replace, by name: `tally serve` puts its navigation in `nav`, which
    /// the built-in templates include and the CLI leaves empty.
    public var partials: [String: String] = [:]

    /// Renders with the built-in template.
    public init(chartScale: Int = 2, money: MoneyFormat = .plain) {
        userTemplate = nil
        self.chartScale = chartScale
        self.money = money
    }

    /// Renders with the user's own template; the built-in partials (`{{> styles}}`,
    /// `{{> budgets}}`, `{{> details}}`) stay available to it.
    public init(templateAt path: String, chartScale: Int = 2) throws(ReportError) {
        let url = URL(fileURLWithPath: path)
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .templateUnreadable(path: path, reason: HTMLRenderer.reason(error))
        }
        do {
            _ = try MustacheTemplate(string: text)
        } catch {
            throw .invalidTemplate(path: path, reason: HTMLRenderer.describe(error))
        }
        userTemplate = (path, text)
        self.chartScale = chartScale
    }

    public func render(_ report: MonthlyReport) throws(ReportError) -> String {
        var library = MustacheLibrary()
        for (name, text) in EmbeddedTemplates.all {
            do {
                try library.register(text, named: name)
            } catch {
                throw .invalidTemplate(path: "templates/\(name).mustache", reason: HTMLRenderer.describe(error))
            }
        }
        try HTMLRenderer.register(partials, in: &library)
        let context = try HTMLContext.make(report, chartScale: chartScale, money: money)
        if let userTemplate {
            do {
                return try MustacheTemplate(string: userTemplate.text).render(context, library: library)
            } catch {
                throw .invalidTemplate(path: userTemplate.path, reason: HTMLRenderer.describe(error))
            }
        }
        guard let page = library.render(context, withTemplate: HTMLRenderer.mainTemplate) else {
            throw .drawingFailed("the built-in report template is missing")
        }
        return page
    }

    static func register(_ partials: [String: String], in library: inout MustacheLibrary) throws(ReportError) {
        for (name, text) in partials {
            do {
                try library.register(text, named: name)
            } catch {
                throw .invalidTemplate(path: name, reason: HTMLRenderer.describe(error))
            }
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        switch nsError.code {
        case NSFileReadNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError: return "permission denied"
        case NSFileReadInapplicableStringEncodingError: return "not UTF-8 text"
        default: return nsError.localizedDescription
        }
    }

    /// The parser's error with the line and column it stopped at.
    private static func describe(_ error: any Error) -> String {
        if let parserError = error as? MustacheTemplate.ParserError {
            return "\(parserError.error) at line \(parserError.context.lineNumber), column \(parserError.context.columnNumber)"
        }
        return "\(error)"
    }
}

/// The values a template can use, as plain dictionaries so the names are the template's API.
enum HTMLContext {
    static func make(_ report: MonthlyReport, chartScale: Int, money: MoneyFormat = .plain) throws(ReportError) -> [String: Any] {
        let renderer = PNGRenderer(scale: chartScale, money: money)
        let cumulative = try renderer.render(.cumulative, of: report)
        let trend = try renderer.render(.trend, of: report)
        let totals = report.totals
        let over = totals.remaining.cents < 0
        let budgetCount = report.budgets.count
        let expenseCount = totals.expenseCount
        return [
            "hasPace": report.pace != nil,
            "month": report.month.isoString,
            "currency": report.currency?.code ?? "",
            "monthName": report.month.longName,
            "period": [
                "from": report.periodDays.first.isoString,
                "to": report.periodDays.last.isoString,
                "dates": PeriodText.range(report.periodDays),
                "title": PeriodText.title(report.month, days: report.periodDays),
            ],
            "summary": [
                "spent": money.string(totals.spent),
                "limit": money.string(totals.limit),
                "carried": money.string(totals.carried),
                "available": money.string(totals.available),
                "availableDiffers": totals.available != totals.limit,
                "remaining": money.string(totals.remaining),
                "remainingLabel": over ? "Over by" : "Left",
                "remainingAmount": money.string(Money(cents: Int64(clamping: totals.remaining.cents.magnitude))),
                "share": totals.share.percentString,
                "over": over,
                "hasLimit": totals.available.cents > 0,
                "projected": report.pace.map { $0.projected.map(money.string) ?? "too early" } ?? "",
                "perDay": report.pace.map { money.string($0.perDay) } ?? "",
                "budgetCount": "\(budgetCount) budget\(budgetCount == 1 ? "" : "s")",
                "expenseCount": "\(expenseCount) expense\(expenseCount == 1 ? "" : "s")",
            ] as [String: Any],
            // Shown once the ledger has an account (`hasAccounts`).
            "hasAccounts": report.hasAccounts,
            "moneyIn": [
                "income": money.string(report.moneyIn.income),
                "spending": money.string(report.moneyIn.spending),
                "saved": money.string(report.moneyIn.saved),
                "savedNegative": report.moneyIn.saved.cents < 0,
                "savingsRate": report.moneyIn.savingsRate?.percentString ?? "n/a",
                "netWorth": report.moneyIn.netWorth.map(money.string) ?? "n/a",
                "unbudgeted": money.string(report.unbudgeted),
            ] as [String: Any],
            "hasBudgets": !report.budgets.isEmpty,
            "budgets": report.budgets.map { budget($0, money: money) },
            "hasOutOfTotals": report.outOfTotalsNote != nil,
            "outOfTotalsNote": report.outOfTotalsNote ?? "",
            // The budgets with a target, as `GoalText` words them (`hasGoals`).
            "hasGoals": report.budgets.contains { $0.goal != nil },
            "goals": report.budgets.compactMap { line in line.goal.map { goal(line.name, $0, period: line.period, account: line.goalAccount, money: money) } },
            "hasWhyOver": report.budgets.contains { $0.whyOver != nil },
            "whyOver": report.budgets.compactMap { line in
                line.whyOver.map { why -> [String: Any] in
                    [
                        "sentence": WhyOverText.sentence(line.name, why, money: money), "tone": line.level.rawValue,
                        "hasLargest": !why.largest.isEmpty, "largest": why.largest.map { WhyOverText.largest($0, money: money) }.joined(separator: ", "),
                    ]
                }
            },
            "hasExpenses": !report.hasNoExpenses,
            "top": report.top.map { topExpense($0, money: money) },
            "hasTags": !report.tags.isEmpty,
            "tags": report.tags.map { ["tag": $0.tag, "spent": money.string($0.spent)] },
            "hasCurrencies": !report.byCurrency.isEmpty,
            "currencies": report.byCurrency.map {
                ["original": $0.original.description, "amount": money.string($0.converted), "expenses": String($0.expenseCount)]
            },
            "hasPeople": !report.people.isEmpty,
            "people": report.people.map {
                ["by": TextRenderer.personName($0.by), "spent": money.string($0.spent), "expenses": String($0.expenses)]
            },
            "charts": [
                "cumulative": "data:image/png;base64," + cumulative.base64EncodedString(),
                "trend": "data:image/png;base64," + trend.base64EncodedString(),
            ],
        ]
    }

    private static func budget(_ line: MonthlyReport.BudgetLine, money ledgerMoney: MoneyFormat) -> [String: Any] {
        // A budget in its own currency shows its figures in it, its ledger spending beside.
        let money = line.currency.map(ledgerMoney.inCurrency) ?? ledgerMoney
        return [
            "name": line.name,
            "period": line.period.rawValue,
            "from": line.days.first.isoString,
            "to": line.days.last.isoString,
            "hasCoverage": line.period != .monthly,
            "coverage": PeriodText.coverage(line.period, days: line.days),
            "limit": money.string(line.limit),
            "carried": money.string(line.carried),
            "available": money.string(line.available),
            "spent": money.string(line.spent) + (line.ledgerSpent.map { " (\(ledgerMoney.string($0)))" } ?? ""),
            "remaining": money.string(line.remaining),
            "share": line.share.percentString,
            "barWidth": String(min(line.share.basisPoints, 10_000) / 100),
            "over": line.isOver,
            "tone": line.level.rawValue,
            "expenses": line.expenseCount,
            // The pace, shown in the current period only (`hasPace`).
            "projected": line.pace.map { $0.projected.map(money.string) ?? "too early" } ?? "",
            "perDay": line.pace.map { money.string($0.perDay) } ?? "",
        ]
    }

    private static func goal(_ name: String, _ goal: GoalFigures, period: BudgetPeriod, account: GoalAccount?, money: MoneyFormat) -> [String: Any] {
        [
            "name": name,
            "target": BudgetPhrases.target(goal.target, period: period, money: money)
                + (account.map { " · in " + GoalText.account($0, money: money) } ?? ""),
            "funded": money.string(goal.funded),
            "needed": money.string(goal.needed),
            "status": goal.progress.rawValue,
            "progress": GoalText.progress(goal, money: money),
        ]
    }

    private static func topExpense(_ expense: MonthlyReport.TopExpense, money: MoneyFormat) -> [String: Any] {
        [
            "name": expense.name,
            "budget": expense.budgetName,
            "date": expense.date.isoString,
            "amount": money.string(expense.amount),
            "quantity": String(expense.quantity),
            "multiple": expense.quantity > 1,
            "total": money.string(expense.total),
            "tags": expense.tags,
        ]
    }
}
