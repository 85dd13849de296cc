import Foundation
import TallyCore
import TallyInMemory
import TallySQLite

/// Where a ledger lives, as a user names it: a file path, or `:memory:` for a ledger that lasts
/// one process. This is the one place that turns a location into a concrete store; everything
/// above it speaks `DataAccess` only, so a server-backed store joins here.
public enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    case file(path: String)
    case memory

    public init(_ text: String) {
        self = text == ":memory:" ? .memory : .file(path: text)
    }

    /// Whether a ledger is there already. A command that fails must leave no new database behind,
    /// so commands that would only read an absent ledger, or that may still fail after reading
    /// their input, ask this first.
    public var exists: Bool {
        switch self {
        case .file(let path): FileManager.default.fileExists(atPath: path)
        case .memory: false
        }
    }

    /// The location as messages show it.
    public var description: String {
        switch self {
        case .file(let path): path
        case .memory: ":memory:"
        }
    }

    /// Opens the ledger, creating and migrating it when it is new.
    public func open() throws(TallyError) -> any DataAccess {
        switch self {
        case .file(let path): try SQLiteStore(path: path)
        case .memory: InMemoryStore()
        }
    }
}
