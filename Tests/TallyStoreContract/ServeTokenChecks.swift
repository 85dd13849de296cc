import Foundation
import TallyCore

/// What every store must do with `tally serve`'s tokens (rows of ``RowKinds/serveTokens``): keep
/// them outside the history and the rows an export reads, mark a link used once, refuse and
/// remove names ignoring case. Each store's test target runs it with its own store.
public enum ServeTokenChecks {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func run(_ store: any DataAccess) throws {
        let tokens = store
        func expect(_ condition: Bool, _ what: String) throws { if !condition { throw Failure(description: what) } }
        let history = try store.changeSets(since: nil, limit: nil).count
        let hash = String(repeating: "ab", count: 32)
        try tokens.addServeToken(ServeToken(name: "Phone", permission: .add, hash: hash, createdAt: 1_700_000_000_000))
        try tokens.addServeToken(ServeToken(name: "Laptop", permission: .manage, hash: String(repeating: "cd", count: 32), createdAt: 1))
        try expect(try tokens.serveTokens().map(\.name) == ["Laptop", "Phone"], "tokens are listed by name")
        try expect(try tokens.serveTokens().last == ServeToken(name: "Phone", permission: .add, hash: hash, createdAt: 1_700_000_000_000), "a token reads back as saved")
        try expect(try tokens.useServeTokenLink(hash: hash), "a fresh link can be used")
        try expect(!(try tokens.useServeTokenLink(hash: hash)), "a link works once")
        try expect(try tokens.serveTokens().last?.linkUsed == true, "a used link is remembered")
        try expect(
            !(try tokens.addServeToken(ServeToken(name: "PHONE", permission: .view, hash: String(repeating: "ef", count: 32), createdAt: 2))),
            "a name is taken ignoring case")
        try expect(!(try tokens.removeServeToken(named: "Nobody")), "removing an unknown name removes nothing")
        try expect(try tokens.removeServeToken(named: "Phone"), "a token is removed by name")
        try expect(try tokens.serveTokens().map(\.name) == ["Laptop"], "the other token stays")
        try expect(try store.changeSets(since: nil, limit: nil).count == history, "tokens are not part of the history")
        try expect(try store.reading { (rows: any LedgerRows) throws(TallyError) in try rows.rowImages() }.allSatisfy { $0.key != .serveToken(name: "Laptop") }, "no export reads the tokens")
    }
}
