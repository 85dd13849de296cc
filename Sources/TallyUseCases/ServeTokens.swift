import Foundation
import TallyCore

/// Why a `tally serve` token cannot be made, found or used.
public enum ServeTokenError: LocalizedError, Equatable, Sendable {
    /// A name must be 1 to 100 printable characters.
    case invalidName(String)
    /// Another token has this name, ignoring case.
    case duplicateName(String)
    /// No token has this name.
    case notFound(String)

    public var errorDescription: String? {
        switch self {
        case .invalidName(let name): "invalid token name \(quoted(name)): use 1 to 100 printable characters"
        case .duplicateName(let name): "a token named \(quoted(name)) exists already"
        case .notFound(let name): "no token named \(quoted(name))"
        }
    }

    private func quotedName(_ name: String) -> String { "'\(name)'" }
}

/// `serve token create|list|revoke` and the server's look-up. The token itself is made and
/// hashed by the caller (the server executable, which links a SHA-256); only its hash arrives here.
public enum ServeTokens {
    public static func create(name: String, permission: ServePermission, hash: String, in ledger: Ledger) throws -> ServeToken {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw ServeTokenError.invalidName(name)
        }
        let token = ServeToken(name: trimmed, permission: permission, hash: hash, createdAt: Int64(Date().timeIntervalSince1970 * 1000))
        let saved = try ledger.perform(anyError: { store in try store.addServeToken(token) })
        guard saved else { throw ServeTokenError.duplicateName(trimmed) }
        return token
    }

    public static func list(in ledger: Ledger) throws -> [ServeToken] {
        guard ledger.exists else { return [] }
        return try ledger.perform(anyError: { store in try store.serveTokens() })
    }

    /// Revokes the token named `name` (ignoring case); its cookie stops working with it.
    public static func revoke(name: String, in ledger: Ledger) throws {
        let removed = try ledger.perform(anyError: { store in try store.removeServeToken(named: name) })
        guard removed else { throw ServeTokenError.notFound(name) }
    }

    /// The token with this hash, if one is stored.
    public static func find(hash: String, in store: any DataAccess) throws -> ServeToken? {
        try store.serveTokens().first { $0.hash == hash }
    }

    /// Uses up the sign-in link of the token with this hash; whether it had not been used.
    public static func useLink(hash: String, in store: any DataAccess) throws -> Bool {
        try store.useServeTokenLink(hash: hash)
    }
}
