import Foundation
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

    /// An ISO 4217 code that can hold an amount (`JPY`, `usd`), or the one-line usage error
    /// naming `field` and the value.
    static func currency(_ text: String, line: Int?, field: String) throws(TallyError) -> Currency {
        let trimmed = trim(text)
        do throws(TallyError) {
            let currency = try Currency(code: trimmed)
            _ = try MinorUnits.digits(of: currency)
            return currency
        } catch {
            let reason = if case .foreignMoney(let problem) = error { problem.message } else { "not an ISO 4217 currency code" }
            throw .foreignMoney(.statementField(line: line, field: field, value: trimmed, reason: reason))
        }
    }

    /// A rate above zero with `.` (or, when there is none, OFX 1.x's `,`) for decimals, at most
    /// ``ExchangeRate/maximumScale`` of them, or the one-line usage error naming `field` and the value.
    static func rate(_ text: String, line: Int?, field: String) throws(TallyError) -> ExchangeRate {
        let trimmed = trim(text)
        let plain = trimmed.utf8.contains(UInt8(ascii: ".")) ? trimmed : trimmed.replacingOccurrences(of: ",", with: ".")
        do throws(TallyError) {
            return try ExchangeRate(parsing: plain.hasPrefix("+") ? String(plain.dropFirst()) : plain)
        } catch {
            throw .foreignMoney(.statementField(
                line: line, field: field, value: trimmed, reason: "use a rate above zero with at most \(ExchangeRate.maximumScale) decimals, like 0.0061"))
        }
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

    /// Text without the spaces, tabs and line breaks around it. Works on UTF-8 bytes: these are
    /// all ASCII, and Character by Character would cost a reader half its time.
    /// A text that needs no trimming, as most fields are, is kept without a copy.
    static func trim(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last, !isSpace(first), !isSpace(last) else { return trim(Substring(text)) }
        return text
    }

    static func trim(_ text: some StringProtocol) -> String {
        let text = Substring(text)
        let bytes = text.utf8
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(text[start...last])
    }

    /// Text with every run of whitespace made one space, as names and memos are kept.
    static func collapse(_ text: String) -> String {
        var previousSpace = true
        var clean = true
        for byte in text.utf8 {
            let space = isSpace(byte)
            if space && (previousSpace || byte != 0x20) {
                clean = false
                break
            }
            previousSpace = space
        }
        if clean && !previousSpace { return text }
        return text.utf8.split(whereSeparator: isSpace).map { String(Substring($0)) }.joined(separator: " ")
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}
