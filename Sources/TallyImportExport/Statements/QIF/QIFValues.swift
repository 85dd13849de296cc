import TallyCore

// QIF defines neither a date format nor a decimal sign: both are found once per file, from all
// its dates and amounts (`QIFShape`), and then every value is read the same way.

/// Which of a QIF date's first two numbers is the month.
public enum QIFDateOrder: String, Hashable, Sendable {
    /// `MM/DD/YY`, as Quicken writes in the United States.
    case monthFirst
    /// `DD/MM/YYYY` or `DD.MM.YYYY`.
    case dayFirst

    /// The order a `--date-format` names (`MM/dd/yyyy` is month-first), `nil` for year-first.
    public init?(_ format: DateFormat) {
        let fields = format.tokens.compactMap { token -> Bool? in
            switch token {
            case .month: true
            case .day: false
            case .year, .literal: nil
            }
        }
        guard format.tokens.first.map({ $0 != .year }) == true, let first = fields.first else { return nil }
        self = first ? .monthFirst : .dayFirst
    }
}

/// A QIF date's three numbers, not yet knowing which is the month.
struct QIFDate {
    var first: Int
    var second: Int
    var year: Int
    /// `YYYY-MM-DD` (or with `/`): the order is plain and no inference needs it.
    var yearFirst: Bool

    /// `M/D/YY`, `MM/DD/YYYY`, `DD.MM.YYYY`, `D-M-YYYY`, Quicken's `M/D'YY` (the apostrophe marks
    /// a year of the 2000s) and any of them padded with spaces (` 1/ 5' 4`), or `YYYY-MM-DD`.
    /// Other two-digit years follow ``TwoDigitYear``.
    init?(_ bytes: [UInt8]) {
        var numbers: [(value: Int, digits: Int)] = []
        var separators: [UInt8] = []
        var digits: [UInt8] = []
        for byte in bytes + [UInt8(ascii: "/")] where byte != UInt8(ascii: " ") {
            if StatementBytes.isDigit(byte) {
                digits.append(byte)
                continue
            }
            guard [UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "'")].contains(byte),
                let value = StatementBytes.number(digits), digits.count <= 4
            else { return nil }
            numbers.append((value, digits.count))
            separators.append(byte)
            digits = []
        }
        guard numbers.count == 3 else { return nil }
        if numbers[0].digits == 4 {
            guard numbers[1].digits <= 2, numbers[2].digits <= 2 else { return nil }
            (year, first, second, yearFirst) = (numbers[0].value, numbers[1].value, numbers[2].value, true)
            return
        }
        guard numbers[0].digits <= 2, numbers[1].digits <= 2, numbers[2].digits == 4 || numbers[2].digits <= 2 else { return nil }
        (first, second, yearFirst) = (numbers[0].value, numbers[1].value, false)
        let apostrophe = separators[1] == UInt8(ascii: "'")
        switch (numbers[2].digits, apostrophe) {
        case (4, _): year = numbers[2].value
        case (_, true): year = 2000 + numbers[2].value
        default: year = TwoDigitYear.expand(numbers[2].value)
        }
    }

    func day(_ order: QIFDateOrder?) -> Day? {
        let (month, day) = yearFirst || order != .dayFirst ? (first, second) : (second, first)
        return try? Day(year: year, month: month, day: day)
    }
}

/// What the first pass learns of a file: how its dates and amounts are written.
struct QIFShape {
    /// Whether some date's first number, or its second, is above 12.
    var firstAbove12: (line: Int, text: String)?
    var secondAbove12: (line: Int, text: String)?
    /// A date that reads either way, for the message when nothing decides.
    var ambiguousDate: (line: Int, text: String)?
    /// An amount whose decimal sign is plainly `.` (`12.50`, `1,234.56`), or plainly `,`.
    var pointAmount: (line: Int, text: String)?
    var commaAmount: (line: Int, text: String)?
    /// An amount such as `1,234` or `1.234`, which reads either way.
    var ambiguousAmount: (line: Int, text: String)?

