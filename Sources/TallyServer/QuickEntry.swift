import Foundation
import Hummingbird
import TallyCore
import TallyUseCases

/// A quick add as a form or a JSON body gives it, checked by Core's rules into `tally add`'s
/// use case; a bad value is a 400 with the rule's own message.
struct QuickEntry: Sendable {
    var name: String
    var amount: String
    var budget: String
    var date: String?
    var tags: [String]
    var by: String?
    var quantity: Int64 = 1

    func addition(today: Day) throws -> AddExpense {
        do {
            let money = try Money(parsing: amount.trimmingCharacters(in: .whitespaces))
            try Expense.checkAmount(money)
            try Expense.checkQuantity(quantity)
            let day = try Self.day(date, today: today)
            let tags = try Expense.normalizedTags(tags)
            let spender = try by.map { (text: String) throws(TallyError) in try Expense.validatedBy(text) } ?? ""
            guard !budget.trimmingCharacters(in: .whitespaces).isEmpty else { throw HTTPError(.badRequest, message: "choose a budget") }
            return AddExpense(
                Expense(name: name, amount: money, quantity: quantity, date: day, budgetID: 0, tags: tags, by: spender), budget: budget)
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError(.badRequest, message: describe(error))
        }
    }

    /// An ISO day, a phrase such as `yesterday`, or today when empty.
    static func day(_ text: String?, today: Day) throws(TallyError) -> Day {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return today }
        if let day = try? Day(parsing: text) { return day }
        return try Day(phrase: text, today: today)
    }

    /// Tags as a form field holds them: separated by commas or spaces.
    static func tags(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }
}
