import Foundation
import Hummingbird
import TallyCore
import TallyReports
import TallyUseCases

/// `/api/`: the CLI's `--json` answers, byte for byte (each ends in one newline, as the CLI's
/// stdout does), and the quick add as JSON.
struct APIRoutes {
    let ledger: LedgerAccess
    let reports: ReportCache

    func add(to router: Router<ServeContext>) {
        let api = router.group("api")
        api.get("report") { request, context in try await report(request, context) }
        api.get("budgets") { request, context in try await budgets(request, context) }
        api.get("expenses") { request, context in try await expenses(request, context) }
        api.post("expenses") { request, context in try await addExpense(request, context) }
    }

    /// `tally report --month M --format json`.
    func report(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let body = try await reports.report(Parameters(query: request), in: ledger).json
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: body))
    }

    /// `tally budget list --month M --json`, with `search`, `sort` and `desc` as its flags.
    func budgets(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let query = Parameters(query: request)
        let today = Day.today()
        let list = ListBudgets(
            period: try query.period(today: today), search: query.text("search"), order: try Self.choice(query, "sort", BudgetOrder.name),
            descending: query.text("desc") == "true", today: today)
        return Self.json(try await ledger.read { ledger, _ in try list.run(in: ledger).json() })
    }

    /// `tally expense list --json` with the same filters: `month`, `search`, `budget`, `tag`,
    /// `by`, `sort`, `desc`, `page`, `page-size`.
    func expenses(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.view, context.permission)
        let list = try Self.expenseList(Parameters(query: request), today: Day.today())
        return Self.json(try await ledger.read { ledger, _ in try list.run(in: ledger).json() })
    }

    /// A JSON expense as `tally add` takes it: `name`, `amount` (text such as "3.50"),
    /// `budget`, and optionally `date`, `tags`, `by`, `quantity`. Answers 201 with the expense
    /// and its budget's figures for that period.
    func addExpense(_ request: Request, _ context: ServeContext) async throws -> Response {
        try context.require(.add, context.permission)
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw HTTPError(.unsupportedMediaType, message: "send the expense as application/json")
        }
        var request = request
        let body = try await request.boundedBody()
        let input: ExpenseInput
        do {
            input = try JSONDecoder().decode(ExpenseInput.self, from: Data(body.utf8))
        } catch {
            throw HTTPError(.badRequest, message: "the body is not a JSON expense: name, amount (text such as \"3.50\") and budget are needed")
        }
        let addition = try QuickEntry(
            name: input.name, amount: input.amount, budget: input.budget, date: input.date, tags: input.tags ?? [], by: input.by,
            quantity: input.quantity ?? 1
        ).addition(today: Day.today())
        let text = try await ledger.write { ledger, _ in
            let (expense, status) = try addition.run(in: ledger)
            return try ListJSON.encode(AddedExpense(
                expense: try ListJSON.ExpenseItem(expense, budgetName: status.budget.name), budget: ListJSON.BudgetFigures(status)))
        }
        return Self.json(text, status: .created)
    }

    static func expenseList(_ query: Parameters, today: Day) throws -> ListExpenses {
        var list = ListExpenses(
            budget: query.text("budget"), search: query.text("search"), tag: query.text("tag"), sort: try choice(query, "sort", ExpenseSort.date),
            descending: query.text("desc") == "true", page: try query.number("page", fallback: 1, range: 1...Int(Int32.max)),
            pageSize: try query.number("page-size", fallback: 50, range: 1...ListExpenses.maximumPageSize))
        list.by = query.text("by")
        if query.text("month") != nil { list.period = try query.period(today: today) }
        return list
    }

    static func choice<Value: RawRepresentable & CaseIterable>(_ query: Parameters, _ name: String, _ fallback: Value) throws -> Value
    where Value.RawValue == String {
        guard let text = query.text(name) else { return fallback }
        guard let value = Value(rawValue: text) else {
            throw HTTPError(.badRequest, message: "invalid \(name) \(quoted(text)): use \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// `text` and a newline, as `Console.write` prints it.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

private struct ExpenseInput: Decodable {
    var name: String
    var amount: String
    var budget: String
    var date: String?
    var tags: [String]?
    var by: String?
    var quantity: Int64?
}

private struct AddedExpense: Encodable {
    var expense: ListJSON.ExpenseItem
    var budget: ListJSON.BudgetFigures
}

/// A message for any error a use case or a parser throws.
func describe(_ error: any Error) -> String {
    if let error = error as? HTTPError { return error.body ?? error.status.reasonPhrase }
    if let error = error as? any LocalizedError, let text = error.errorDescription { return text }
    return "\(error)"
}
