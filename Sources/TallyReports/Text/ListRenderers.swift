import TallyCore

/// Human renderings of the list commands (`budget list`, `budget show`, `expense list`) and the
/// confirmations of single changes, named `<what>As<Format>` like hledger's.
public enum ListRenderers {
    public static func budgetsAsTable(_ statuses: [BudgetStatus]) -> String {
        var table = Table([.left("Budget"), .right("Limit"), .right("Spent"), .right("Remaining"), .right("Expenses"), .left("Status")])
        for status in statuses {
            table.append([
                status.budget.name, status.budget.limit.groupedString, status.spent.groupedString,
                status.remaining.groupedString, String(status.expenseCount), statusMark(status),
            ])
        }
        return table.rendered()
    }

    public static func budgetAsText(_ status: BudgetStatus) -> String {
        var table = Table([.left(""), .right("")])
        table.append(["Limit", status.budget.limit.groupedString])
        table.append(["Spent", status.spent.groupedString])
        table.append(["Remaining", status.remaining.groupedString])
        let title = "\(status.budget.name), \(status.month.isoString)\(status.isOverBudget ? "  OVER BUDGET" : "")"
        return title + "\n\n" + table.rendered(header: false)
    }

    public static func expensesAsTable(_ expenses: [Expense], budgetNames: [Int64: String], showBudget: Bool = true) throws(TallyError) -> String {
        var columns: [Table.Column] = [.right("ID"), .left("Date"), .left("Name")]
        if showBudget { columns.append(.left("Budget")) }
        columns += [.right("Amount"), .right("Qty"), .right("Total"), .left("Tags")]
        var table = Table(columns)
        for expense in expenses {
            var row = [String(expense.id ?? 0), expense.date.isoString, expense.name]
            if showBudget { row.append(budgetNames[expense.budgetID] ?? "") }
            row += [
                expense.amount.groupedString, String(expense.quantity), try expense.total().groupedString,
                expense.tags.joined(separator: ", "),
            ]
            table.append(row)
        }
        return table.rendered()
    }

    /// One line describing a saved expense, as `expense add` and `expense edit` confirm it.
    public static func expenseLine(_ expense: Expense, budgetName: String) throws(TallyError) -> String {
        let quantity = expense.quantity == 1 ? "" : " × \(expense.quantity) = \(try expense.total().groupedString)"
        let tags = expense.tags.isEmpty ? "" : " [\(expense.tags.joined(separator: ", "))]"
        return "#\(expense.id ?? 0) \(expense.date.isoString) \(expense.name): "
            + "\(expense.amount.groupedString)\(quantity) in \(budgetName)\(tags)"
    }

    public static func remainingLine(_ status: BudgetStatus) -> String {
        "\(status.budget.name): \(status.remaining.groupedString) remaining of \(status.budget.limit.groupedString) for \(status.month.isoString)."
    }

    /// The table's status column: the budget's ``BudgetLevel``, shouting only when over.
    public static func statusMark(_ status: BudgetStatus) -> String {
        status.level == .over ? "OVER" : status.level.rawValue
    }
}
