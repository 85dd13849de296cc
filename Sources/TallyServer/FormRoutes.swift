import Foundation
import Hummingbird
import TallyCore
import TallyReports
import TallyUseCases

/// The forms: quick add, edit, remove and undo, each through the CLI's use case, each guarded
/// by the form's anti-forgery token; and the one-time sign-in link.
struct FormRoutes {
    let ledger: LedgerAccess
    let pages: Pages
    let secureCookie: Bool

    func add(to router: Router<ServeContext>) {
        router.get("add") { request, context in try await addForm(request, context) }
        router.post("add") { request, context in try await addExpense(request, context) }
        router.get("expenses/:id/edit") { request, context in try await editForm(request, context) }
        router.post("expenses/:id/edit") { request, context in try await editExpense(request, context) }
        router.post("expenses/:id/remove") { request, context in try await removeExpense(request, context) }
        router.post("undo") { request, context in try await undo(request, context) }
        router.get("login") { request, context in try await login(request, context) }
    }

    /// The quick add form; after a save (`?added=ID`) it shows what the budget has left.
    func addForm(_ request: Request, _ context: ServeContext, form: [String: String] = [:], problem: String? = nil) async throws -> Response {
        try context.require(.add, context.permission)
        let today = Day.today()
        let added = Int64(Parameters(query: request).text("added") ?? "")
        let (statuses, saved) = try await ledger.read { ledger, store -> ([BudgetStatus], (Expense, BudgetStatus?)?) in
            let statuses = try ListBudgets(period: .current, today: today).run(in: ledger).statuses
            guard let added else { return (statuses, nil) }
            let expense = try store.expense(id: added)
            let month = try store.settings().calendar.period(containing: expense.date)
            let status = try ListBudgets(period: .month(month), today: today).run(in: ledger).statuses.first { $0.budget.id == expense.budgetID }
            return (statuses, (expense, status))
        }
        var values = pages.frame(context, title: "Add", month: nil)
        var fields = form
        fields["date"] = fields["date"] ?? today.isoString
        fields["by"] = fields["by"] ?? context.holder ?? ""
        let chosen = fields["budget"] ?? saved.flatMap { $0.1?.budget.name }
        values["form"] = fields
        values["choices"] = statuses.map { ["name": $0.budget.name, "selected": $0.budget.name == chosen] as [String: Any] }
        values["withBy"] = true
        if let problem { values["problem"] = problem }
        if let (expense, status) = saved, let status {
            let figures = ListJSON.BudgetFigures(status)
            values["added"] = [
                "name": expense.name, "total": try expense.total().plainString, "budget": status.budget.name,
                "remaining": figures.remaining, "available": figures.available, "status": figures.status,
            ] as [String: Any]
        }
        return pages.page("add-page", values, status: problem == nil ? .ok : .badRequest)
    }

