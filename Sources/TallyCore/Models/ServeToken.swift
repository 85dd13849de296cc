import Foundation

/// What a `tally serve` token lets its holder do; each level includes the ones before it.
public enum ServePermission: String, CaseIterable, Comparable, Codable, Sendable {
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
public struct ServeToken: Hashable, Codable, Sendable {
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
