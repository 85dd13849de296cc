import Foundation
import GRDB
import TallyCore

// Tags are stored as sets an expense points at (see `Schema.v1`); these find, create and read them.
extension SQLiteStore {
    /// The id of the set of `tags` (validated), created with its missing tags if it is new;
    /// `nil` for no tags.
    static func tagSetID(_ tags: [String], _ db: Database) throws -> Int64? {
        guard !tags.isEmpty else { return nil }
        let composed = tags.map(\.composedTag)
        let key = TagSetKey.make(composed)
        if let existing = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM tagSet WHERE tags = ?"), arguments: [key]) {
            return existing
        }
        try db.cachedStatement(sql: "INSERT INTO tagSet (tags) VALUES (?)").execute(arguments: [key])
        let setID = db.lastInsertedRowID
        for name in Set(composed) {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO tag (name) VALUES (?)").execute(arguments: [name])
            try db.cachedStatement(sql: "INSERT INTO tagSetTag (tagSetId, tagId) SELECT ?, id FROM tag WHERE name = ?")
                .execute(arguments: [setID, name])
        }
        return setID
    }

    static func tags(of tagSetID: Int64?, _ db: Database) throws -> [String] {
        guard let tagSetID else { return [] }
        return TagSetKey.tags(try String.fetchOne(db, sql: "SELECT tags FROM tagSet WHERE id = ?", arguments: [tagSetID]))
    }

    /// The tags of each of `tagSetIDs`, in one query whatever their number.
    static func tags(ofSets tagSetIDs: [Int64], _ db: Database) throws -> [Int64: [String]] {
        guard !tagSetIDs.isEmpty else { return [:] }
        let ids = "[" + Set(tagSetIDs).map(String.init).joined(separator: ",") + "]"
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, tags FROM tagSet WHERE id IN (SELECT value FROM json_each(?))"), arguments: [ids])
        var tags: [Int64: [String]] = [:]
        while let row = try rows.next() {
            tags[row["id"]] = TagSetKey.tags(row["tags"])
        }
        return tags
    }
}
