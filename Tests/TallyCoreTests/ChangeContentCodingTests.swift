import Foundation
import TallyTestSupport
import Testing

@testable import TallyCore

/// `ChangeContentCoding.encode` writes changes of expenses alone by hand: what it writes must
/// decode to the same content as JSONEncoder's output does, whatever the names hold.
@Suite(.ownThreads) struct ChangeContentCodingTests {
    private static let names = [
        "Coffee", #"quote " back\slash"#, "Crème brûlée", "日本語", "family 👩‍👩‍👧", "tab\tinside", "/slash/", "\u{7F} delete", "emoji ☕️ \u{2028}",
    ]

    private func expense(_ index: Int, using random: inout SeededGenerator) throws -> Expense {
        var expense = Expense(
            name: Self.names[index % Self.names.count], amount: Money(cents: Int64.random(in: 1...Int64.max / 1_000_000, using: &random)),
            quantity: Int64.random(in: 1...1_000, using: &random), date: try Day(year: Int.random(in: 1...9999, using: &random), month: 12, day: 31),
            budgetID: Int64.random(in: 1...Int64.max, using: &random), tags: index % 3 == 0 ? [] : ["a", #"b\"c"#, "été"],
            by: index % 2 == 0 ? "" : #"Zoë "the" \ one"#)
        expense.id = Int64(index) + 1
        expense.createdAt = Milliseconds.date(Int64.random(in: -(1 << 53)...(1 << 53), using: &random))
        expense.updatedAt = Milliseconds.date(Int64.random(in: 0...(1 << 45), using: &random))
        return expense
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func handWrittenChangesDecodeAsJSONEncodersDo(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for count in [0, 1, 2, 7] {
            var before = ExpenseImages()
            var after = ExpenseImages()
            for index in 0..<count { before.append(try expense(index, using: &random)) }
            for index in 0..<(count + 1) % 4 { after.append(try expense(index + 100, using: &random)) }
            let content = ChangeContent(expensesBefore: before, expensesAfter: after)
            let written = try ChangeContentCoding.encode(content)
            let foundation = try ChangeContentCoding.encodeWithFoundation(content)
            #expect(try ChangeContentCoding.decode(written) == content)
            #expect(try ChangeContentCoding.decode(written) == ChangeContentCoding.decode(foundation))
            #expect(try JSONSerialization.jsonObject(with: written) is [String: Any])
        }
    }

    /// A rate write's images are written by hand too (a rate import's are a quarter of a million
    /// rows): they decode to the same content as JSONEncoder's output, and the rates' digits are
    /// `plainString`'s, whatever their scale.
    @Test func handWrittenRateImagesDecodeAsJSONEncodersDo() throws {
        let eur = try Currency(code: "EUR"), jpy = try Currency(code: "JPY"), usd = try Currency(code: "USD")
        let texts = ["160", "161.54", "0.0061", "1", "0.000000000001", "9223372.036854775807", "12.5", "100000"]
        var random = SeededGenerator(seed: 5)
        for count in [0, 1, 3, 40] {
            var images = RateImages()
            for index in 0..<count {
                let day = try Day(year: [1, 999, 2026, 9999][index % 4], month: 1 + random.next(below: 12), day: 1 + random.next(below: 28))
                let rate = try ExchangeRate(parsing: texts[index % texts.count])
                let saved = DayRate(day: day, from: eur, to: index % 2 == 0 ? jpy : usd, rate: rate)
                images.record(saving: saved, over: index % 3 == 0 ? nil : DayRate(day: day, from: eur, to: saved.to, rate: try ExchangeRate(parsing: "2.5")))
            }
            for content in [ChangeContent(rates: images), ChangeContent(expensesAfter: ExpenseImages([try expense(count, using: &random)]), rates: images)] {
                let written = try ChangeContentCoding.encode(content)
                #expect(try ChangeContentCoding.decode(written) == content)
                #expect(try ChangeContentCoding.decode(written) == ChangeContentCoding.decode(ChangeContentCoding.encodeWithFoundation(content)))
                #expect(try JSONSerialization.jsonObject(with: written) is [String: Any])
            }
        }
        for text in texts + ["3.14159", "0.5", "10.01"] {
            let rate = try ExchangeRate(parsing: text)
            #expect(rate.plainString == text)
            #expect(try ExchangeRate(parsing: rate.plainString) == rate)
        }
    }

    /// Changes with bulk parts or other rows still go through JSONEncoder (whose key order varies
    /// from run to run, so the bytes are not compared) and read back whole.
    @Test func otherChangesGoThroughJSONEncoder() throws {
        var random = SeededGenerator(seed: 9)
        let contents = [
            ChangeContent(addedExpenses: ExpenseIDRange(first: 1, last: 3, count: 3)),
            ChangeContent(removedExpenses: ExpenseIDRange(first: 1, last: 3, count: 3), rowKeys: RowKeyChange(batch: 4, added: [], removedBatch: true)),
            ChangeContent(expensesAfter: ExpenseImages([try expense(1, using: &random)]), rowKeys: RowKeyChange(batch: 4, added: [1, 2], removed: [3])),
        ]
        for content in contents {
            #expect(try ChangeContentCoding.decode(ChangeContentCoding.encode(content)) == content)
        }
    }

    /// Undoing a bulk change stays bulk: the range added becomes the range removed (the store keeps
    /// the rows beside the undo), the batch's keys a removed batch, and undoing that puts back
    /// exactly the import's own content. Older contents, with every row named, invert as before.
    @Test func bulkPartsInvertWhole() {
        let range = ExpenseIDRange(first: 11, last: 1_000_010, count: 1_000_000)
        let imported = ChangeContent(addedExpenses: range, rowKeys: RowKeyChange(batch: 7, added: nil))
        let undo = imported.inverse()
        #expect(undo == ChangeContent(removedExpenses: range, rowKeys: RowKeyChange(batch: 7, added: [], removedBatch: true)))
        #expect(!undo.isEmpty)
        #expect(undo.countsPhrase == "1000000 expenses removed")
        #expect(undo.inverse() == imported)
        #expect(imported.isTouched(by: undo) && undo.isTouched(by: undo.inverse()))

        let named = ChangeContent(rowKeys: RowKeyChange(batch: 7, added: [1, 2]))
        #expect(named.inverse() == ChangeContent(rowKeys: RowKeyChange(batch: 7, added: [], removed: [1, 2])))
        #expect(named.inverse().inverse() == named)
    }

    /// A rate write records the rows it replaced and saved; it reads back whole, undoing it
    /// removes what it added and puts back what it replaced, and a later change of the same day
    /// and pair blocks that undo while one of another day does not.
    @Test func rateImagesRoundTripAndInvert() throws {
        let eur = try Currency(code: "EUR"), jpy = try Currency(code: "JPY")
        func rate(_ day: String, _ value: String) throws -> DayRate {
            DayRate(day: try Day(parsing: day), from: eur, to: jpy, rate: try ExchangeRate(parsing: value))
        }
        var images = RateImages()
        images.record(saving: try rate("2026-03-06", "160.5"), over: try rate("2026-03-06", "159"))
        images.record(saving: try rate("2026-03-09", "161"), over: nil)
        images.record(saving: try rate("2026-03-10", "162"), over: try rate("2026-03-10", "162"))
        #expect(images.before == [try rate("2026-03-06", "159")])
        #expect(images.after == [try rate("2026-03-06", "160.5"), try rate("2026-03-09", "161")])
        let content = ChangeContent(rates: images)
        #expect(try ChangeContentCoding.decode(ChangeContentCoding.encode(content)) == content)
        #expect(content.countsPhrase == "1 rate added; 1 rate changed")
        #expect(content.inverse().countsPhrase == "1 rate changed; 1 rate removed")
        #expect(content.inverse().inverse() == content)
        #expect(content.isTouched(by: ChangeContent(rates: RateImages(after: [try rate("2026-03-09", "150")]))))
        #expect(!content.isTouched(by: ChangeContent(rates: RateImages(after: [try rate("2026-03-11", "150")]))))
        #expect(ChangeContent(rates: RateImages()).isEmpty)
    }
}
