import Foundation
import TallyCore

/// Where a ledger file's snapshots live and how they are named: `<file>.snapshots/`, beside the
/// file, one `<stamp>-<reason>.sqlite` each. The stamp is the UTC time the snapshot was written,
/// `YYYYMMDDTHHMMSS.mmmZ`: it is the snapshot's id, it sorts as time does, and with the reason in
/// the name `backup list` needs no index to keep in step with the files.
///
/// A snapshot is first written under a hidden temporary name, `.<name>.tmp-<pid>`; `list` never
/// shows one, and the next snapshot removes those whose process is gone (a crash, a kill -9).
struct SnapshotFolder {
    let path: String

    init(databasePath: String) {
        path = databasePath + ".snapshots"
    }

    private static let suffix = ".sqlite"
    private static let stampLength = 20  // 20261125T090721.123Z

    // MARK: - Reading

    /// Every snapshot, newest first; files whose names are not a snapshot's are not listed.
    func list() -> [LedgerSnapshot] {
        names().compactMap(snapshot(named:)).sorted { $0.id > $1.id }
    }

    /// Whether a snapshot was written within `[from, to)`, two stamps: one `readdir`, no `stat`,
    /// for the check `tally add` makes once a process.
    func hasSnapshot(from: String, to: String) -> Bool {
        names().contains { name in
            guard name.utf8.count > Self.stampLength, !name.hasPrefix(".") else { return false }
            let stamp = name.prefix(Self.stampLength)
            return stamp >= from && stamp < to
        }
    }

    private func snapshot(named name: String) -> LedgerSnapshot? {
        guard !name.hasPrefix("."), name.hasSuffix(Self.suffix), name.utf8.count > Self.stampLength + 1 else { return nil }
        let stamp = String(name.prefix(Self.stampLength))
        let rest = name.dropFirst(Self.stampLength)
        guard rest.first == "-", let when = Self.date(ofStamp: stamp),
            let reason = SnapshotReason(rawValue: String(rest.dropFirst().dropLast(Self.suffix.count)))
        else { return nil }
        let file = path + "/" + name
        var status = stat()
        guard stat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return LedgerSnapshot(id: stamp, when: when, path: file, bytes: Int(status.st_size), reason: reason)
    }

    /// The entries of the folder; none when it does not exist.
    private func names() -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                bytes.bindMemory(to: CChar.self).baseAddress.map { String(cString: $0) } ?? ""
            }
            if !name.isEmpty, name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: - Writing

    /// The final and temporary names of a new snapshot written at `when`.
    func names(for reason: SnapshotReason, at when: Date) -> (id: String, final: String, temporary: String) {
        let id = Self.stamp(of: when)
        let name = "\(id)-\(reason.rawValue)\(Self.suffix)"
        return (id, path + "/" + name, path + "/.\(name).tmp-\(getpid())")
    }

    /// Removes temporaries whose process has ended: what a crash in the middle of a snapshot
    /// left behind. A live process's temporary is its snapshot in progress.
    func removeAbandonedTemporaries() {
        for name in names() where name.hasPrefix(".") {
            guard let range = name.range(of: ".tmp-", options: .backwards),
                let pid = pid_t(name[range.upperBound...].prefix { $0.isNumber })
            else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                for suffix in ["", "-journal"] { unlink(path + "/" + name + suffix) }
            }
        }
    }

    /// Removes the oldest snapshots beyond the newest `limit`, never one of `sparing`; a limit of
    /// 0 removes nothing (automatic snapshots are off, and what the user made is theirs).
    func rotate(keeping limit: Int, sparing: Set<String> = []) {
        guard limit > 0 else { return }
        for old in list().dropFirst(limit) where !sparing.contains(old.id) {
            unlink(old.path)
        }
    }

    // MARK: - Stamps

    /// `YYYYMMDDTHHMMSS.mmmZ` of `date`, in UTC.
    static func stamp(of date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.quotient(dividingBy: 1000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return digits(Int(parts.tm_year) + 1900, 4) + digits(Int(parts.tm_mon) + 1, 2) + digits(Int(parts.tm_mday), 2) + "T"
            + digits(Int(parts.tm_hour), 2) + digits(Int(parts.tm_min), 2) + digits(Int(parts.tm_sec), 2) + "."
            + digits(Int(milliseconds - Int64(seconds) * 1000), 3) + "Z"
    }

    /// The stamps of the local day (`TZ`) on which `date` falls and of the next one: a snapshot
    /// written that day has a stamp within them.
    static func localDay(of date: Date) -> (start: String, end: String) {
        var now = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        tzset()
        localtime_r(&now, &parts)
        parts.tm_hour = 0
        parts.tm_min = 0
        parts.tm_sec = 0
        parts.tm_isdst = -1
        let start = mktime(&parts)
        parts.tm_mday += 1
        parts.tm_isdst = -1
        let end = mktime(&parts)
        return (stamp(of: Date(timeIntervalSince1970: TimeInterval(start))), stamp(of: Date(timeIntervalSince1970: TimeInterval(end))))
    }

    static func date(ofStamp stamp: String) -> Date? {
        let bytes = Array(stamp.utf8)
        guard bytes.count == stampLength, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "."),
            bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8), let hour = number(9..<11),
            let minute = number(11..<13), let second = number(13..<15), let milliseconds = number(16..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(milliseconds) / 1000)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Int64 {
    /// Division rounding toward negative infinity, for times before 1970.
    fileprivate func quotient(dividingBy divisor: Int64) -> Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
