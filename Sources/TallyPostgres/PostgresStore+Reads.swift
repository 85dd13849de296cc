import Foundation
import PostgresNIO
import TallyCore

// Lists, lookups, and the figures no report reads on every run (carried amounts per period,
// unit prices, why-over groups): Core's rules on the rows a query selects. The figures every
// report and `budget list` read are summed on the server (`PostgresStore+Aggregates.swift`).
extension PostgresStore {
    // MARK: - Lists

    /// The expenses `query` asks for, inside the caller's transaction.
    func loadExpenses(_ query: ExpenseQuery) throws(TallyError) -> [Expense] {
        if let largest = try largestExpenses(query) { return largest }
        let filter = try Filter(query, paged: true)
        return try loadExpenses(where: filter.sql, filter.binds, suffix: filter.order)
    }

    /// How many expenses `query` matches, inside the caller's transaction.
    func countExpenses(matching query: ExpenseQuery) throws(TallyError) -> Int {
        let filter = try Filter(query, paged: false)
        return Int(try session.query("SELECT count(*) FROM expense WHERE \(filter.sql)", filter.binds).first?.int(0) ?? 0)
    }

    /// Hands each expense `query` asks for to `body`, inside the caller's transaction, a page of
    /// 10,000 at a time, so an export of any size holds one page, not the whole ledger.
    func forEachExpense(_ query: ExpenseQuery, _ body: (Expense) throws(TallyError) -> Void) throws(TallyError) {
        let page = 10_000
        var paged = query
        paged.offset = max(query.offset, 0)
        var left = query.limit.map { max($0, 0) } ?? Int.max
        while left > 0 {
            paged.limit = min(page, left)
            let expenses = try loadExpenses(paged)
            for expense in expenses { try body(expense) }
            guard expenses.count == paged.limit else { return }
            paged.offset += expenses.count
            left -= expenses.count
        }
    }

    // MARK: - Figures

    public func unitPrices(matching search: String, in days: DayInterval) throws(TallyError) -> [Day: UnitPriceFigures] {
        try read { () throws(TallyError) in try UnitPriceFigures.byDay(matching: search, in: days, of: try expenses(within: days)) }
    }

    /// From `expenseGroup`, summed over the periods.
    public func spendingGroups(ofBudgets ids: Set<Int64>, in months: ClosedRange<Month>) throws(TallyError) -> [SpendingGroup] {
        guard !ids.isEmpty else { return [] }
        return try read { () throws(TallyError) in
            let rows = try session.query(
                """
                SELECT budgetId, nameKey, name COLLATE "C", tags, spentCents::bigint, expenseCount FROM expenseGroup
                WHERE budgetId = ANY($1) AND month BETWEEN $2 AND $3
                """, [.ints(Array(ids)), .int(months.lowerBound.stored), .int(months.upperBound.stored)])
            return try SpendingGroup.merged(
                rows.map { row throws(TallyError) in
                    SpendingGroup(
                        budgetID: try row.int(0), nameKey: try row.string(1), name: try row.string(2), tags: try row.strings(3),
                        spent: Money(cents: try row.int(4)), count: Int(try row.int(5)))
                })
        }
    }

    // MARK: - Helpers

    private func expenses(within days: DayInterval) throws(TallyError) -> [Expense] {
        try loadExpenses(where: "date BETWEEN $1 AND $2", [.int(days.first.stored), .int(days.last.stored)])
    }
}

/// An expense query as SQL: its WHERE clause with binds, and its ORDER BY with LIMIT and OFFSET.
/// Names sort by the bytes of their key (`COLLATE "C"`), ties by id in the same direction.
struct Filter {
    var sql = "TRUE"
    var binds: [SQLValue] = []
    var order = ""

    init(_ query: ExpenseQuery, paged: Bool) throws(TallyError) {
        var conditions: [String] = []
        func bind(_ value: SQLValue) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        if let ids = query.ids { conditions.append("id = ANY(\(bind(.ints(ids))))") }
        let between = query.days.map { days in "BETWEEN \(bind(.int(days.first.stored))) AND \(bind(.int(days.last.stored)))" }
        if let budgetID = query.budgetID {
            // A split expense is in each of its lines' budgets (`expense_detail` finds the split ones,
            // within the query's days when it has some).
            let id = bind(.int(budgetID))
            let within = between.map { "AND s.date \($0) " } ?? ""
            conditions.append(
                "(budgetId = \(id) OR id IN (SELECT s.id FROM expense s WHERE s.detail <> '' \(within)AND position(chr(30) || \(id)::text || chr(29) IN chr(30) || s.detail) > 0))")
        }
        if let between { conditions.append("date \(between)") }
        if let search = query.search.map(NameKey.make), !search.isEmpty { conditions.append("strpos(nameKey, \(bind(.text(search)))) > 0") }
        if let tag = query.tag {
            let normalized = try Expense.normalizedTag(tag).precomposedStringWithCanonicalMapping
            conditions.append("\(bind(.text(normalized))) = ANY(tags)")
        }
        if let by = query.by { conditions.append("spentBy = \(bind(.text(try Expense.validatedBy(by))))") }
        if let accountID = query.accountID { conditions.append("accountId = \(bind(.int(accountID)))") }
        if query.inOtherCurrency { conditions.append("originalCurrency IS NOT NULL") }
        if query.splitOrRefund { conditions.append("detail <> ''") }
        if !conditions.isEmpty { sql = conditions.joined(separator: " AND ") }
        guard paged else { return }
        let direction = query.descending ? "DESC" : "ASC"
        let key =
            switch query.sort {
            case .date: "date"
            case .amount: "amountCents"
            case .total: "(amountCents::numeric * quantity)"
            case .name: "nameKey COLLATE \"C\""
            }
        order = "ORDER BY \(key) \(direction), id \(direction)"
        if let limit = query.limit { order += " LIMIT \(max(limit, 0))" }
        if query.offset > 0 { order += " OFFSET \(query.offset)" }
    }
}
