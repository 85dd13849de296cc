import TallyTestSupport
import Testing
import TallyCore

/// The amount, date and month parsers against generated text: random strings from an alphabet
/// biased towards what almost parses, and mutations of valid values. Each parser either
/// accepts a value that round-trips or throws exactly the typed error an independent reference
/// predicts. Seeds are fixed, so a failure names an input that reproduces it.
@Suite(.ownThreads) struct ParserFuzzTests {
    static let inputsPerGenerator = 10_000

    @Test(arguments: [FuzzSource.random, .mutated])
    func amounts(source: FuzzSource) {
        var generator = SeededGenerator(seed: 0xA110_0001 &+ source.seedOffset)
        var failures = FailureLog()
        for _ in 0..<Self.inputsPerGenerator {
            let text = source == .random
                ? generator.string(from: FuzzAlphabet.amount, maxLength: 18)
                : generator.mutate(generator.validAmount(), alphabet: FuzzAlphabet.amount)
            let expected = ReferenceParser.amount(text)
            do {
                let money = try Money(parsing: text)
                failures.check(expected == .success(money.cents), "accepted \(text.debugDescription) as \(money), reference \(expected)")
                failures.check((try? Money(parsing: money.plainString)) == money, "\(money) does not round-trip")
            } catch {
                failures.check(expected == .failure(error), "rejected \(text.debugDescription) with \(error), reference \(expected)")
            }
        }
        failures.report()
    }

    @Test(arguments: [FuzzSource.random, .mutated])
    func dates(source: FuzzSource) {
        var generator = SeededGenerator(seed: 0xDA7E_0001 &+ source.seedOffset)
        var failures = FailureLog()
        for _ in 0..<Self.inputsPerGenerator {
            let text = source == .random
                ? generator.string(from: FuzzAlphabet.date, maxLength: 12)
                : generator.mutate(generator.plausibleDay(), alphabet: FuzzAlphabet.date)
            let valid = ReferenceParser.isDay(text)
            do {
                let day = try Day(parsing: text)
                failures.check(valid, "accepted \(text.debugDescription) as \(day)")
                failures.check(day.isoString == text, "\(text.debugDescription) is shown as \(day.isoString)")
                failures.check((try? Day(parsing: day.isoString)) == day, "\(day) does not round-trip")
            } catch {
                failures.check(!valid && error == .invalidDate(text), "rejected \(text.debugDescription) with \(error)")
            }
        }
        failures.report()
    }

    @Test(arguments: [FuzzSource.random, .mutated])
    func months(source: FuzzSource) {
        var generator = SeededGenerator(seed: 0x3047_0001 &+ source.seedOffset)
        var failures = FailureLog()
        for _ in 0..<Self.inputsPerGenerator {
            let text = source == .random
                ? generator.string(from: FuzzAlphabet.date, maxLength: 9)
                : generator.mutate(generator.plausibleMonth(), alphabet: FuzzAlphabet.date)
            let valid = ReferenceParser.isMonth(text)
            do {
                let month = try Month(parsing: text)
                failures.check(valid, "accepted \(text.debugDescription) as \(month)")
                failures.check(month.isoString == text, "\(text.debugDescription) is shown as \(month.isoString)")
                failures.check((try? Month(parsing: month.isoString)) == month, "\(month) does not round-trip")
            } catch {
                failures.check(!valid && error == .invalidMonth(text), "rejected \(text.debugDescription) with \(error)")
            }
        }
        failures.report()
    }

    /// Found by the fuzzer: leading zeros counted towards the 13-digit limit, and a long run of
    /// digits was called out of range before the rest of the text proved it malformed.
    @Test func leadingZerosDoNotMakeAnAmountLargeAndMalformedTextIsMalformed() throws {
        #expect(try Money(parsing: "00000000000000012.50") == Money(cents: 1250))
        #expect(throws: TallyError.invalidAmount("99999999999999999x")) { try Money(parsing: "99999999999999999x") }
        #expect(throws: TallyError.invalidAmount("99999999999999999.999")) { try Money(parsing: "99999999999999999.999") }
        #expect(throws: TallyError.amountOutOfRange("99999999999999999.99")) { try Money(parsing: "99999999999999999.99") }
    }
}

enum FuzzSource: String, CustomTestStringConvertible, Sendable {
    case random, mutated

    var seedOffset: UInt64 { self == .random ? 0 : 0x1_0000 }
    var testDescription: String { rawValue }
}

/// Characters that parsers meet in the wild, repeated to weigh them: ASCII digits most, then
/// separators and signs, then look-alikes (Arabic-Indic, Devanagari and full-width digits, a
/// combining accent, a non-breaking space), control characters and emoji.
enum FuzzAlphabet {
    static let digits: [String] = (0...9).map(String.init)
    static let lookAlikes = ["٣", "۷", "५", "３", "𝟙", "\u{301}", "\u{A0}", "\u{2212}", "\u{0}", "\n", "\t", "💸", "👩‍👩‍👧", "é", "‮"]
    static let amount = digits + digits + digits + [".", ".", "-", "+", "e", "E", ",", " ", "_", "'", "x"] + lookAlikes
    static let date = digits + digits + digits + ["-", "-", "-", "/", ".", ":", "T", " ", "+", "Z"] + lookAlikes
}

