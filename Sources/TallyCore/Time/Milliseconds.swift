import Foundation

/// Timestamps are stored as whole milliseconds since 1970, as `Date.roundedToMilliseconds` keeps them:
/// by the SQLite and PostgreSQL stores and in the history's change sets, one rule for all three.
public enum Milliseconds {
    public static func since1970(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        // A clock can be injected, so even absurd dates must not trap.
        guard milliseconds.isFinite else { return 0 }
        return Int64(exactly: milliseconds) ?? (milliseconds < 0 ? -(1 << 53) : 1 << 53)
    }

    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
