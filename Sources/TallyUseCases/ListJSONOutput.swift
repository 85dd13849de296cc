import TallyCore
import TallyReports

// The `--json` answers of `budget list` and `expense list`, written once for the CLI and for
// `tally serve`'s API, which must print them byte for byte alike.

extension ListBudgets.Result {
    /// `budget list --json`.
    public func json() throws -> String {
        try ListJSON.encode(statuses.map {
            ListJSON.BudgetFigures($0, pace: paces[$0.budget.id ?? 0], goalAccount: $0.budget.target?.accountID.flatMap { goalAccounts[$0] })
        })
    }
}

extension ListExpenses.Page {
    /// `expense list --json`.
    public func json() throws -> String {
        var items: [ListJSON.ExpenseItem] = []
        for expense in expenses {
            items.append(try ListJSON.ExpenseItem(
                expense, budgetName: expense.lines.isEmpty ? budgetNames[expense.budgetID] ?? "" : "split",
                accountName: expense.accountID.flatMap { accountNames[$0] }, budgetNames: budgetNames))
        }
        return try ListJSON.encode(items)
    }
}