    func addExpense(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.add, context.permission)
        let form = try await checkedForm(request, context)
        let entry = QuickEntry(
            name: form["name"] ?? "", amount: form["amount"] ?? "", budget: form["budget"] ?? "", date: form["date"],
            tags: QuickEntry.tags(form["tags"]), by: form["by"])
        do {
            let addition = try entry.addition(today: Day.today())
            let saved = try await ledger.write { ledger, _ in try addition.run(in: ledger).expense }
            return Pages.redirect("/add?added=\(saved.id ?? 0)")
        } catch {
            return try await addForm(request, context, form: form.fields, problem: describe(error))
        }
    }

    func editForm(_ request: Request, _ context: ServeContext, form: [String: String]? = nil, problem: String? = nil) async throws -> Response {
        try context.require(.add, context.permission)
        let id = try Self.expenseID(context)
        let today = Day.today()
        let (expense, statuses) = try await ledger.read { ledger, store in
            (try store.expense(id: id), try ListBudgets(period: .current, today: today).run(in: ledger).statuses)
        }
        let budgetName = statuses.first { $0.budget.id == expense.budgetID }?.budget.name ?? ""
        let fields =
            form ?? [
                "name": expense.name, "amount": expense.amount.plainString, "date": expense.date.isoString,
                "tags": expense.tags.joined(separator: ", "), "budget": budgetName,
            ]
        var values = pages.frame(context, title: "Edit", month: nil)
        values["id"] = id
        values["form"] = fields
        values["choices"] = statuses.map { ["name": $0.budget.name, "selected": $0.budget.name == fields["budget"]] as [String: Any] }
        if let problem { values["problem"] = problem }
        return pages.page("edit-page", values, status: problem == nil ? .ok : .badRequest)
    }

    func editExpense(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.add, context.permission)
        let id = try Self.expenseID(context)
        let form = try await checkedForm(request, context)
        do {
            let entry = QuickEntry(
                name: form["name"] ?? "", amount: form["amount"] ?? "", budget: form["budget"] ?? "", date: form["date"],
                tags: QuickEntry.tags(form["tags"]), by: nil)
            let checked = try entry.addition(today: Day.today())
            let edit = EditExpense(
                id: id, name: checked.expense.name, amount: checked.expense.amount, date: checked.expense.date, budget: checked.budget,
                tags: checked.expense.tags)
            let month = try await ledger.write { ledger, store in
                let edited = try edit.run(in: ledger).expense
                return try store.settings().calendar.period(containing: edited.date)
            }
            return Pages.redirect("/expenses?month=\(month.isoString)&done=saved")
        } catch {
            return try await editForm(request, context, form: form.fields, problem: describe(error))
        }
    }

    func removeExpense(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.add, context.permission)
        let id = try Self.expenseID(context)
        _ = try await checkedForm(request, context)
        let month = try await ledger.write { ledger, store in
            let removed = try RemoveExpense(id: id).run(in: ledger)
            return try store.settings().calendar.period(containing: removed.date)
        }
        return Pages.redirect("/expenses?month=\(month.isoString)&done=removed")
    }

    /// Reverts the last change set, whoever made it, as `tally undo` does.
    func undo(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.manage, context.permission)
        _ = try await checkedForm(request, context)
        _ = try await ledger.write { ledger, _ in try UndoChangeSet().run(in: ledger).undone.id }
        return Pages.redirect("/expenses?done=undone")
    }

    /// `/login?token=…`: the first visit sets the token as an HttpOnly, SameSite=Strict cookie;
    /// the link then stops working (410), though the token itself does not.
    func login(_ request: Request, _ context: ServeContext) async throws -> Response {
        guard let token = Parameters(query: request).text("token") else { throw AccessCheck.unauthorized("the sign-in link has no token") }
        let hash = TokenHash.hash(token)
        let (known, fresh) = try await ledger.write { _, store in
            guard try ServeTokens.find(hash: hash, in: store) != nil else { return (false, false) }
            return (true, try ServeTokens.useLink(hash: hash, in: store))
        }
        guard known else { throw AccessCheck.unauthorized("unknown or revoked token") }
        guard fresh else { throw HTTPError(.gone, message: "this sign-in link has been used: ask for a new token") }
        var cookie = "\(AccessCheck.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
        if secureCookie { cookie += "; Secure" }
        return Response(status: .seeOther, headers: [.location: "/", .setCookie: cookie])
    }

    private func checkedForm(_ request: Request, _ context: ServeContext) async throws -> Parameters {
        try await pages.guardian.checkedForm(request, context)
    }

    private static func expenseID(_ context: ServeContext) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        return id
    }
}

extension FormGuard {
    /// The posted form, once its anti-forgery token matches this session's.
    func checkedForm(_ request: Request, _ context: ServeContext) async throws -> Parameters {
        var request = request
        let body = try await request.boundedBody()
        let form = Parameters(encoded: Substring(body))
        guard let csrf = form["csrf"], accepts(csrf, for: context.subject) else {
            throw HTTPError(.forbidden, message: "the form is missing its anti-forgery token or it has expired: reload the page")
        }
        return form
    }
}
