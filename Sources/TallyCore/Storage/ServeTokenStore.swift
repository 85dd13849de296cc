import Foundation

/// What a `tally serve` token lets its holder do; each level includes the ones before it.
public enum ServePermission: String, CaseIterable, Comparable, Sendable {
    /// Read every page and API answer.
    case view
    /// Also add, edit and remove expenses.
    case add
    /// Also undo, and change budgets and rules.
    case manage

    public static func < (lhs: ServePermission, rhs: ServePermission) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// One token of `tally serve`, as stored: never the token itself, only its SHA-256 (hex).
public struct ServeToken: Equatable, Sendable {
    public var name: String
    public var permission: ServePermission
    public var hash: String
    /// Milliseconds since 1970.
    public var createdAt: Int64
    /// Whether its sign-in link has been opened (the link works once).
    public var linkUsed: Bool

    public init(name: String, permission: ServePermission, hash: String, createdAt: Int64, linkUsed: Bool = false) {
        self.name = name
        self.permission = permission
        self.hash = hash
        self.createdAt = createdAt
        self.linkUsed = linkUsed
    }
}

/// The server's tokens, kept in the ledger's database beside the store boundary rather than in
/// it: they are access control, not ledger data, so no change set, export or copy carries them.
/// Every store implements it; names are unique ignoring case (the use cases check).
public protocol ServeTokenStore: DataAccess {
    func serveTokens() throws(TallyError) -> [ServeToken]
    func saveServeToken(_ token: ServeToken) throws(TallyError)
    /// Whether a token of that exact name was there.
    func removeServeToken(named name: String) throws(TallyError) -> Bool
    /// Marks the link of the token with this hash used; whether it was unused until now.
    func useServeTokenLink(hash: String) throws(TallyError) -> Bool
}
