import Foundation
import TallyTestSupport
import Testing
import TallyCore

/// The split rule (``ExpenseLines``): shares, the rounding rule, every refusal, and the figures
/// that count each line in its own budget exactly once.
@Suite(.ownThreads) struct ExpenseLinesTests {
    func money(_ cents: Int64) -> Money { Money(cents: cents) }
    func line(_ budget: Int64, _ share: String, name: String = "", tags: [String] = []) throws -> ExpenseLine {
        ExpenseLine(budgetID: budget, share: try LineShare(parsing: share), name: name, tags: tags)
    }
    func amounts(_ lines: [ExpenseLine], total: Int64) throws -> [Int64] {
        try ExpenseLines.allocate(lines, total: money(total)).map(\.amount.cents)
    }
    func problem(_ body: () throws -> Void) -> SplitProblem? {
        do { try body() } catch let error as TallyError { if case .split(let problem) = error { return problem } } catch {}
        return nil
    }

    @Test func sharesParse() throws {
        #expect(try LineShare(parsing: "80") == .amount(money(8000)))
        #expect(try LineShare(parsing: "12.5") == .amount(money(1250)))
        #expect(try LineShare(parsing: "60%") == .percent(6000))
        #expect(try LineShare(parsing: "12.5%") == .percent(1250))
        #expect(try LineShare(parsing: "REST") == .rest)
        for bad in ["", "%", "-5", "0%", "abc", "1e3", "60%%"] {
            #expect(problem { _ = try LineShare(parsing: bad) } != nil, "\(bad)")
        }
        #expect(problem { _ = try LineShare(parsing: "100.01%") } == .sharesOverWhole(10_001))
        for share in ["80", "12.5", "60%", "12.5%", "rest", "33.33%"] {
            #expect(try LineShare(parsing: try LineShare(parsing: share).text) == LineShare(parsing: share))
        }
    }

    @Test func fixedAndRestLines() throws {
        #expect(try amounts([line(1, "80"), line(2, "rest")], total: 12_000) == [8000, 4000])
        #expect(try amounts([line(1, "80"), line(2, "40")], total: 12_000) == [8000, 4000])
    }

    @Test func percentagesRoundHalfUpAndTheRestTakesWhatIsLeft() throws {
        // 60 % of 120.00 is 72.00; 33.33 % of 100.01 is 33.333333 → 33.33; 0.5 % of 0.01... → 0.
        #expect(try amounts([line(1, "60%"), line(2, "rest")], total: 12_000) == [7200, 4800])
        #expect(try amounts([line(1, "33.33%"), line(2, "rest")], total: 10_001) == [3333, 6668])
        // 12.5 % of 0.20 is 0.025: half a cent rounds up.
        #expect(try amounts([line(1, "12.5%"), line(2, "rest")], total: 20) == [3, 17])
    }

    @Test func withoutRestTheRoundingRemainderGoesToTheLargestLine() throws {
        // Thirds of 100.01: 33.33, 33.33, 33.34 leave a cent, which goes to the largest line.
        #expect(try amounts([line(1, "33.33%"), line(2, "33.33%"), line(3, "33.34%")], total: 10_001) == [3333, 3333, 3335])
        #expect(try amounts([line(1, "25%"), line(2, "75%")], total: 10_001) == [2500, 7501])
        // Halves of 100.01 round up to 50.01 each; the cent too many comes off the first of equals.
        #expect(try amounts([line(1, "50%"), line(2, "50%")], total: 10_001) == [5000, 5001])
        // A fixed line and percentages of what covers the total exactly.
        #expect(try amounts([line(1, "20"), line(2, "80%")], total: 10_000) == [2000, 8000])
    }

    @Test func linesSumExactlyToTheTotalOnRandomSplits() throws {
        var generator = SeededGenerator(seed: 30)
        for _ in 0..<2_000 {
            let total = Int64.random(in: 2...10_000_000, using: &generator)
            let count = Int.random(in: 1...4, using: &generator)
            var lines: [ExpenseLine] = []
            var left: Int64 = 10_000
            for index in 0..<count {
                let share = Int64.random(in: 1...max(1, left / 2), using: &generator)
                left -= share
                lines.append(ExpenseLine(budgetID: Int64(index + 1), share: .percent(share)))
            }
            lines.append(ExpenseLine(budgetID: 9, share: .rest))
            guard let allocated = try? ExpenseLines.allocate(lines, total: money(total)) else { continue }
            #expect(try Money.sum(allocated.map(\.amount)) == money(total))
            #expect(allocated.allSatisfy { $0.amount.cents > 0 })
        }
    }

    @Test func badSplitsAreRefused() throws {
        #expect(problem { _ = try amounts([line(1, "80"), line(2, "30")], total: 12_000) } == .linesDoNotSum(lines: money(11_000), total: money(12_000)))
        #expect(problem { _ = try amounts([line(1, "rest"), line(2, "rest")], total: 12_000) } == .twoRests)
        #expect(problem { _ = try amounts([line(1, "60%"), line(2, "50%")], total: 12_000) } == .sharesOverWhole(11_000))
        #expect(problem { _ = try amounts([line(1, "120"), line(2, "rest")], total: 12_000) } == .linesExceedTotal(lines: money(12_000), total: money(12_000)))
        #expect(problem { _ = try amounts([line(1, "rest")], total: 12_000) } == .tooFewLines)
        #expect(problem { _ = try amounts([line(1, "1%"), line(2, "rest")], total: 10) } == .emptyLine)
    }

