import Foundation
import Hummingbird
import TallyCore
import TallyReports
import TallyUseCases

/// The read-only views: the month report, budgets, expenses, reports over time and upcoming
/// bills. Months are plain `?month=` links; nothing needs JavaScript.
struct PageRoutes {
    let ledger: LedgerAccess
    let reports: ReportCache
    let pages: Pages

    func add(to router: Router<ServeContext>) {
        router.get("/") { request, context in try await report(request, context) }
        router.get("budgets") { request, context in try await budgets(request, context) }
        router.get("expenses") { request, context in try await expenses(request, context) }
        router.get("range") { request, context in try await range(request, context) }
        router.get("upcoming") { request, context in try await upcoming(request, context) }
        router.get("static/style.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=3600"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: pages.styles)))
        }
    }

    /// The month report: `tally report`'s figures and charts in its own HTML template.
    func report(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let report = try await reports.report(Parameters(query: request), in: ledger).report
        var renderer = HTMLRenderer(chartScale: 2, money: MoneyFormat(locale: .neutral, currency: report.currency))
        renderer.partials = ["nav": pages.navigation(pages.frame(context, title: "Report", month: report.month))]
        return Pages.html(try renderer.render(report))
    }

    func budgets(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let today = Day.today()
        let period = try Parameters(query: request).period(today: today)
        let result = try await ledger.read { ledger, _ in try ListBudgets(period: period, today: today).run(in: ledger) }
        var values = pages.frame(context, title: "Budgets", month: result.period)
        let rows: [[String: Any]] = result.statuses.map { status in
            let figures = ListJSON.BudgetFigures(
                status, pace: result.paces[status.budget.id ?? 0], goalAccount: status.budget.target?.accountID.flatMap { result.goalAccounts[$0] })
            var row: [String: Any] = [
                "name": figures.name, "urlName": urlEncoded(figures.name), "month": result.period.isoString, "available": figures.available,
                "spent": figures.spent, "remaining": figures.remaining, "status": figures.status, "share": Self.percent(figures.share),
                "id": status.budget.id ?? 0,
            ]
            if let projected = figures.projected { row["projected"] = projected }
            if let perDay = figures.perDay { row["perDay"] = perDay }
            if let goal = figures.goal { row["goal"] = "\(goal.funded) of \(goal.target) · \(goal.status)" }
            return row
        }
        values["budgets"] = rows
        values["hasBudgets"] = !rows.isEmpty
        if let done = Parameters(query: request).text("done"), let notice = Self.notices[done] { values["notice"] = notice }
        return pages.page("budgets-page", values)
    }

    /// Expenses with search, sort by column and pages; the current month unless `month` names one.
    func expenses(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let today = Day.today()
        let query = Parameters(query: request)
        var list = try APIRoutes.expenseList(query, today: today)
        let period = try query.period(today: today)
        list.period = period
        let chosen = list
        let (page, month) = try await ledger.read { ledger, store in
            (try chosen.run(in: ledger), try period.resolved(in: try store.settings().calendar, today: today))
        }
        let search = query.text("search") ?? ""
        let budget = query.text("budget")
        var base = "/expenses?month=\(month.isoString)&search=\(urlEncoded(search))"
        if let budget { base += "&budget=\(urlEncoded(budget))" }
        let sorted = base + "&sort=\(list.sort.rawValue)&desc=\(list.descending)"
        var values = pages.frame(
            context, title: "Expenses", month: month, query: "&search=\(urlEncoded(search))" + (budget.map { "&budget=\(urlEncoded($0))" } ?? ""))
        values["search"] = search
        if let done = query.text("done"), let notice = Self.notices[done] { values["notice"] = notice }
        if let budget { values["budget"] = budget }
        values["total"] = page.total == 1 ? "1 expense" : "\(page.total) expenses"
        values["page"] = list.page
        values["pageCount"] = max(page.pageCount, 1)
        values["sorts"] = [("date", "Date", "", ExpenseSort.date), ("name", "Name", "", .name), ("total", "Total", "num", .total)].map { key, label, align, sort in
            let active = list.sort == sort
            return ["label": label, "align": align, "active": active, "arrow": list.descending ? "↓" : "↑",
                    "link": base + "&sort=\(key)&desc=\(active ? !list.descending : false)"] as [String: Any]
        }
        values["expenses"] = try page.expenses.map { expense -> [String: Any] in
            [
                "id": expense.id ?? 0, "date": expense.date.isoString, "name": expense.name, "total": try expense.total().plainString,
                "budget": page.budgetNames[expense.budgetID] ?? "", "tags": expense.tags.joined(separator: ", "), "by": expense.by,
            ]
        }
        values["hasExpenses"] = !page.expenses.isEmpty
        if list.page > 1 { values["previousPage"] = sorted + "&page=\(list.page - 1)" }
        if list.page < page.pageCount { values["nextPage"] = sorted + "&page=\(list.page + 1)" }
        return pages.page("expenses-page", values)
    }

    /// A share as `budget list --json` writes it ("0.0800") as people read it ("8%").
    static func percent(_ share: String) -> String {
        guard let value = Double(share) else { return share }
        return "\(Int((value * 100).rounded()))%"
    }

    /// What a form's redirect says happened; fixed texts, so a link cannot make the page say anything else.
    static let notices = [
        "saved": "Saved the expense.", "removed": "Removed the expense.", "undone": "Undid the last change.",
        "budget-added": "Added the budget.", "budget-saved": "Saved the budget.", "budget-removed": "Removed the budget.",
    ]

    /// The six periods up to `month`, as `tally report --from --to --format html` draws them.
    func range(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let today = Day.today()
        let period = try Parameters(query: request).period(today: today)
        let (report, month) = try await ledger.read { ledger, store in
            let last = try period.resolved(in: try store.settings().calendar, today: today)
            let span = PeriodsReport.Span.months(from: .month(last.adding(months: -5)), to: .month(last))
            return (try PeriodsReport(span: span, today: today).run(in: ledger), last)
        }
        var renderer = RangeHTMLRenderer(chartScale: 2, money: .plain)
        renderer.partials = ["nav": pages.navigation(pages.frame(context, title: "Over time", month: month))]
        return Pages.html(try renderer.render(report))
    }

    func upcoming(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let (occurrences, names) = try await ledger.read { ledger, _ in try ListUpcoming(today: Day.today()).run(in: ledger) }
        var values = pages.frame(context, title: "Upcoming", month: nil)
        values["days"] = ListUpcoming.defaultDays
        values["bills"] = try occurrences.map { occurrence -> [String: Any] in
            [
                "day": occurrence.date.isoString, "name": occurrence.rule.name, "amount": try occurrence.total.plainString,
                "budget": names[occurrence.rule.budgetID] ?? "", "overdue": occurrence.overdue,
            ]
        }
        values["hasBills"] = !occurrences.isEmpty
        return pages.page("upcoming-page", values)
    }
}
