import TallyTestSupport
import Testing
import TallyCore

@Suite(.ownThreads) struct MoneyTests {
    @Test(arguments: [
        ("12", 1200), ("12.5", 1250), ("12.50", 1250), ("0.01", 1), ("0", 0), ("007", 700),
        ("1000000000", 100_000_000_000), ("1000000000.00", 100_000_000_000),
    ] as [(String, Int64)])
    func parsesValidText(text: String, cents: Int64) throws {
        #expect(try Money(parsing: text) == Money(cents: cents))
    }

    @Test(arguments: [
        "", " ", "-5", "+5", "1e3", "12,50", "1,234.00", "12.345", "12.", ".5", "1.2.3", " 12", "12 ", "١٢",
        "12.5a", "0x10", "NaN", "inf", "12_000",
    ])
    func rejectsMalformedText(text: String) {
        #expect(throws: TallyError.invalidAmount(text)) { try Money(parsing: text) }
    }

    @Test(arguments: ["1000000000.01", "1000000001", "99999999999999999999999", "10000000000000"])
    func rejectsAmountsAboveTheMaximum(text: String) {
        #expect(throws: TallyError.amountOutOfRange(text)) { try Money(parsing: text) }
    }

    @Test func formatsPlainAndGrouped() {
        #expect(Money(cents: 123_450).plainString == "1234.50")
        #expect(Money(cents: 123_450).groupedString == "1,234.50")
        #expect(Money(cents: 5).plainString == "0.05")
        #expect(Money(cents: -123_456_789).groupedString == "-1,234,567.89")
        #expect(Money(cents: 100_000_000_000).groupedString == "1,000,000,000.00")
        #expect(Money(cents: Int64.min).plainString == "-92233720368547758.08")
    }

    @Test func arithmeticIsCheckedNotWrapped() throws {
        #expect(try Money(cents: 150) + Money(cents: 250) == Money(cents: 400))
        #expect(try Money(cents: 150) - Money(cents: 250) == Money(cents: -100))
        #expect(throws: TallyError.arithmeticOverflow) { try Money(cents: .max) + Money(cents: 1) }
        #expect(throws: TallyError.arithmeticOverflow) { try Money(cents: .min) - Money(cents: 1) }
        #expect(throws: TallyError.arithmeticOverflow) { try Money(cents: .max / 2).multiplied(by: 3) }
        #expect(throws: TallyError.arithmeticOverflow) { try Money.sum([Money(cents: .max), Money(cents: .max)]) }
    }
}
