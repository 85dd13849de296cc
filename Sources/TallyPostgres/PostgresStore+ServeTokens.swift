import TallyCore

// MARK: - `tally serve`'s tokens (`v16-serve-tokens`), outside the history

extension PostgresStore: ServeTokenStore {
    public func serveTokens() throws(TallyError) -> [ServeToken] {
        try read { () throws(TallyError) in
            var tokens: [ServeToken] = []
            for row in try session.query("SELECT name, permission, hash, createdAt, linkUsed FROM serveToken ORDER BY name") {
                let permission = try row.string(1)
                guard let level = ServePermission(rawValue: permission) else {
                    throw TallyError.storage("the token table has an unknown permission: \(permission)")
                }
                tokens.append(
                    ServeToken(name: try row.string(0), permission: level, hash: try row.string(2), createdAt: try row.int(3), linkUsed: try row.bool(4)))
            }
            return tokens
        }
    }

    public func saveServeToken(_ token: ServeToken) throws(TallyError) {
        try write { () throws(TallyError) in
            try session.query(
                "INSERT INTO serveToken (name, permission, hash, createdAt, linkUsed) VALUES ($1, $2, $3, $4, FALSE)",
                [.text(token.name), .text(token.permission.rawValue), .text(token.hash), .int(token.createdAt)])
        }
    }

    public func removeServeToken(named name: String) throws(TallyError) -> Bool {
        try write { () throws(TallyError) in
            try !session.query("DELETE FROM serveToken WHERE name = $1 RETURNING name", [.text(name)]).isEmpty
        }
    }

    public func useServeTokenLink(hash: String) throws(TallyError) -> Bool {
        try write { () throws(TallyError) in
            try !session.query("UPDATE serveToken SET linkUsed = TRUE WHERE hash = $1 AND NOT linkUsed RETURNING name", [.text(hash)]).isEmpty
        }
    }
}