extension SeededGenerator {
    mutating func string(from alphabet: [String], maxLength: Int) -> String {
        let length = Int.random(in: 0...maxLength, using: &self)
        return (0..<length).map { _ in alphabet.randomElement(using: &self) ?? "" }.joined()
    }

    /// Amounts of every size, written the ways people write them.
    mutating func validAmount() -> String {
        let cents = Bool.random(using: &self)
            ? Int64.random(in: 0...100_000_000_000, using: &self)
            : Int64.random(in: 0...10_000, using: &self)
        let units = String(cents / 100)
        let fraction = cents % 100
        switch Int.random(in: 0..<4, using: &self) {
        case 0: return units
        case 1: return "\(units).\(fraction / 10)"
        case 2: return String(repeating: "0", count: Int.random(in: 1...12, using: &self)) + Money(cents: cents).plainString
        default: return Money(cents: cents).plainString
        }
    }

    /// Days near the edges: years at both ends, and the 29th to 31st of every month.
    mutating func plausibleDay() -> String {
        let year = [1, 4, 100, 400, 1582, 1900, 1970, 2000, 2024, 2026, 2100, 9999].randomElement(using: &self) ?? 2026
        let month = Int.random(in: 0...13, using: &self)
        let day = Bool.random(using: &self) ? Int.random(in: 28...32, using: &self) : Int.random(in: 0...31, using: &self)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    mutating func plausibleMonth() -> String {
        let year = Bool.random(using: &self) ? Int.random(in: 0...9999, using: &self) : Int.random(in: 1990...2030, using: &self)
        return "\(pad(year, 4))-\(pad(Int.random(in: 0...13, using: &self), 2))"
    }

    /// One to three edits: insert, delete, replace, swap, duplicate, truncate or pad with spaces.
    mutating func mutate(_ text: String, alphabet: [String]) -> String {
        var characters = text.map(String.init)
        for _ in 0..<Int.random(in: 0...3, using: &self) {
            let index = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &self)
            let piece = alphabet.randomElement(using: &self) ?? ""
            switch Int.random(in: 0..<7, using: &self) {
            case 0: characters.insert(piece, at: index)
            case 1: if !characters.isEmpty { characters.remove(at: index) }
            case 2: if !characters.isEmpty { characters[index] = piece }
            case 3: if index + 1 < characters.count { characters.swapAt(index, index + 1) }
            case 4: characters.insert(contentsOf: characters[index...].prefix(3), at: index)
            case 5: characters = Array(characters.prefix(index))
            default: characters = [" "] + characters + [Bool.random(using: &self) ? " " : "\n"]
            }
        }
        return characters.joined()
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }
}

/// Straightforward re-statements of the formats, written apart from the parsers they judge.
enum ReferenceParser {
    static func amount(_ text: String) -> Result<Int64, TallyError> {
        let scalars = Array(text.unicodeScalars)
        let parts = scalars.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.allSatisfy({ $0.allSatisfy(isASCIIDigit) }),
            parts.count == 1 || (1...2).contains(parts[1].count)
        else { return .failure(.invalidAmount(text)) }
        let units = parts[0].drop { $0 == "0" }
        guard units.count <= 10 else { return .failure(.amountOutOfRange(text)) }
        var cents = (Int64(String(String.UnicodeScalarView(units))) ?? 0) * 100
        if parts.count == 2 {
            let fraction = Int64(String(String.UnicodeScalarView(parts[1]))) ?? 0
            cents += parts[1].count == 1 ? fraction * 10 : fraction
        }
        return cents <= 100_000_000_000 ? .success(cents) : .failure(.amountOutOfRange(text))
    }

    static func isDay(_ text: String) -> Bool {
        let fields = numericFields(text, lengths: [4, 2, 2])
        guard let fields, (1...9999).contains(fields[0]), (1...12).contains(fields[1]) else { return false }
        let (year, month) = (fields[0], fields[1])
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(fields[2])
    }

    static func isMonth(_ text: String) -> Bool {
        guard let fields = numericFields(text, lengths: [4, 2]) else { return false }
        return (1...9999).contains(fields[0]) && (1...12).contains(fields[1])
    }

    /// ASCII digit fields of exactly these lengths joined by '-', or nil.
    private static func numericFields(_ text: String, lengths: [Int]) -> [Int]? {
        let parts = Array(text.unicodeScalars).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == lengths.count else { return nil }
        var values: [Int] = []
        for (part, length) in zip(parts, lengths) {
            guard part.count == length, part.allSatisfy(isASCIIDigit) else { return nil }
            values.append(Int(String(String.UnicodeScalarView(part))) ?? -1)
        }
        return values
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