    @Test func aNewTotalKeepsPercentagesAndRefusesFixedLinesThatNoLongerFit() throws {
        let lines = try ExpenseLines.allocate([line(1, "60%"), line(2, "rest")], total: money(12_000))
        #expect(try ExpenseLines.reallocated(lines, toTotal: money(10_000)).map(\.amount.cents) == [6000, 4000])
        let fixed = try ExpenseLines.allocate([line(1, "80"), line(2, "rest")], total: money(12_000))
        #expect(problem { _ = try ExpenseLines.reallocated(fixed, toTotal: money(5000)) } == .linesNoLongerFit(lines: money(8000), total: money(5000)))
    }

    @Test func eachLineCountsInItsOwnBudgetOnce() throws {
        let day = try Day(parsing: "2026-03-10")
        var costco = Expense(name: "Costco", amount: money(6000), quantity: 2, date: day, budgetID: 0, tags: ["bulk"])
        costco.lines = [try line(1, "80", tags: ["food"]), try line(2, "rest")]
        costco = try costco.validated()
        #expect(costco.budgetID == 1)
        #expect(try costco.portions.map(\.amount.cents) == [8000, 4000])
        #expect(try costco.portions.map(\.tags) == [["food"], ["bulk"]])
        var refund = try Expense(name: "Kettle", amount: money(3999), date: day, budgetID: 2).validated()
        refund.isRefund = true
        let days = DayInterval(first: day, last: day)
        let groceries = try Budget(id: 1, name: "Groceries", limit: money(50_000)).validated()
        let household = try Budget(id: 2, name: "Household", limit: money(50_000)).validated()
        #expect(try groceries.spent(in: days, of: [costco, refund]) == money(8000))
        #expect(try household.spent(in: days, of: [costco, refund]) == money(1))
        // Every group of the day cache adds up to the ledger's total.
        let groups = try DaySpending.grouping([costco, refund], in: days)
        #expect(try Money.sum(groups.map(\.spent)) == money(12_000 - 3999))
        #expect(try Spending.byDay(in: days, of: [costco, refund])[day] == money(12_000 - 3999))
    }

    @Test func detailTextRoundTrips() throws {
        let day = try Day(parsing: "2026-03-10")
        var costco = Expense(name: "Costco", amount: money(12_000), date: day, budgetID: 0)
        costco.lines = [try line(1, "60%", name: "Food; fresh", tags: ["a", "b"]), try line(2, "rest")]
        costco = try costco.validated()
        var copy = costco
        try ExpenseDetail.unpack(ExpenseDetail.pack(costco), into: &copy)
        #expect(copy == costco)
        var refund = costco
        refund.lines = []
        refund.isRefund = true
        refund.refundOf = 7
        var back = costco
        try ExpenseDetail.unpack(ExpenseDetail.pack(refund), into: &back)
        #expect(back.isRefund && back.refundOf == 7 && back.lines.isEmpty)
    }

    /// Unpacking splits by bytes: names and tags that begin or end with combining marks, emoji or
    /// other scripts, next to the separators, come back whole (each separator, a control
    /// character, is a character of its own).
    @Test func detailTextRoundTripsWithMarksBesideTheSeparators() throws {
        let day = try Day(parsing: "2026-03-10")
        let names = ["\u{301}é", "cafe\u{301}", "👩‍👩‍👧", "日本\u{3099}", "a\u{20DD}", "ﾊﾟﾝ"]
        for (index, name) in names.enumerated() {
            var expense = Expense(name: "Receipt", amount: money(9_999), date: day, budgetID: 0)
            let other = names[(index + 1) % names.count]
            expense.lines = [
                try line(1, "33.5%", name: name, tags: [other, "x\u{301}"]), try line(2, "12.34", name: other),
                try line(3, "rest", tags: [name]),
            ]
            var copy = Expense(name: "Other", amount: money(1), date: day, budgetID: 0)
            try ExpenseDetail.unpack(ExpenseDetail.pack(expense), into: &copy)
            #expect(copy.lines == expense.lines)
        }
    }

    /// `PeriodSpending.totals()` sums in one pass what `byDay()`, `byTag()` and `byPerson()` sum,
    /// whatever the groups' order (days and people interleaved, or each together).
    @Test func periodTotalsAreTheSumsByDayTagAndPerson() throws {
        var generator = SystemRandomNumberGenerator()
        let people = ["", "Ana", "Bo", "Ana\u{301}", "Zoë"]
        let tagSets: [[String]] = [[], ["a"], ["a", "b"], ["b", "c\u{301}"], ["é"]]
        for round in 0..<50 {
            var groups: [DaySpending] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                groups.append(DaySpending(
                    day: try Day(parsing: "2026-03-\(10 + Int.random(in: 0...5, using: &generator))"),
                    budgetID: Int64.random(in: 1...3, using: &generator), tags: tagSets.randomElement(using: &generator) ?? [],
                    by: people.randomElement(using: &generator) ?? "",
                    spent: money(Int64.random(in: -5_000...90_000, using: &generator)), count: Int.random(in: 1...9, using: &generator)))
            }
            // Every other round, each day's groups together, as a store hands them.
            if round.isMultiple(of: 2) { groups.sort { $0.day < $1.day } }
            let totals = try PeriodSpending(groups: groups).totals()
            #expect(totals.byDay == (try groups.byDay()))
            #expect(totals.byTag == (try groups.byTag()))
            #expect(totals.byPerson == (try groups.byPerson()))
        }
    }
}
