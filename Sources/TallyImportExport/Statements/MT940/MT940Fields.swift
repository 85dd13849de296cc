import TallyCore

// The values of single MT940 fields: balances (`:60F:`, `:62F:`), statement lines (`:61:`) and
// the account (`:25:`). Each parser gets the field's text without its tag and throws with the
// field's first line.

/// A balance field: `C` or `D`, YYMMDD, the currency, the amount with a decimal comma.
struct MT940Balance {
    var balance: StatementBalance
    var currency: String

    init(_ text: [UInt8], line: Int, field: String) throws(TallyError) {
        let bytes = MT940Text.firstLine(text)
        guard bytes.count >= 11, bytes[0] == UInt8(ascii: "C") || bytes[0] == UInt8(ascii: "D") else {
            throw MT940Text.error(line, "the \(field) balance \(quoted(String(decoding: bytes, as: UTF8.self))) does not start with C or D and a date")
        }
        let day = try MT940Text.day(bytes[1..<7], line: line)
        let currency = bytes[7..<10]
        guard currency.allSatisfy(StatementBytes.isUpper) else {
            throw MT940Text.error(line, "the \(field) balance has no currency code")
        }
        var amount = try MT940Text.amount(bytes[10...], line: line)
        if bytes[0] == UInt8(ascii: "D") { amount = Money(cents: -amount.cents) }
        balance = StatementBalance(amount: amount, day: day)
        self.currency = String(decoding: currency, as: UTF8.self)
    }
}

/// A `:61:` statement line, before its `:86:` details are known.
struct MT940Line {
    var day: Day
    var amount: Money
    /// `N` and three characters, as `NTRF`: the last resort for a name.
    var type: String
    var bankID: String?
    var line: Int

    init(_ text: [UInt8], line: Int) throws(TallyError) {
        let bytes = MT940Text.firstLine(text)
        func fail(_ reason: String) -> TallyError {
            MT940Text.error(line, "the statement line \(quoted(String(decoding: bytes, as: UTF8.self))) \(reason)")
        }
        guard bytes.count >= 6 else { throw fail("has no value date") }
        let valueDay = try MT940Text.day(bytes[0..<6], line: line)
        var index = 6
        var day = valueDay
        if bytes.count >= index + 4, bytes[index..<index + 4].allSatisfy(StatementBytes.isDigit) {
            day = try MT940Line.entryDay(month: bytes[index..<index + 2], day: bytes[index + 2..<index + 4], near: valueDay, line: line)
            index += 4
        }
        // The debit/credit mark: a reversal (`RC`, `RD`) books the opposite way.
        let rest = bytes[index...]
        let negative: Bool
        if rest.starts(with: Array("RC".utf8)) || rest.starts(with: Array("RD".utf8)) {
            negative = rest.dropFirst().first == UInt8(ascii: "C")
            index += 2
        } else if let mark = rest.first, mark == UInt8(ascii: "C") || mark == UInt8(ascii: "D") {
            negative = mark == UInt8(ascii: "D")
            index += 1
        } else {
            throw fail("has no C, D, RC or RD mark")
        }
        // An optional funds code: the third letter of the currency.
        if index < bytes.count, StatementBytes.isUpper(bytes[index]) { index += 1 }
        let amountStart = index
        while index < bytes.count, StatementBytes.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ".") {
            index += 1
        }
        let amount = try MT940Text.amount(bytes[amountStart..<index], line: line)
        self.amount = negative ? Money(cents: -amount.cents) : amount
        guard index + 4 <= bytes.count, [UInt8(ascii: "N"), UInt8(ascii: "F"), UInt8(ascii: "S")].contains(bytes[index]) else {
            throw fail("has no transaction type such as NTRF after its amount")
        }
        type = String(decoding: bytes[index..<index + 4], as: UTF8.self)
        index += 4
        // The customer's reference, then the bank's after `//`.
        let references = Array(bytes[index...])
        let customer: String
        var bank = ""
        if let slashes = MT940Text.find(Array("//".utf8), in: references) {
            customer = StatementBytes.trimmed(references[..<slashes])
            bank = StatementBytes.trimmed(references[(slashes + 2)...])
        } else {
            customer = StatementBytes.trimmed(references)
        }
        if !bank.isEmpty {
            bankID = bank
        } else if !customer.isEmpty, customer.uppercased() != "NONREF" {
            bankID = customer
        }
        if let bankID, bankID.utf8.count > StatementLimits.maximumFieldBytes { throw fail("has a reference that is too long") }
        self.day = day
        self.line = line
    }

    /// The booking day MMDD, in the year that puts it nearest the value day: an entry booked on
    /// 31 December for value on 2 January belongs to the year before.
    static func entryDay(month: ArraySlice<UInt8>, day: ArraySlice<UInt8>, near value: Day, line: Int) throws(TallyError) -> Day {
        guard let month = StatementBytes.number(month), let dayNumber = StatementBytes.number(day) else {
            throw MT940Text.error(line, "the entry date is not MMDD")
        }
        var best: Day?
        for year in [value.year - 1, value.year, value.year + 1] {
            guard let candidate = try? Day(year: year, month: month, day: dayNumber) else { continue }
            if let current = best, abs(current.daysSinceEpoch - value.daysSinceEpoch) <= abs(candidate.daysSinceEpoch - value.daysSinceEpoch) {
                continue
            }
            best = candidate
        }
        guard let best else {
            throw MT940Text.error(line, "the entry date \(String(format2: month))\(String(format2: dayNumber)) is not a day")
        }
        return best
    }
}

