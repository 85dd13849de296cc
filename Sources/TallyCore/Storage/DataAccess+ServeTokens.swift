import Foundation

// `tally serve`'s tokens as rows of their own kind (``RowKinds/serveTokens``): written in a
// store's transaction like any row, and recorded in no change set.
extension DataAccess {
    /// Every token, by name.
    public func serveTokens() throws(TallyError) -> [ServeToken] {
        try reading { (rows: any LedgerRows) throws(TallyError) in try rows.serveTokens() }
    }

    /// Saves a new token, unless one has its name ignoring case (names are unique so), checked
    /// and written in one transaction; whether it was saved.
    @discardableResult
    public func addServeToken(_ token: ServeToken) throws(TallyError) -> Bool {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            if try rows.serveTokens().contains(where: { $0.name.lowercased() == token.name.lowercased() }) { return false }
            _ = try rows.save(.serveToken(token))
            return true
        }
    }

    /// Removes the token with this name, ignoring case; whether there was one.
    public func removeServeToken(named name: String) throws(TallyError) -> Bool {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            guard let token = try rows.serveTokens().first(where: { $0.name.lowercased() == name.lowercased() }) else { return false }
            try rows.delete(.serveToken(token))
            return true
        }
    }

    /// Marks the sign-in link of the token with this hash used, in one transaction so that a
    /// link works once however many ask at the same time; whether it was unused until now.
    public func useServeTokenLink(hash: String) throws(TallyError) -> Bool {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            guard var token = try rows.serveTokens().first(where: { $0.hash == hash && !$0.linkUsed }) else { return false }
            token.linkUsed = true
            _ = try rows.save(.serveToken(token))
            return true
        }
    }
}