    mutating func note(date: QIFDate, line: Int, text: String) {
        guard !date.yearFirst else { return }
        if date.first > 12 { firstAbove12 = firstAbove12 ?? (line, text) }
        if date.second > 12 { secondAbove12 = secondAbove12 ?? (line, text) }
        if date.first <= 12, date.second <= 12, date.first != date.second { ambiguousDate = ambiguousDate ?? (line, text) }
    }

    mutating func note(amount bytes: [UInt8], line: Int) {
        // No amount is this long; the second pass refuses it.
        guard bytes.count <= 40 else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        let points = bytes.filter { $0 == UInt8(ascii: ".") }.count
        let commas = bytes.filter { $0 == UInt8(ascii: ",") }.count
        let lastSeparator = bytes.lastIndex { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }
        guard let lastSeparator else { return }
        let decimals = bytes.count - lastSeparator - 1
        if points > 0, commas > 0 {
            if bytes[lastSeparator] == UInt8(ascii: ".") { pointAmount = pointAmount ?? (line, text) } else { commaAmount = commaAmount ?? (line, text) }
        } else if points > 1 {
            commaAmount = commaAmount ?? (line, text)
        } else if commas > 1 {
            pointAmount = pointAmount ?? (line, text)
        } else if decimals == 3 {
            ambiguousAmount = ambiguousAmount ?? (line, text)
        } else if points == 1 {
            pointAmount = pointAmount ?? (line, text)
        } else {
            commaAmount = commaAmount ?? (line, text)
        }
    }

    /// The order the dates need: `nil` when none depends on it (all year-first, or day equals month).
    func dateOrder() throws(TallyError) -> QIFDateOrder? {
        switch (firstAbove12, secondAbove12) {
        case (let first?, let second?):
            throw .importFile(
                line: second.line,
                reason: "the dates mix orders: \(quoted(first.text)) on line \(first.line) is day-first, \(quoted(second.text)) is month-first")
        case (.some, nil): return .dayFirst
        case (nil, .some): return .monthFirst
        case (nil, nil):
            guard let example = ambiguousDate else { return nil }
            throw .importFile(
                line: nil,
                reason: "the file's dates, such as \(quoted(example.text)) on line \(example.line), read both month-first and day-first",
                hint: .dateOrder)
        }
    }

    /// The decimal sign: `.` unless only `,` is ever plainly one.
    func decimalSign() throws(TallyError) -> UInt8 {
        switch (pointAmount, commaAmount) {
        case (let point?, let comma?):
            throw .importFile(
                line: comma.line,
                reason: "the amounts mix decimal signs: \(quoted(point.text)) on line \(point.line) has '.', \(quoted(comma.text)) has ','")
        case (.some, nil): return UInt8(ascii: ".")
        case (nil, .some): return UInt8(ascii: ",")
        case (nil, nil):
            guard let example = ambiguousAmount else { return UInt8(ascii: ".") }
            // No hint: QIF's decimal sign is not a setting the reader takes.
            throw .importFile(
                line: example.line,
                reason: "the amount \(quoted(example.text)) reads as a whole number or with three decimals, and no other amount says which")
        }
    }
}

enum QIFAmount {
    /// A signed amount with `decimal` as its decimal sign and the other sign as grouping.
    static func parse(_ bytes: [UInt8], decimal: UInt8) -> Money? {
        let grouping = decimal == UInt8(ascii: ".") ? UInt8(ascii: ",") : UInt8(ascii: ".")
        let spaceless = bytes.filter { $0 != UInt8(ascii: " ") }
        // Groups of three digits after each grouping sign, so `1.5.0` is not read as 150.
        let integer = spaceless.prefix { $0 != decimal }
        let groups = integer.split(separator: grouping, omittingEmptySubsequences: false)
        guard groups.dropFirst().allSatisfy({ $0.count == 3 || ($0.count == 4 && $0.last == UInt8(ascii: "-")) }) else { return nil }
        var kept = spaceless.filter { $0 != grouping }
        // Some writers put the sign after a currency-free amount's digits: `12.50-`.
        if kept.last == UInt8(ascii: "-"), kept.first != UInt8(ascii: "-") {
            kept.removeLast()
            kept.insert(UInt8(ascii: "-"), at: 0)
        }
        guard kept.count <= 40 else { return nil }
        return StatementText.amount(String(decoding: kept, as: UTF8.self), decimal: decimal)
    }
}
