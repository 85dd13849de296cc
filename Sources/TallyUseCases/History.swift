import Foundation
import TallyCore

/// `log`: the change sets newest first. A ledger that does not exist has none, and is not created.
public struct ListChangeSets: Sendable {
    public var since: Day?
    public var limit: Int?

    public init(since: Day? = nil, limit: Int? = nil) {
        self.since = since
        self.limit = limit
    }

    public func run(in ledger: Ledger, timeZone: TimeZone = .current) throws(TallyError) -> [ChangeSetEntry] {
        guard ledger.exists else { return [] }
        let from = since.map { $0.start(in: timeZone) }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.changeSets(since: from, limit: limit) }
    }
}

/// `undo [ID] [--dry-run]`: reverts one change set, as one more change set. A ledger that does
/// not exist has nothing to undo, and is not created.
public struct UndoChangeSet: Sendable {
    public var id: Int64?
    public var dryRun: Bool

    public init(id: Int64? = nil, dryRun: Bool = false) {
        self.id = id
        self.dryRun = dryRun
    }

    public func run(in ledger: Ledger) throws(TallyError) -> UndoOutcome {
        guard ledger.exists else { throw id.map { .changeSetNotFound($0) } ?? .nothingToUndo }
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.undo(id, dryRun: dryRun) }
    }
}

/// `settings set history-days N`: how far back `log` and `undo` reach.
public struct SetHistoryDays: Sendable {
    public var days: Int

    public init(days: Int) {
        self.days = days
    }

    public func run(in ledger: Ledger) throws(TallyError) -> LedgerSettings {
        try LedgerSettings.checkHistoryDays(days)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var settings = try store.settings()
            settings.historyDays = days
            return try store.updateSettings(settings)
        }
    }
}

extension Day {
    /// The moment this day begins in `timeZone`.
    func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? Date.distantPast
    }
}
