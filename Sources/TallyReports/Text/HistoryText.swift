import Foundation
import TallyCore

/// `tally log` and `tally undo` as text.
public enum HistoryText {
    /// One line per change set: id, local time to the minute, summary, and `(undone)` when it
    /// stands undone; an undo names what it reverted.
    public static func log(_ entries: [ChangeSetEntry], timeZone: TimeZone = .current) -> String {
        guard !entries.isEmpty else { return "No changes recorded." }
        let width = entries.map { String($0.changeSet.id).count }.max() ?? 1
        return entries.map { entry in
            let id = String(entry.changeSet.id)
            var line = "#" + id + String(repeating: " ", count: width - id.count) + "  " + time(entry.changeSet.when, timeZone)
            line += "  " + oneLine(entry.changeSet.summary)
            if let undone = entry.changeSet.undoes { line += " (undoes #\(undone))" }
            if entry.undone { line += " (undone)" }
            return line
        }
        .joined(separator: "\n")
    }

    /// What an undo did, or would do.
    public static func undo(_ outcome: UndoOutcome) -> String {
        let what = outcome.undo.content.countsPhrase
        let verb = outcome.dryRun ? "Would undo" : "Undid"
        return "\(verb) #\(outcome.undone.id) \(oneLine(outcome.undone.summary)): \(what)."
    }

    static func time(_ date: Date, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}

extension ListJSON {
    /// A change set as `log --json` lists it; `when` is ISO 8601 with the UTC offset.
    public struct ChangeSetItem: Encodable, Sendable {
        public var id: Int64
        public var when: String
        public var command: String
        public var summary: String
        public var undone: Bool
        public var undoes: Nullable<Int64>

        public init(_ entry: ChangeSetEntry, timeZone: TimeZone = .current) {
            id = entry.changeSet.id
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = timeZone
            when = formatter.string(from: entry.changeSet.when)
            command = entry.changeSet.command
            summary = entry.changeSet.summary
            undone = entry.undone
            undoes = Nullable(entry.changeSet.undoes)
        }
    }

    /// What `undo --json` prints: the change set reverted and the one recording the undo.
    public struct UndoItem: Encodable, Sendable {
        public var undone: ChangeSetItem
        public var undo: ChangeSetItem
        public var dryRun: Bool

        public init(_ outcome: UndoOutcome, timeZone: TimeZone = .current) {
            undone = ChangeSetItem(ChangeSetEntry(changeSet: outcome.undone, undone: !outcome.dryRun), timeZone: timeZone)
            undo = ChangeSetItem(ChangeSetEntry(changeSet: outcome.undo, undone: false), timeZone: timeZone)
            dryRun = outcome.dryRun
        }
    }
}
