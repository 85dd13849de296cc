import Foundation
import Testing
import TallyCore

@Suite struct ExpenseTests {
    private func expense(
        name: String = "Coffee", cents: Int64 = 350, quantity: Int64 = 1, tags: [String] = []
    ) throws -> Expense {
        Expense(name: name, amount: Money(cents: cents), quantity: quantity, date: try Day(parsing: "2026-11-21"), budgetID: 1, tags: tags)
    }

    @Test func totalIsAmountTimesQuantity() throws {
        #expect(try expense(cents: 1_999, quantity: 3).total() == Money(cents: 5_997))
    }

    @Test func theLargestValidExpenseStillHasAnExactTotal() throws {
        let largest = try expense(cents: Money.maximumInput.cents, quantity: Expense.maximumQuantity)
        try largest.validate()
        #expect(try largest.total() == Money(cents: 100_000_000_000_000_000))
    }

    @Test func normalizesNameAndTags() throws {
        let valid = try expense(name: "  Flat white ", tags: ["Coffee", " coffee", "WORK", "Café"]).validated()
        #expect(valid.name == "Flat white")
        #expect(valid.tags == ["café", "coffee", "work"])
    }

    @Test func rejectsEachBrokenRule() throws {
        #expect(throws: TallyError.emptyName(.expense)) { try expense(name: " ").validate() }
        #expect(throws: TallyError.amountNotPositive(Money(cents: 0))) { try expense(cents: 0).validate() }
        #expect(throws: TallyError.amountOutOfRange("1000000000.01")) { try expense(cents: 100_000_000_001).validate() }
        #expect(throws: TallyError.invalidQuantity(0)) { try expense(quantity: 0).validate() }
        #expect(throws: TallyError.invalidQuantity(-2)) { try expense(quantity: -2).validate() }
        #expect(throws: TallyError.invalidQuantity(1_000_001)) { try expense(quantity: 1_000_001).validate() }
        #expect(throws: TallyError.nameHasControlCharacters(.expense, "a\u{0}b")) { try expense(name: "a\u{0}b").validate() }
    }

    @Test(arguments: ["", "  ", "a;b", "a,b", "new\nline", String(repeating: "t", count: 51)])
    func rejectsBadTags(tag: String) throws {
        #expect(throws: TallyError.invalidTag(tag)) { try expense(tags: [tag]).validate() }
    }
}
