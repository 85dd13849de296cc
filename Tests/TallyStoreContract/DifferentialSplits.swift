import Foundation
import TallyCore

// The differential test's split and refund operations: split receipts added, existing expenses
// split and unsplit, refunds with and without the expense they return, so that every store's
// caches and figures meet the rule with lines counted in their budgets. About one in five breaks
// a rule (an unknown budget, two rests, lines that do not sum, a missing expense).
extension Differential {
    enum SplitOperation: CustomStringConvertible {
        case add(Expense, lines: [NamedLine])
        case split(Int64, lines: [NamedLine])
        case unsplit(Int64, budget: String)
        case refund(Expense, budget: String, of: Int64?)

        var description: String {
            switch self {
            case .add(let expense, let lines): "addSplitExpense(\(expense.amount)×\(expense.quantity) \(expense.date), \(Self.describe(lines)))"
            case .split(let id, let lines): "splitExpense(#\(id), \(Self.describe(lines)))"
            case .unsplit(let id, let budget): "unsplitExpense(#\(id), \(budget.debugDescription))"
            case .refund(let refund, let budget, let of): "addRefund(\(refund.amount) \(refund.date) into \(budget.debugDescription) of \(of.map { "#\($0)" } ?? "-"))"
            }
        }

        private static func describe(_ lines: [NamedLine]) -> String {
            lines.map { "\($0.budget.debugDescription)=\($0.share.text)\($0.tags.isEmpty ? "" : " \($0.tags)")" }.joined(separator: ", ")
        }

        func apply(to store: any DataAccess) throws(TallyError) -> Answer {
            switch self {
            case .add(let expense, let lines): .expense(try store.addSplitExpense(expense, lines: lines).expense)
            case .split(let id, let lines): .expense(try store.splitExpense(id: id, lines: lines))
            case .unsplit(let id, let budget): .expense(try store.unsplitExpense(id: id, budgetNamed: budget))
            case .refund(let refund, let budget, let of): .expense(try store.addRefund(refund, toBudgetNamed: budget, of: of).expense)
            }
        }

        static func random(using generator: inout SeededGenerator, current: any DataAccess) throws -> SplitOperation {
            let budgets = try current.budgets().map(\.name)
            let expenses = try current.expenses(ExpenseQuery())
            func budget() -> String {
                Int.random(in: 0..<12, using: &generator) == 0 || budgets.isEmpty ? "Nowhere" : budgets.randomElement(using: &generator) ?? "Nowhere"
            }
            func existing() -> Int64 {
                Int.random(in: 0..<10, using: &generator) == 0 || expenses.isEmpty
                    ? Int64.random(in: 1...500, using: &generator) : expenses.randomElement(using: &generator)?.id ?? 1
            }
            func lines(total: Money) -> [NamedLine] {
                let count = Int.random(in: 2...3, using: &generator)
                var result: [NamedLine] = []
                for index in 0..<count {
                    let share: LineShare
                    switch Int.random(in: 0..<10, using: &generator) {
                    case 0..<3: share = .percent(Int64([2_500, 3_333, 5_000, 6_000].randomElement(using: &generator) ?? 5_000))
                    case 3..<6: share = .amount(Money(cents: max(1, total.cents / Int64(count + 1))))
                    case 6: share = .rest
                    default: share = index == count - 1 ? .rest : .percent(1_000)
                    }
                    let tags = Int.random(in: 0..<4, using: &generator) == 0 ? [Fixtures.pick(Fixtures.tags, else: Fixtures.badTags, oneIn: 12, &generator)] : []
                    result.append(NamedLine(budget: budget(), share: share, tags: tags))
                }
                return result
            }
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let expense = Fixtures.expense(&generator, budgetID: 0)
                return .add(expense, lines: lines(total: (try? expense.total()) ?? expense.amount))
            case 4..<6:
                let id = existing()
                let total = (try? expenses.first { $0.id == id }?.total()) ?? Money(cents: 1_000)
                return .split(id, lines: lines(total: total))
            case 6..<8:
                let split = expenses.filter { !$0.lines.isEmpty }
                let id = split.randomElement(using: &generator)?.id ?? existing()
                return .unsplit(id, budget: budget())
            default:
                var refund = Fixtures.expense(&generator, budgetID: 0)
                refund.isRefund = true
                return .refund(refund, budget: budget(), of: Bool.random(using: &generator) ? existing() : nil)
            }
        }
    }
}
