import Foundation

/// What the store records with each change: the command that made it. The CLI sets it once,
/// before any store opens; a store reads it in each write transaction.
public enum ChangeContext {
    nonisolated(unsafe) public static var command = ""

    /// The command line as the history keeps it: the arguments after the program's name, a
    /// PostgreSQL URL anywhere shown without its password (``ServerLocation``), arguments
    /// with spaces quoted.
    public static func sanitized(_ arguments: [String]) -> String {
        arguments.map { argument -> String in
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                let value = String(argument[argument.index(after: equals)...])
                if ServerLocation.isServerURL(value) { return argument[...equals] + withoutPassword(value) }
            }
            let shown = ServerLocation.isServerURL(argument) ? withoutPassword(argument) : argument
            return shown.contains(where: { $0 == " " || $0 == "\"" }) || shown.isEmpty ? "\"\(shown)\"" : shown
        }
        .joined(separator: " ")
    }

    private static func withoutPassword(_ url: String) -> String {
        (try? ServerLocation(url: url))?.description ?? "postgresql://…"
    }

    /// The words of a command before its first option: `import bank.csv` of
    /// `import bank.csv --create-budgets`.
    static func label(of command: String) -> String {
        var words: [Substring] = []
        for word in command.split(separator: " ") {
            if word.hasPrefix("-") { break }
            words.append(word)
        }
        return words.joined(separator: " ")
    }
}

/// The rules of undo over a ledger's history, oldest first: which change sets stand undone,
/// which one `undo` reverts, and what keeps it from reverting one.
public struct History: Sendable {
    public let changeSets: [ChangeSet]
    /// By change set id, the undo that reverted it and still stands.
    public let undoneBy: [Int64: Int64]
    /// The id the next change set gets: never one handed out before, even when pruned.
    public let nextID: Int64

    /// `nextID` defaults to the one after the newest of `changeSets`.
    public init(_ changeSets: [ChangeSet], nextID: Int64? = nil) {
        let sorted = changeSets.sorted { $0.id < $1.id }
        self.changeSets = sorted
        self.nextID = nextID ?? (sorted.last.map { $0.id + 1 } ?? 1)
        // An undo stands unless a later undo reverted it; an undo always comes after its target,
        // so walking from the newest decides each undo before its target.
        var undoneBy: [Int64: Int64] = [:]
        for changeSet in sorted.reversed() {
            guard let target = changeSet.undoes, undoneBy[changeSet.id] == nil, undoneBy[target] == nil else { continue }
            undoneBy[target] = changeSet.id
        }
        self.undoneBy = undoneBy
    }

    public func isUndone(_ id: Int64) -> Bool { undoneBy[id] != nil }

    /// The id of the change set `undo ID` reverts, or with no id the newest change that stands
    /// and is not itself an undo, so that undoing again walks further back. Throws when there is
    /// none or when it stands undone. The history may hold headers only (no content): undo reads
    /// the content of this one and the later ones for ``checkUnblocked(_:later:)``.
    public func target(_ id: Int64?) throws(TallyError) -> Int64 {
        let target: ChangeSet
        if let id {
            guard let found = changeSets.first(where: { $0.id == id }) else { throw .changeSetNotFound(id) }
            if let by = undoneBy[id] { throw .changeSetAlreadyUndone(id, by: by) }
            target = found
        } else {
            guard let found = changeSets.last(where: { $0.undoes == nil && undoneBy[$0.id] == nil }) else { throw .nothingToUndo }
            target = found
        }
        return target.id
    }

    /// Throws ``TallyError/undoBlocked(_:by:)`` when change sets of `later` (read whole) that
    /// still stand touched `target`'s rows.
    public func checkUnblocked(_ target: ChangeSet, later: [ChangeSet]) throws(TallyError) {
        let blockers = self.blockers(of: target, among: later)
        guard blockers.isEmpty else { throw .undoBlocked(target.id, by: blockers) }
    }

    /// The change sets of `later` that still stand and touched `target`'s rows. A later change and
    /// its own undo, both after `target`, cancel out and block nothing.
    public func blockers(of target: ChangeSet, among later: [ChangeSet]) -> [Int64] {
        later.sorted { $0.id < $1.id }.filter { later in
            guard later.id > target.id, undoneBy[later.id] == nil else { return false }
            if let undone = later.undoes, undone > target.id { return false }
            return target.content.isTouched(by: later.content)
        }
        .map(\.id)
    }

    /// The change sets older than `days` before `now` that pruning removes. Each change set holds
    /// all its undo needs, so removing whole ones leaves every kept one fully undoable.
    public static func cutoff(days: Int, now: Date) -> Date {
        now.addingTimeInterval(-Double(days) * 86_400)
    }
}

