import Foundation

/// Row-level dedupe of imported files: which rows of a file were imported before.
///
/// A row's key is a 64-bit hash of its column layout (or profile), date, amount and normalized
/// name (the name as the file writes it, before any rule renames it: a rule changed later must
/// not make old rows new), plus its occurrence number among identical rows of the same file.
/// Three identical coffees on one day are occurrences 0, 1 and 2: a file with them imports
/// three, and importing it again imports none, while another file with a fourth imports one.
/// The layout is part of the key because two cards' exports can hold identical purchases.
///
/// Keys are hashes, not the rows: eight bytes a row to store and to hold in memory. Two distinct
/// rows collide with a probability of about n²/2⁶⁵ (10⁻⁷ for a million rows), and the cost of a
/// collision is one row reported as already there.
public enum ImportRowKey {
    /// FNV-1a, 64 bits: stable across processes and versions (Swift's `Hasher` is seeded per
    /// process), and cheap on the short texts it sees.
    public struct Hash: Sendable {
        public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

        public init() {}

        public mutating func add(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }

        public mutating func add(_ number: UInt64) {
            var number = number
            for _ in 0..<8 {
                add(UInt8(truncatingIfNeeded: number))
                number >>= 8
            }
        }

        public mutating func add(_ text: String) {
            for byte in text.utf8 { add(byte) }
            add(UInt8(0xFF))  // never in UTF-8: ends the text, so "ab"+"c" differs from "a"+"bc"
        }
    }

    /// The hash of a layout or profile, the first part of every key of its rows.
    public static func scope(_ text: String) -> UInt64 {
        var hash = Hash()
        hash.add(text)
        return hash.value
    }

    /// The hash of a name as keys compare it: folded as `NameKey` folds it (ASCII is only
    /// lowercased, byte by byte), surrounding white space left out and each run inside as one
    /// space. Hashed on the fly: building the normalized string would allocate one for every row.
    public static func nameHash(of name: String) -> UInt64 {
        let ascii = name.utf8.allSatisfy { $0 < 0x80 }
        let text = ascii ? name : NameKey.make(name)
        var hash = Hash()
        var started = false
        var pendingSpace = false
        for byte in text.utf8 {
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = started
                continue
            }
            if pendingSpace {
                hash.add(UInt8(0x20))
                pendingSpace = false
            }
            started = true
            hash.add(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        hash.add(UInt8(0xFF))
        return hash.value
    }

    /// A row's key without its occurrence number.
    public static func base(scope: UInt64, day: Day, cents: Int64, nameHash: UInt64) -> UInt64 {
        var hash = Hash()
        hash.add(scope)
        hash.add(UInt64(truncatingIfNeeded: day.year * 10_000 + day.month * 100 + day.day))
        hash.add(UInt64(bitPattern: cents))
        hash.add(nameHash)
        return hash.value
    }

    /// The stored key: `base` with the occurrence number mixed in (SplitMix64's finalizer), as a
    /// signed integer, which SQLite stores.
    public static func key(base: UInt64, occurrence: UInt32) -> Int64 {
        var mixed = base &+ UInt64(occurrence) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int64(bitPattern: mixed ^ (mixed >> 31))
    }
}

/// Numbers identical rows of one file 0, 1, 2… Most rows are unique, so a first sighting costs
/// one set entry and only repeats take a counter.
public struct RowOccurrences: Sendable {
    private var seen: Set<UInt64> = []
    private var repeats: [UInt64: UInt32] = [:]

    public init() {}

    public mutating func next(_ base: UInt64) -> UInt32 {
        if seen.insert(base).inserted { return 0 }
        let occurrence = repeats[base, default: 0] + 1
        repeats[base] = occurrence
        return occurrence
    }
}

/// The keys of one import: the store hands in those it knows, the reading side asks for each
/// row whether it is new, and the store saves the new ones in the same transaction.
///
/// A class, because the store and the reading side share it; they never touch it at once: the
/// store sets ``known`` before it starts reading rows and takes ``newKeys`` after the last.
public final class ImportRowKeys: @unchecked Sendable, Hashable {
    /// Keys of rows imported before; set by the store.
    public var known: Set<Int64> = []
    /// Keys of the rows this import admitted that were not known, in file order.
    public private(set) var newKeys: [Int64] = []
    /// Rows already there, not imported.
    public private(set) var duplicateCount = 0
    /// Admit every row (`--force`), still remembering new keys.
    public let admitsDuplicates: Bool

    public init(admitsDuplicates: Bool = false) {
        self.admitsDuplicates = admitsDuplicates
    }

    /// Whether the row with `key` is to be imported; counts it as a duplicate when not.
    public func admit(_ key: Int64) -> Bool {
        if known.contains(key) {
            guard admitsDuplicates else {
                duplicateCount += 1
                return false
            }
            return true
        }
        newKeys.append(key)
        return true
    }

    /// ``newKeys`` sorted in place, for a store to save in ascending order without a second
    /// copy of a million keys; call once the rows are read.
    public func sortedNewKeys() -> [Int64] {
        newKeys.sort()
        return newKeys
    }

    public static func == (lhs: ImportRowKeys, rhs: ImportRowKeys) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
