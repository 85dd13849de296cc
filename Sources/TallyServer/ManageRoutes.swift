import Foundation
import Hummingbird
import TallyCore
import TallyUseCases

/// What `manage` may do besides undo: add, edit and remove budgets, and add and remove import
/// rules. Each form posts to the CLI's use case (`AddBudget`, `EditBudget`, `RemoveBudget`,
/// `AddRule`, `RemoveRule`), so the history, undo and snapshots follow as on the command line.
/// A request below `manage` is refused before its body is read.
struct ManageRoutes {
    let ledger: LedgerAccess
    let pages: Pages

    func add(to router: Router<ServeContext>) {
        router.get("budgets/new") { request, context in try await budgetForm(request, context) }
        router.post("budgets/new") { request, context in try await addBudget(request, context) }
        router.get("budgets/:id/edit") { request, context in try await budgetForm(request, context) }
        router.post("budgets/:id/edit") { request, context in try await editBudget(request, context) }
        router.post("budgets/:id/remove") { request, context in try await removeBudget(request, context) }
        router.get("rules") { request, context in try await rules(request, context) }
        router.post("rules") { request, context in try await addRule(request, context) }
        router.post("rules/:id/remove") { request, context in try await removeRule(request, context) }
    }

    // MARK: - Budgets

    /// The form for a new budget, or for the budget `:id` filled with what it has now.
    func budgetForm(_ request: Request, _ context: ServeContext, form: [String: String]? = nil, problem: String? = nil) async throws -> Response {
        try context.require(.manage, context.permission)
        let id = try Self.optionalID(context)
        var fields = form ?? ["period": "monthly", "rollover": "none"]
        var values = pages.frame(context, title: id == nil ? "New budget" : "Edit budget", month: nil)
        if let id {
            let budget = try await ledger.read { _, store in try Self.budget(id: id, in: store) }
            if form == nil {
                fields = [
                    "name": budget.name, "limit": budget.limit.plainString, "rollover": budget.rollover.rawValue,
                    "cap": budget.cap?.plainString ?? "", "warn": String(budget.warn),
                ]
            }
            values["id"] = id
            values["budgetName"] = budget.name
            values["editing"] = true
        }
        values["form"] = fields
        values["periods"] = BudgetPeriod.allCases.map { ["value": $0.rawValue, "selected": $0.rawValue == fields["period"]] as [String: Any] }
        values["rollovers"] = RolloverPolicy.allCases.map { ["value": $0.rawValue, "selected": $0.rawValue == fields["rollover"]] as [String: Any] }
        if let problem { values["problem"] = problem }
        return pages.page("budget-page", values, status: problem == nil ? .ok : .badRequest)
    }

