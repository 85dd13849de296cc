import TallyCore

/// The columns a CSV export adds when some exported expense is split, a refund or in another
/// currency, so that the file imports back whole (``CSVExportWriter``, read by
/// ``CSVRowMapper``'s ``ExportedRow``).
///
/// A split expense is one row per line, consecutive, each repeating the expense's own fields
/// (date, name, amount, quantity, tags, by, id, the foreign columns) and giving its line's
/// `budget`, `line amount`, `share`, `line name` and `line tags`; `id` ties the rows together. A
/// refund is `kind` `refund`, its amount positive as in the JSON backup, `refund of` naming the
/// id it returns. An expense in another currency keeps `amount` in the ledger's currency and
/// gives `original` (in the currency's own minor units), `currency`, `rate` and `rate source`,
/// all empty for an expense in the ledger's currency.
public enum CSVLedgerColumns {
    /// Between ``CSVExportWriter/accountColumns``' `to` and `kind`.
    public static let names = [
        "id", "line amount", "share", "line name", "line tags", "refund of", "original", "currency", "rate", "rate source",
    ]

    /// The cells of `expense`'s rows after `to` and before `kind`: one row for a plain expense or
    /// a refund, one per line for a split, ordered as the lines are.
    static func cells(of expense: Expense) -> [[String]] {
        let foreign = foreignCells(expense.foreign)
        let id = expense.id.map(String.init) ?? ""
        let refundOf = expense.isRefund ? expense.refundOf.map(String.init) ?? "" : ""
        guard !expense.lines.isEmpty else { return [[id, "", "", "", "", refundOf] + foreign] }
        return expense.lines.map { line in
            [id, line.amount.plainString, line.share.text, line.name, line.tags.joined(separator: ";"), refundOf] + foreign
        }
    }

    /// The last four cells, `original`, `currency`, `rate` and `rate source`: empty for an entry
    /// in the ledger's currency.
    static func foreignCells(_ charge: ForeignCharge?) -> [String] {
        guard let charge else { return ["", "", "", ""] }
        return [charge.original.plainString, charge.original.currency.code, charge.rate.plainString, charge.source.rawValue]
    }

    /// Where each column is in a header, when the header has all of them (the layout
    /// ``CSVExportWriter`` writes); `nil` otherwise, and the file is read as before.
    struct Positions: Hashable, Sendable {
        let id, lineAmount, share, lineName, lineTags, refundOf, original, currency, rate, rateSource: Int

        init?(header: [String]) {
            var found: [Int] = []
            for name in CSVLedgerColumns.names {
                let matches = header.indices.filter { ColumnMapping.key(header[$0]) == name }
                guard matches.count == 1, let index = matches.first else { return nil }
                found.append(index)
            }
            id = found[0]
            lineAmount = found[1]
            share = found[2]
            lineName = found[3]
            lineTags = found[4]
            refundOf = found[5]
            original = found[6]
            currency = found[7]
            rate = found[8]
            rateSource = found[9]
        }
    }
}
