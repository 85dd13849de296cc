import Foundation
import TallyCore

extension ListRenderers {
    /// `backup list`: newest first, times in the local time zone.
    public static func snapshotsAsTable(_ snapshots: [LedgerSnapshot]) -> String {
        var table = Table([.left("ID"), .left("When"), .left("Reason"), .right("Bytes")])
        for snapshot in snapshots {
            table.append([snapshot.id, localTime(snapshot.when), snapshot.reason.rawValue, String(snapshot.bytes)])
        }
        return table.rendered()
    }

    /// `backup create` and `restore`: one snapshot in a phrase.
    public static func snapshotPhrase(_ snapshot: LedgerSnapshot) -> String {
        "\(snapshot.id) (\(snapshot.reason.rawValue), \(localTime(snapshot.when)), \(snapshot.bytes) bytes)"
    }

    /// `YYYY-MM-DD HH:MM:SS` in `TZ`.
    static func localTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        tzset()
        localtime_r(&seconds, &parts)
        let two = { (value: Int32) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

extension ListJSON {
    /// `backup list --json` (and `create`, `restore`): `when` in ISO 8601, UTC, to the millisecond.
    public struct SnapshotItem: Encodable, Sendable {
        public var id: String
        public var when: String
        public var path: String
        public var bytes: Int
        public var reason: String

        public init(_ snapshot: LedgerSnapshot) {
            id = snapshot.id
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            formatter.timeZone = TimeZone(identifier: "UTC")
            when = formatter.string(from: snapshot.when)
            path = snapshot.path
            bytes = snapshot.bytes
            reason = snapshot.reason.rawValue
        }
    }

    /// `backup restore --json`: the snapshot brought back and the one that keeps what it replaced.
    public struct RestoreItem: Encodable, Sendable {
        public var restored: SnapshotItem
        public var saved: SnapshotItem

        public init(restored: LedgerSnapshot, saved: LedgerSnapshot) {
            self.restored = SnapshotItem(restored)
            self.saved = SnapshotItem(saved)
        }
    }
}
