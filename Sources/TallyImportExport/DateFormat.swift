import TallyCore

/// A strict date layout such as `dd.MM.yyyy`, parsed byte by byte.
///
/// DateFormatter is slow and depends on locale and time zone; an expense date is a civil day,
/// so a pattern of `yyyy`, `MM`/`M`, `dd`/`d` and literal separators is all an import needs.
/// `MM` and `dd` demand two digits, `M` and `d` accept one or two, `yyyy` demands four.
public struct DateFormat: Hashable, Sendable, CustomStringConvertible {
    enum Token: Hashable, Sendable {
        case year
        case month(fixedWidth: Bool)
        case day(fixedWidth: Bool)
        case literal(UInt8)
    }

    public static let iso = DateFormat(pattern: "yyyy-MM-dd", tokens: [.year, .literal(0x2D), .month(fixedWidth: true), .literal(0x2D), .day(fixedWidth: true)])

    public let pattern: String
    let tokens: [Token]

    private init(pattern: String, tokens: [Token]) {
        self.pattern = pattern
        self.tokens = tokens
    }

    public var description: String { pattern }

    /// Reads a pattern with exactly one year, one month and one day field.
    public init(pattern: String) throws(TallyError) {
        func invalid(_ reason: String) -> TallyError {
            .invalidImportOption(.dateFormat, value: pattern, reason: reason)
        }
        let bytes = Array(pattern.utf8)
        var tokens: [Token] = []
        var index = 0
        var counts = (year: 0, month: 0, day: 0)
        while index < bytes.count {
            let letter = bytes[index]
            var run = 1
            while index + run < bytes.count, bytes[index + run] == letter { run += 1 }
            switch (letter, run) {
            case (UInt8(ascii: "y"), 4):
                tokens.append(.year)
                counts.year += 1
            case (UInt8(ascii: "M"), 1...2):
                tokens.append(.month(fixedWidth: run == 2))
                counts.month += 1
            case (UInt8(ascii: "d"), 1...2):
                tokens.append(.day(fixedWidth: run == 2))
                counts.day += 1
            case (UInt8(ascii: "y"), _), (UInt8(ascii: "M"), _), (UInt8(ascii: "d"), _):
                throw invalid("use yyyy, MM or M, dd or d")
            case (UInt8(ascii: "0")...UInt8(ascii: "9"), _), (UInt8(ascii: "A")...UInt8(ascii: "Z"), _),
                (UInt8(ascii: "a")...UInt8(ascii: "z"), _), (0x80..., _):
                throw invalid("only yyyy, MM, M, dd, d and separators such as '-', '.', '/' are supported")
            default:
                for _ in 0..<run { tokens.append(.literal(letter)) }
            }
            index += run
        }
        guard counts == (1, 1, 1) else { throw invalid("the format needs exactly one yyyy, one month and one day field") }
        for (current, next) in zip(tokens, tokens.dropFirst()) {
            // Two adjacent variable-width fields (`Md`) cannot be told apart.
            if case .literal = current { continue }
            if case .literal = next { continue }
            if current.isVariableWidth || next.isVariableWidth {
                throw invalid("a one-letter field (M or d) needs a separator next to it")
            }
        }
        self.init(pattern: pattern, tokens: tokens)
    }

    /// The day the bytes name, or `nil` when they do not follow the pattern or name no real day.
    public func day(from bytes: UnsafeRawBufferPointer) -> Day? {
        var index = 0
        var year = 0
        var month = 0
        var day = 0
        for token in tokens {
            switch token {
            case .literal(let byte):
                guard index < bytes.count, bytes[index] == byte else { return nil }
                index += 1
            case .year:
                guard let value = DateFormat.digits(bytes, &index, minimum: 4, maximum: 4) else { return nil }
                year = value
            case .month(let fixedWidth):
                guard let value = DateFormat.digits(bytes, &index, minimum: fixedWidth ? 2 : 1, maximum: 2) else { return nil }
                month = value
            case .day(let fixedWidth):
                guard let value = DateFormat.digits(bytes, &index, minimum: fixedWidth ? 2 : 1, maximum: 2) else { return nil }
                day = value
            }
        }
        guard index == bytes.count else { return nil }
        return try? Day(year: year, month: month, day: day)
    }

    public func day(from text: String) -> Day? {
        var text = text
        return text.withUTF8 { day(from: UnsafeRawBufferPointer($0)) }
    }

    private static func digits(_ bytes: UnsafeRawBufferPointer, _ index: inout Int, minimum: Int, maximum: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximum, index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            count += 1
        }
        return count >= minimum ? value : nil
    }
}

extension DateFormat.Token {
    var isVariableWidth: Bool {
        switch self {
        case .month(let fixedWidth), .day(let fixedWidth): !fixedWidth
        case .year, .literal: false
        }
    }
}
