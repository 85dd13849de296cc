import Foundation
import TallyCore

/// What `--json` prints: Codable mirrors of the models with amounts as two-decimal strings,
/// so no reader ever sees a binary floating-point amount.
enum JSONOutput {
    struct BudgetFigures: Codable, Equatable {
        let name: String
        let limit: String
        let spent: String
        let remaining: String
        let month: String
        let overBudget: Bool
        let expenseCount: Int

        init(_ status: BudgetStatus) {
            name = status.budget.name
            limit = status.budget.limit.plainString
            spent = status.spent.plainString
            remaining = status.remaining.plainString
            month = status.month.isoString
            overBudget = status.isOverBudget
            expenseCount = status.expenseCount
        }
    }

    /// A budget's figures with its expenses beside them, in one flat object.
    struct BudgetDetail: Encodable {
        let figures: BudgetFigures
        let expenses: [ExpenseItem]

        private enum CodingKeys: String, CodingKey {
            case expenses
        }

        init(_ status: BudgetStatus, expenses: [Expense]) throws(TallyError) {
            figures = BudgetFigures(status)
            var items: [ExpenseItem] = []
            for expense in expenses { items.append(try ExpenseItem(expense, budgetName: status.budget.name)) }
            self.expenses = items
        }

        func encode(to encoder: any Encoder) throws {
            try figures.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(expenses, forKey: .expenses)
        }
    }

    struct ExpenseItem: Codable, Equatable {
        let id: Int64
        let name: String
        let amount: String
        let quantity: Int64
        let total: String
        let date: String
        let budget: String
        let tags: [String]

        init(_ expense: Expense, budgetName: String) throws(TallyError) {
            id = expense.id ?? 0
            name = expense.name
            amount = expense.amount.plainString
            quantity = expense.quantity
            total = try expense.total().plainString
            date = expense.date.isoString
            budget = budgetName
            tags = expense.tags
        }
    }

    /// One pretty-printed document with sorted keys, so output is stable and diffable.
    static func encode(_ value: some Encodable) throws(TallyError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .storage("could not encode JSON: \(error.localizedDescription)")
        }
    }
}
