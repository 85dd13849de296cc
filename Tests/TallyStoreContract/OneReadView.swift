import Foundation
import TallyCore

/// One read transaction of a store, seen as a store: every read made through it, by the same
/// `DataAccess` methods a command calls, runs on that transaction's rows. The differential's
/// full comparison (some 200 reads) pays for one transaction instead of one per read; the reads
/// see what separate transactions would, as nothing writes between them.
final class OneReadView: DataAccess, @unchecked Sendable {
    private let rows: any LedgerRows

    private init(_ rows: any LedgerRows) {
        self.rows = rows
    }

    /// Runs `body` with a view of one read transaction of `store`; the view is valid only inside it.
    static func reading<T>(_ store: any DataAccess, _ body: (OneReadView) throws(TallyError) -> T) throws(TallyError) -> T {
        try store.reading { (rows: any LedgerRows) throws(TallyError) in try body(OneReadView(rows)) }
    }

    func reading<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T { try body(rows) }

    // Only reads through `reading` are made through the view; anything else is a test's mistake.
    private static var misuse: TallyError { .storage("OneReadView offers reads through reading(_:) only") }

    func writing<T>(_ body: (any LedgerRows) throws(TallyError) -> T) throws(TallyError) -> T { throw Self.misuse }
    func close() throws(TallyError) { throw Self.misuse }
    func importedRowKeys() throws(TallyError) -> Set<Int64> { throw Self.misuse }
    func spentByMonth(in months: ClosedRange<Month>) throws(TallyError) -> [Month: [Int64: Money]] { throw Self.misuse }
    func unitPrices(matching search: String, in days: DayInterval) throws(TallyError) -> [Day: UnitPriceFigures] { throw Self.misuse }
    func spendingGroups(ofBudgets ids: Set<Int64>, in months: ClosedRange<Month>) throws(TallyError) -> [SpendingGroup] { throw Self.misuse }
    func changeSets(since: Date?, limit: Int?) throws(TallyError) -> [ChangeSetEntry] { throw Self.misuse }
    func undo(_ id: Int64?, dryRun: Bool) throws(TallyError) -> UndoOutcome { throw Self.misuse }
    func rates(_ query: RateQuery) throws(TallyError) -> [DayRate] { throw Self.misuse }
    func saveRates(_ produce: (_ save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) -> Void) throws(TallyError) { throw Self.misuse }
    func exchangeAlertLevels(_ levels: [Int64: AlertLevel], for period: Month) throws(TallyError) -> [Int64: AlertLevel] {
        throw Self.misuse
    }
}