extension String {
    fileprivate init(format2 value: Int) { self = value < 10 ? "0\(value)" : "\(value)" }
}

enum MT940Account {
    /// `:25:` as an account: an IBAN (an ABN AMRO export may follow it with the currency), else
    /// the number after the last `/` of `BLZ/ACCOUNT` or `BIC/ACCOUNT`: the bank code is not
    /// part of the number the customer knows.
    static func parse(_ text: [UInt8]) -> StatementAccount {
        // 35 characters by the standard; a longer line is cut rather than normalized whole.
        let value = StatementBytes.trimmed(MT940Text.firstLine(text).prefix(70))
        let tail = value.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? value
        guard let normalized = StatementText.accountNumber(tail) else { return StatementAccount() }
        let bytes = Array(normalized.utf8)
        // The currency is tried first: one in 97 IBANs still passes the check with it appended
        // (NL02ABNA0123456789EUR does).
        if bytes.count > 3, bytes.suffix(3).allSatisfy(StatementBytes.isUpper) {
            let withoutCurrency = String(decoding: bytes.dropLast(3), as: UTF8.self)
            if StatementText.isIBAN(withoutCurrency) {
                return StatementAccount(iban: withoutCurrency, currency: String(decoding: bytes.suffix(3), as: UTF8.self))
            }
        }
        if StatementText.isIBAN(normalized) { return StatementAccount(iban: normalized) }
        return StatementAccount(number: normalized)
    }
}

/// Text rules of MT940 values.
enum MT940Text {
    static func error(_ line: Int, _ reason: String) -> TallyError {
        .importFile(line: line, reason: reason)
    }

    /// Lines joined, by copying: a joined() sequence walks byte by byte.
    static func join(_ lines: [[UInt8]], separator: UInt8?) -> [UInt8] {
        var joined: [UInt8] = []
        joined.reserveCapacity(lines.reduce(lines.count) { $0 + $1.count })
        for (index, line) in lines.enumerated() {
            if index > 0, let separator { joined.append(separator) }
            joined.append(contentsOf: line)
        }
        return joined
    }

    /// The field's text up to its first line break.
    static func firstLine(_ text: [UInt8]) -> ArraySlice<UInt8> {
        text.firstIndex(of: 0x0A).map { text[..<$0] } ?? text[...]
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
        }
        return nil
    }

    /// YYMMDD, the year read as ``TwoDigitYear``.
    static func day(_ bytes: ArraySlice<UInt8>, line: Int) throws(TallyError) -> Day {
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.count == 6, let year = StatementBytes.number(bytes.prefix(2)),
            let month = StatementBytes.number(bytes.dropFirst(2).prefix(2)), let day = StatementBytes.number(bytes.suffix(2)),
            let result = try? Day(year: TwoDigitYear.expand(year), month: month, day: day)
        else { throw error(line, "the date \(quoted(text)) is not a day written YYMMDD") }
        return result
    }

    /// An unsigned amount with a decimal comma, as `1234,5`; a decimal point is refused, since
    /// MT940 never writes one and reading it would move the amount a hundredfold or not at all.
    static func amount(_ bytes: ArraySlice<UInt8>, line: Int) throws(TallyError) -> Money {
        let text = String(decoding: bytes, as: UTF8.self)
        if bytes.contains(UInt8(ascii: ".")) {
            throw error(line, "the amount \(quoted(text)) has a '.': MT940 amounts use ',' as the decimal sign")
        }
        guard bytes.first.map(StatementBytes.isDigit) == true, let amount = StatementText.amount(text, decimal: UInt8(ascii: ",")) else {
            throw error(line, "the amount \(quoted(text)) is not digits with a decimal comma, or is too large")
        }
        return amount
    }
}
