import Foundation
import TallyCore

// Import rules, row keys and profiles, as `SQLiteStore` keeps them: a rule points at its budget
// by id and is answered with the budget's current name; each method one transaction.
extension PostgresStore {
    /// Saves row keys, sorted, into a table that holds none (``saveImportedRows(_:batch:)``), so
    /// they go by COPY, a fifth of the time of INSERT … ON CONFLICT; a key twice (two rows whose
    /// 64-bit hashes collide) is saved once.
    func saveNewRowKeys(_ sorted: [Int64], batch id: Int64) throws(TallyError) {
        guard sorted.count >= 100 else { return try saveRowKeys(sorted, batch: id) }
        var rows = CopyRows(capacity: sorted.count * 28)
        var previous: Int64?
        for key in sorted where key != previous {
            rows.append(key)
            rows.append(id)
            rows.endRow()
            previous = key
        }
        try session.copy(into: "importedrow", columns: ["key", "batch"], rows)
    }

    /// Saves row keys a batch at a time (one statement each would cost a round trip per key),
    /// skipping those already stored.
    func saveRowKeys(_ keys: [Int64], batch id: Int64?) throws(TallyError) {
        var start = keys.startIndex
        while start < keys.endIndex {
            let batch = Array(keys[start..<min(start + 10_000, keys.endIndex)])
            try session.query("INSERT INTO importedRow (key, batch) SELECT unnest($1::BIGINT[]), $2 ON CONFLICT DO NOTHING", [.ints(batch), .int(id)])
            start += batch.count
        }
    }

    func storeProfile(_ profile: ImportProfile) throws(TallyError) {
        try session.query(
            """
            INSERT INTO importProfile (nameKey, name, columns, dateFormat, expenseSign, delimiter, fallbackBudget, uncategorized,
                decimalComma, currency, encoding, skip)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            ON CONFLICT (nameKey) DO UPDATE SET name = excluded.name, columns = excluded.columns, dateFormat = excluded.dateFormat,
                expenseSign = excluded.expenseSign, delimiter = excluded.delimiter, fallbackBudget = excluded.fallbackBudget,
                uncategorized = excluded.uncategorized, decimalComma = excluded.decimalComma, currency = excluded.currency,
                encoding = excluded.encoding, skip = excluded.skip
            """,
            [
                .text(profile.nameKey), .text(profile.name), .text(profile.columns), .text(profile.dateFormat), .text(profile.expenseSign),
                .text(profile.delimiter), .text(profile.fallbackBudget), .int(profile.uncategorized ? 1 : 0),
                .int(profile.decimalComma.map { $0 ? 1 : 0 }), .text(profile.currency), .text(profile.encoding),
                .int(profile.skip.map(Int64.init)),
            ])
    }

    func loadProfiles() throws(TallyError) -> [ImportProfile] {
        var profiles: [ImportProfile] = []
        let rows = try session.query(
            """
            SELECT name, columns, dateFormat, expenseSign, delimiter, fallbackBudget, uncategorized, decimalComma, currency, encoding,
                skip
            FROM importProfile ORDER BY nameKey COLLATE "C"
            """)
        for row in rows {
            profiles.append(
                ImportProfile(
                    name: try row.string(0), columns: try row.optionalString(1), dateFormat: try row.optionalString(2),
                    expenseSign: try row.optionalString(3), delimiter: try row.optionalString(4), fallbackBudget: try row.optionalString(5),
                    uncategorized: try row.int(6) != 0, decimalComma: try row.optionalInt(7).map { $0 != 0 },
                    currency: try row.optionalString(8), encoding: try row.optionalString(9),
                    skip: try row.optionalInt(10).map { Int(clamping: $0) }))
        }
        return profiles
    }

}
