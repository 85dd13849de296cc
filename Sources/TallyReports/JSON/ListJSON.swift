import Foundation
import TallyCore

/// What the list commands' `--json` prints: Codable mirrors of the models with amounts as
/// two-decimal strings, so no reader ever sees a binary floating-point amount. Field names are
/// the one vocabulary of every `--json` output, the month report's included (README, "JSON").
public enum ListJSON {
    public struct BudgetFigures: Codable, Equatable, Sendable {
        public let name: String
        public let limit: String
        public let spent: String
        public let remaining: String
        public let share: String
        public let status: String
        public let over: Bool
        public let expenseCount: Int
        public let month: String

        public init(_ status: BudgetStatus) {
            name = status.budget.name
            limit = status.budget.limit.plainString
            spent = status.spent.plainString
            remaining = status.remaining.plainString
            share = status.share.ratioString
            self.status = status.level.rawValue
            over = status.level == .over
            expenseCount = status.expenseCount
            month = status.month.isoString
        }
    }

    /// A budget's figures with its expenses beside them, in one flat object.
    public struct BudgetDetail: Encodable, Sendable {
        let figures: BudgetFigures
        let expenses: [ExpenseItem]

        private enum CodingKeys: String, CodingKey {
            case expenses
        }

        public init(_ status: BudgetStatus, expenses: [Expense]) throws(TallyError) {
            figures = BudgetFigures(status)
            var items: [ExpenseItem] = []
            for expense in expenses { items.append(try ExpenseItem(expense, budgetName: status.budget.name)) }
            self.expenses = items
        }

        public func encode(to encoder: any Encoder) throws {
            try figures.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(expenses, forKey: .expenses)
        }
    }

    public struct ExpenseItem: Codable, Equatable, Sendable {
        public let id: Int64
        public let name: String
        public let amount: String
        public let quantity: Int64
        public let total: String
        public let date: String
        public let budget: String
        public let tags: [String]

        public init(_ expense: Expense, budgetName: String) throws(TallyError) {
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

    /// One pretty-printed document with sorted keys, so output is stable and diffable: every
    /// `--json` output and the JSON report.
    public static func encode(_ value: some Encodable) throws(ReportError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .encodingFailed("cannot encode JSON: \(error.localizedDescription)")
        }
    }
}
