import TallyCore

/// Field rules the XML and OFX readers share: each refuses a value with a one-line message
/// naming it and its line.
enum StatementFields {
    /// An amount with `.` as its only decimal separator and no sign; `12,50` is refused.
    static func unsignedAmount(_ text: String, line: Int?, field: String) throws(TallyError) -> Money {
        let trimmed = trim(text)
        guard let first = trimmed.utf8.first, first >= 0x30 && first <= 0x39 || first == UInt8(ascii: "."),
            let amount = StatementText.amount(trimmed)
        else {
            let hint = trimmed.contains(",") ? " (use \".\" for decimals)" : ""
            throw .importFile(line: line, reason: "\(field) \(quoted(trimmed)) is not an amount\(hint)")
        }
        return amount
    }

    /// The day of an ISO 8601 date or date-time (`2026-11-26`, `2026-11-26T23:59:59+01:00`): the
    /// first ten characters, the day as the bank wrote it, never moved by the time zone.
    static func isoDay(_ text: String, line: Int?, field: String) throws(TallyError) -> Day {
        let trimmed = trim(text)
        do {
            return try Day(parsing: String(trimmed.prefix(10)))
        } catch {
            throw .importFile(line: line, reason: "\(field) \(quoted(trimmed)) is not a date")
        }
    }

    /// Text without the spaces, tabs and line breaks around it.
    static func trim(_ text: some StringProtocol) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[start...end])
    }

    /// Text with every run of whitespace made one space, as names and memos are kept.
    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
    }
}
