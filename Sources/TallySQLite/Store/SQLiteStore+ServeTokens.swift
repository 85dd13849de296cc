import GRDB
import TallyCore

// MARK: - `tally serve`'s tokens (`Schema.v23ServeTokens`), outside the history

extension SQLiteStore: ServeTokenStore {
    public func serveTokens() throws(TallyError) -> [ServeToken] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT name, permission, hash, createdAt, linkUsed FROM serveToken ORDER BY name").map { row in
                let permission: String = row[1]
                guard let level = ServePermission(rawValue: permission) else {
                    throw TallyError.storage("the token table has an unknown permission: \(permission)")
                }
                return ServeToken(name: row[0], permission: level, hash: row[2], createdAt: row[3], linkUsed: row[4])
            }
        }
    }

    public func saveServeToken(_ token: ServeToken) throws(TallyError) {
        try tokenWrite { db in
            try db.execute(
                sql: "INSERT INTO serveToken (name, permission, hash, createdAt, linkUsed) VALUES (?, ?, ?, ?, ?)",
                arguments: [token.name, token.permission.rawValue, token.hash, token.createdAt, token.linkUsed])
        }
    }

    public func removeServeToken(named name: String) throws(TallyError) -> Bool {
        try tokenWrite { db in
            try db.execute(sql: "DELETE FROM serveToken WHERE name = ? COLLATE BINARY", arguments: [name])
            return db.changesCount > 0
        }
    }

    public func useServeTokenLink(hash: String) throws(TallyError) -> Bool {
        try tokenWrite { db in
            try db.execute(sql: "UPDATE serveToken SET linkUsed = 1 WHERE hash = ? AND linkUsed = 0", arguments: [hash])
            return db.changesCount > 0
        }
    }

    /// Tokens are not ledger data: no daily snapshot is taken for them.
    private func tokenWrite<T>(_ updates: (Database) throws -> T) throws(TallyError) -> T {
        do {
            return try dbWriter.write(updates)
        } catch {
            throw Self.storageError(error)
        }
    }
}
