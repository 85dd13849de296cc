import Foundation
import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct ExpenseTests {
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

    /// Lengths are characters, and the schema's CHECKs count scalars: a text within the
    /// characters but past the scalars they allow is refused here, not by SQLite (found by
    /// `SchemaChecksTests`: sixty "☕️" were a storage error from `add --by`).
    @Test func scalarsAreBoundedAsTheSchemaBoundsThem() throws {
        let cups = String(repeating: "☕️", count: 60)  // 60 characters, 120 scalars
        #expect(cups.count == 60 && cups.unicodeScalars.count == 120)
        #expect(throws: TallyError.nameTooLong(.person, cups, maximum: Expense.maximumByLength)) { try Expense.validatedBy(cups) }
        #expect(try Expense.validatedBy(String(repeating: "☕️", count: 50)).unicodeScalars.count == 100)
        let marked = String(repeating: "e" + String(repeating: "\u{301}", count: 12), count: 190)  // 190 characters, 2,470 scalars
        #expect(throws: TallyError.nameTooLong(.expense, marked, maximum: Expense.maximumNameLength)) { try expense(name: marked).validate() }
        let tag = String(repeating: "a" + String(repeating: "\u{301}", count: 11), count: 45)  // 45 characters, 540 scalars
        #expect(throws: TallyError.invalidTag(tag)) { try expense(tags: [tag]).validate() }
    }
}
