import Foundation
import TallyCore
import TallyInMemory
import TallyReports
import TallyStores
import TallyUseCases
import TallyTestSupport
import Testing

/// `report --from --to` / `--year` and `prices`: phrases resolved under the ledger's calendar,
/// ranges checked before a ledger is made.
@Suite(.ownThreads) struct ReportOverTimeUseCaseTests {
    private func ledger() throws -> Ledger {
        let store = InMemoryStore()
        _ = try store.updateSettings(LedgerSettings(calendar: try PeriodCalendar(monthStart: 25)))
        let food = try store.addBudget(Budget(name: "Food", limit: try money("100"), start: try month("2026-01")))
        for (name, amount, date) in [("Milk", "1.20", "2026-10-26"), ("Milk", "1.30", "2026-11-24"), ("Bread", "3", "2026-11-26")] {
            _ = try store.addExpense(Expense(name: name, amount: try money(amount), date: try day(date), budgetID: food.id ?? 0))
        }
        return Ledger(store: store)
    }

    @Test func monthPhrasesCountFromTheLedgersCurrentPeriod() throws {
        // 2026-11-30 lies in period 2026-11 (25 Nov – 24 Dec) when months start on the 25th.
        let span = PeriodsReport.Span.months(from: try PeriodChoice(phrase: "-1", today: day("2026-11-30")), to: .current)
        let report = try PeriodsReport(span: span, today: try day("2026-11-30")).run(in: ledger())
        #expect(report.periods.map(\.month.isoString) == ["2026-10", "2026-11"])
        #expect(report.periods.first?.days == DayInterval(first: try day("2026-10-25"), last: try day("2026-11-24")))
        #expect(report.rows.first?.cells.map(\.spent.plainString) == ["2.50", "3.00"])
    }

    @Test func aYearAndItsComparisonFollowTheLedgersPeriods() throws {
        let report = try PeriodsReport(span: .year(2026), options: .init(baseline: .lastYear), today: try day("2026-11-30")).run(in: ledger())
        let base = try month("2025-01")
        #expect(report.periods.count == 12 && report.comparison?.range.first == base)
        #expect(report.total.total.plainString == "5.50" && report.total.change?.basisPoints == nil)
    }

    @Test func aReversedOrTooLongRangeFailsBeforeTheLedgerIsMade() throws {
        let folder = temporaryRoot.appendingPathComponent("tally-range-\(UUID().uuidString)")
        let ledger = Ledger(location: StoreLocation(folder.appendingPathComponent("tally.sqlite").path))
        let reversed = PeriodsReport.Span.months(from: .month(try month("2026-05")), to: .month(try month("2026-04")))
        #expect(throws: TallyError.periodRangeReversed(from: try month("2026-05"), to: try month("2026-04"))) {
            try PeriodsReport(span: reversed).run(in: ledger)
        }
        let long = PeriodsReport.Span.months(from: .month(try month("2000-01")), to: .month(try month("2026-04")))
        #expect(throws: TallyError.periodRangeTooLong(from: try month("2000-01"), to: try month("2026-04"), count: 316)) {
            try PeriodsReport(span: long).run(in: ledger)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func pricesCoverTwelvePeriodsUpToTheCurrentByDefault() throws {
        let report = try UnitPriceReport(search: "MILK", today: try day("2026-11-30")).run(in: ledger())
        let (first, last) = (try month("2025-12"), try month("2026-11"))
        #expect(report.range.first == first && report.range.last == last)
        #expect(report.lines.map(\.month.isoString) == ["2026-10"])
        // Both milks fall in period 2026-10 (25 Oct – 24 Nov): (1.20 + 1.30) / 2 = 1.25.
        let average = try money("1.25")
        #expect(report.lines.first?.figures.average == average)
        #expect(throws: TallyError.emptyName(.expense)) { try UnitPriceReport(search: "  ").run(in: ledger()) }
    }
}