extension ChangeSet {
    /// The change set that reverts this one, recorded as one change like any other.
    public func undo(id: Int64, when: Date, command: String) -> ChangeSet {
        ChangeSet(id: id, when: when, command: command, undoes: self.id, content: content.inverse())
    }
}

/// What `undo` did or, with `--dry-run`, would do.
public struct UndoOutcome: Hashable, Sendable {
    /// The change set reverted.
    public var undone: ChangeSet
    /// The change set that records the undo; its id is the one it would get on a dry run.
    public var undo: ChangeSet
    public var dryRun: Bool

    public init(undone: ChangeSet, undo: ChangeSet, dryRun: Bool) {
        self.undone = undone
        self.undo = undo
        self.dryRun = dryRun
    }
}

/// A change set as `tally log` lists it.
public struct ChangeSetEntry: Hashable, Sendable {
    public var changeSet: ChangeSet
    public var undone: Bool

    public init(changeSet: ChangeSet, undone: Bool) {
        self.changeSet = changeSet
        self.undone = undone
    }
}

/// JSON for a change set's content as the stores keep it, dates in milliseconds as every store
/// keeps them, so images compare equal after a round trip.
public enum ChangeContentCoding {
    public static func encode(_ content: ChangeContent) throws(TallyError) -> Data {
        // Adding, editing or removing expenses (no other row, no bulk part) is most of what people
        // do, and JSONEncoder's cost even for one expense is a large share of a `tally add`: such a
        // change is written here, as JSON the same decoder reads.
        // A rate import's images (a quarter of a million rows) are written the same way.
        if content.rows.isEmpty, content.addedExpenses == nil, content.removedExpenses == nil, content.rowKeys == nil {
            var json = JSONText()
            json.raw("{\"rows\":[],\"expensesBefore\":")
            content.expensesBefore.writeJSON(into: &json)
            json.raw(",\"expensesAfter\":")
            content.expensesAfter.writeJSON(into: &json)
            if let rates = content.rates {
                json.raw(",\"rates\":")
                rates.writeJSON(into: &json)
            }
            json.raw("}")
            return Data(json.bytes)
        }
        return try encodeWithFoundation(content)
    }

    /// What `encode` does for every other change; tests compare the two.
    static func encodeWithFoundation(_ content: ChangeContent) throws(TallyError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Milliseconds.since1970(date))
        }
        do {
            return try encoder.encode(content)
        } catch {
            throw .storage("cannot record the change: \(error)")
        }
    }

    public static func decode(_ data: Data) throws(TallyError) -> ChangeContent {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            Milliseconds.date(try decoder.singleValueContainer().decode(Int64.self))
        }
        do {
            return try decoder.decode(ChangeContent.self, from: data)
        } catch {
            throw .storage("a change set in the history is damaged: \(error)")
        }
    }
}

/// The rows other than expenses, as a store reads them whole around a write that may touch many
/// of them (removing a budget cascades to its rules and payments): the change is their difference.
public enum RowDiff {
    public static func changes(from before: [RowImage], to after: [RowImage]) -> [RowChange] {
        var old: [RowKey: RowImage] = [:]
        for image in before { old[image.key] = image }
        var new: [RowKey: RowImage] = [:]
        for image in after { new[image.key] = image }
        var changes: [RowChange] = []
        for key in Set(old.keys).union(new.keys).sorted() where old[key] != new[key] {
            changes.append(RowChange(before: old[key], after: new[key]))
        }
        return changes
    }
}

/// JSON written byte by byte: texts escaped as RFC 8259 requires (quote, backslash, control
/// characters), everything else as its UTF-8.
public struct JSONText {
    private(set) var bytes: [UInt8] = []
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func number(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func string(_ text: String) {
        Self.append(text, to: &bytes)
    }

    mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// `value` (not negative) in decimal, zero-padded on the left to `width` digits.
    mutating func digits(_ value: Int64, width: Int = 1) {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { scratch in
            var rest = UInt64(value)
            var end = scratch.count
            repeat {
                end -= 1
                scratch[end] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            while scratch.count - end < width {
                end -= 1
                scratch[end] = UInt8(ascii: "0")
            }
            bytes.append(contentsOf: scratch[end...])
        }
    }

    /// `text`'s characters escaped as ``append(_:to:)`` escapes them, without the quotes.
    mutating func inside(_ text: String) {
        Self.appendInside(text, to: &bytes)
    }

    /// `text` quoted and escaped as JSONEncoder escapes it: quote and backslash, the five
    /// control characters with a short form (`\b`, `\t`, `\n`, `\f`, `\r`) by it, the other
    /// control characters as `\u00xx`; slashes and everything else as they are.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendInside(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendInside(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            // Most texts need no escape: their bytes go in whole.
            if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                appendEscaped(utf8, to: &bytes)
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
    }

    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default:
                bytes.append(byte)
            }
        }
    }
}