    /// `budget add NAME --limit … [--period …] [--from … --to …] [--rollover …] [--cap …] [--start …] [--warn …]`.
    func addBudget(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.manage, context.permission)
        let form = try await pages.guardian.checkedForm(request, context)
        do {
            let today = Day.today()
            let period = try Self.choice(form, "period", BudgetPeriod.monthly)
            var range: DayInterval?
            if period == .once {
                guard let from = form.text("from"), let to = form.text("to") else { throw HTTPError(.badRequest, message: "a once budget needs its first and last day") }
                range = DayInterval(first: try QuickEntry.day(from, today: today), last: try QuickEntry.day(to, today: today))
            }
            let budget = Budget(
                name: form.text("name") ?? "", limit: try Self.money(form.text("limit") ?? ""), period: period,
                rollover: try Self.choice(form, "rollover", RolloverPolicy.none), cap: try form.text("cap").map(Self.money),
                start: try form.text("start").map { (text: String) throws(TallyError) in try Month(parsing: text) }, range: range)
            let addition = AddBudget(budget, warn: try Self.warn(form))
            _ = try await ledger.write { ledger, _ in try addition.run(in: ledger) }
            return Pages.redirect("/budgets?done=budget-added")
        } catch {
            return try await budgetForm(request, context, form: form.fields, problem: describe(error))
        }
    }

    /// `budget edit NAME [--name …] [--limit …] [--rollover …] [--cap …|none] [--warn …]`: a new
    /// limit applies from the current period, as the CLI's does without `--from`.
    func editBudget(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.manage, context.permission)
        let id = try Self.id(context)
        let form = try await pages.guardian.checkedForm(request, context)
        do {
            let cap = try form.text("cap").map(Self.money)
            let (newName, limit, rollover, warn) = (form.text("name"), try form.text("limit").map(Self.money), try Self.choice(form, "rollover", RolloverPolicy.none), try Self.warn(form))
            let today = Day.today()
            try await ledger.write { ledger, store in
                let budget = try Self.budget(id: id, in: store)
                let name = budget.name
                // An unchanged limit is left alone: setting it would start a limit change this period.
                _ = try EditBudget(
                    name: name, newName: newName == name ? nil : newName, newLimit: limit == budget.limit ? nil : limit, rollover: rollover, cap: cap,
                    removesCap: cap == nil && budget.cap != nil,
                    warn: warn, today: today
                ).run(in: ledger)
            }
            return Pages.redirect("/budgets?done=budget-saved")
        } catch {
            return try await budgetForm(request, context, form: form.fields, problem: describe(error))
        }
    }

    /// `budget remove NAME`, with `--yes` only when the form's box to remove its expenses is ticked.
    func removeBudget(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.manage, context.permission)
        let id = try Self.id(context)
        let form = try await pages.guardian.checkedForm(request, context)
        do {
            let withExpenses = form["expenses"] == "remove"
            try await ledger.write { ledger, store in
                let name = try Self.budget(id: id, in: store).name
                _ = try RemoveBudget(name: name, includingExpenses: withExpenses).run(in: ledger)
            }
            return Pages.redirect("/budgets?done=budget-removed")
        } catch {
            return try await budgetForm(request, context, problem: describe(error))
        }
    }

    // MARK: - Import rules

    /// `rule list`, with the form for `rule add` and a remove button per rule.
    func rules(_ request: Request, _ context: ServeContext, form: [String: String] = [:], problem: String? = nil) async throws -> Response {
        try context.require(.view, context.permission)
        let (rules, budgets) = try await ledger.read { ledger, store in (try ListRules().run(in: ledger), try store.budgets()) }
        var values = pages.frame(context, title: "Import rules", month: nil)
        values["rules"] = rules.map { rule -> [String: Any] in
            [
                "id": rule.id ?? 0, "pattern": rule.pattern, "budget": rule.transferTo.map { "→ \($0)" } ?? rule.budget,
                "tags": rule.tags.joined(separator: ", "), "rename": rule.rename ?? "", "priority": rule.priority,
            ]
        }
        values["hasRules"] = !rules.isEmpty
        values["form"] = form
        values["choices"] = budgets.map { ["name": $0.name, "selected": $0.name == form["budget"]] as [String: Any] }
        if let done = Parameters(query: request).text("done"), let notice = Self.notices[done] { values["notice"] = notice }
        if let problem { values["problem"] = problem }
        return pages.page("rules-page", values, status: problem == nil ? .ok : .badRequest)
    }

    /// `rule add PATTERN --budget B [--tag …] [--rename …] [--priority …]`.
    func addRule(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.manage, context.permission)
        let form = try await pages.guardian.checkedForm(request, context)
        do {
            let priority = try form.number("priority", fallback: ImportRule.defaultPriority, range: -1_000_000...1_000_000)
            let rule = ImportRule(
                pattern: form["pattern"] ?? "", budget: form.text("budget") ?? "", tags: QuickEntry.tags(form["tags"]), rename: form.text("rename"),
                priority: priority)
            let addition = AddRule(rule)
            _ = try await ledger.write { ledger, _ in try addition.run(in: ledger) }
            return Pages.redirect("/rules?done=rule-added")
        } catch {
            return try await rules(request, context, form: form.fields, problem: describe(error))
        }
    }

    /// `rule remove ID`.
    func removeRule(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.manage, context.permission)
        let id = try Self.id(context)
        _ = try await pages.guardian.checkedForm(request, context)
        try await ledger.write { ledger, _ in try RemoveRule(id: id).run(in: ledger) }
        return Pages.redirect("/rules?done=rule-removed")
    }

    static let notices = ["rule-added": "Added the rule.", "rule-removed": "Removed the rule."]

    // MARK: - Values

    static func budget(id: Int64, in store: any DataAccess) throws -> Budget {
        guard let budget = try store.budgets().first(where: { $0.id == id }) else { throw HTTPError(.notFound, message: "no budget #\(id)") }
        return budget
    }

    static func money(_ text: String) throws(TallyError) -> Money { try Money(parsing: text) }

    static func warn(_ form: Parameters) throws -> Int? {
        guard form.text("warn") != nil else { return nil }
        return try form.number("warn", fallback: BudgetLevel.defaultWarnPercent, range: 1...100)
    }

    static func choice<Value: RawRepresentable & CaseIterable>(_ form: Parameters, _ name: String, _ fallback: Value) throws -> Value
    where Value.RawValue == String {
        try APIRoutes.choice(form, name, fallback)
    }

    static func id(_ context: ServeContext) throws -> Int64 {
        guard let id = try optionalID(context) else { throw HTTPError(.notFound) }
        return id
    }

    static func optionalID(_ context: ServeContext) throws -> Int64? {
        guard let text = context.parameters.get("id") else { return nil }
        guard let id = Int64(text), id > 0 else { throw HTTPError(.notFound) }
        return id
    }
}
