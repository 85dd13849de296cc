import Foundation
import TallyCore
import TallyInMemory
import TallySQLite

/// Where a ledger lives, as a user names it: a file path, `:memory:` for a ledger that lasts
/// one process, or a PostgreSQL URL. This is the one place that turns a location into a concrete
/// store; everything above it speaks `DataAccess` only.
public enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    case file(path: String)
    case memory
    case server(ServerLocation)
    /// A `postgresql://` URL that cannot be used, with the reason; the CLI refuses it as a usage
    /// error before anything opens it. The URL itself is not kept: it may hold a password.
    case unusableServer(reason: String)

    public init(_ text: String) {
        if ServerLocation.isServerURL(text) {
            do {
                self = .server(try ServerLocation(url: text))
            } catch {
                self = .unusableServer(reason: error.description)
            }
        } else {
            self = text == ":memory:" ? .memory : .file(path: text)
        }
    }

    /// How a server location becomes a store. Only the `tally-postgres` executable sets it, so
    /// that `tally`, which hands server locations over to it, never loads the client library.
    nonisolated(unsafe) public static var serverStores: (@Sendable (ServerLocation) throws(TallyError) -> any DataAccess)?

    /// Whether a ledger is there already. A command that fails must leave no new database behind,
    /// so commands that would only read an absent ledger, or that may still fail after reading
    /// their input, ask this first. A server's database is there (Tally never creates one); its
    /// tables are made on first use.
    public var exists: Bool {
        switch self {
        case .file(let path): FileManager.default.fileExists(atPath: path)
        case .memory: false
        case .server: true
        case .unusableServer: false
        }
    }

    /// The location as messages show it: never a password.
    public var description: String {
        switch self {
        case .file(let path): path
        case .memory: ":memory:"
        case .server(let server): server.description
        case .unusableServer: "postgresql://…"
        }
    }

    /// Opens the ledger, creating and migrating it when it is new.
    public func open() throws(TallyError) -> any DataAccess {
        switch self {
        case .file(let path): return try SQLiteStore(path: path)
        case .memory: return InMemoryStore()
        case .server(let server):
            guard let open = Self.serverStores else { throw .storage("PostgreSQL locations need tally-postgres, installed beside tally") }
            return try open(server)
        case .unusableServer(let reason): throw .storage(reason)
        }
    }
}
