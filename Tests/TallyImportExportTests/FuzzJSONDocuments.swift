import Foundation
import TallyTestSupport
import Testing
import TallyCore
@testable import TallyImportExport

/// A JSON value written by hand, so that a document can hold what `JSONEncoder` never writes:
/// duplicate keys, numbers beyond any integer, lone surrogates and raw bytes that are not UTF-8.
indirect enum JSONValue {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case raw([UInt8])
    case array([JSONValue])
    case object([(String, JSONValue)])

    func serialized(using random: inout FuzzRandom) -> [UInt8] {
        var bytes: [UInt8] = []
        write(into: &bytes, using: &random)
        return bytes
    }

    private func write(into bytes: inout [UInt8], using random: inout FuzzRandom) {
        switch self {
        case .null: bytes += Array("null".utf8)
        case .bool(let value): bytes += Array(String(value).utf8)
        case .number(let text): bytes += Array(text.utf8)
        case .raw(let raw): bytes += raw
        case .string(let text): JSONValue.writeString(text, into: &bytes, escapingAll: random.chance(0.1))
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes += Array(random.chance(0.2) ? ", ".utf8 : ",".utf8) }
                value.write(into: &bytes, using: &random)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let pairs):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { bytes += Array(random.chance(0.2) ? ",\n  ".utf8 : ",".utf8) }
                JSONValue.writeString(key, into: &bytes, escapingAll: false)
                bytes.append(UInt8(ascii: ":"))
                value.write(into: &bytes, using: &random)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, into bytes: inout [UInt8], escapingAll: Bool) {
        bytes.append(UInt8(ascii: "\""))
        for unit in text.utf16 {
            switch unit {
            case 0x22: bytes += Array(#"\""#.utf8)
            case 0x5C: bytes += Array(#"\\"#.utf8)
            case 0..<0x20: bytes += Array(String(format: "\\u%04x", unit).utf8)
            default:
                if escapingAll || unit >= 0xD800 && unit < 0xE000 {
                    bytes += Array(String(format: "\\u%04x", unit).utf8)
                } else {
                    bytes += Array(String(decoding: [unit], as: UTF16.self).utf8)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

struct JSONDocument {
    var value: JSONValue
    var expenseCount: Int

    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", ":", ",", "\"", "\"version\"", "\"budgets\"", "\"expenses\"", "\"amount\"", "1", "-1", "0",
        "1e400", "-0", "1.5", "99999999999999999999", "null", "true", "false", " ", "\n", "\\", "\\u", "\\ud800",
        "\"12.50\"", "\"2024-02-30\"", "\"\"", "\u{0}", "💸", "\u{202E}", "[[[[[[[[", "]]]]",
    ].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xEF, 0xBB, 0xBF]]

    /// Values of every JSON type and of the wrong shape for each field.
    static let strangeValues: [JSONValue] = [
        .null, .bool(true), .number("0"), .number("-1"), .number("1.5"), .number("1e400"), .number("-1e400"),
        .number("99999999999999999999"), .number("9223372036854775807"), .number("-9223372036854775808"),
        .number("9223372036854775808"), .number("1E2"), .number("-0"), .number("1.0"), .string(""), .string(" "),
        .string("12.50"), .string("12.345"), .string("-5.00"), .string("1,000.00"), .string("1000000000.01"),
        .string("99999999999999999999.99"), .string("NaN"), .string("2024-02-30"), .string("2024-2-3"),
        .string("\u{0}"), .string("\n"), .string("\u{D7FF}\u{202E}"), .string(String(repeating: "é", count: 300)),
        .raw(Array("\"\u{FF}\"".utf8)), .raw([0x22, 0xFF, 0xFE, 0x22]), .raw([0x22, 0xC3, 0x22]),
        .raw(Array(#""\ud800""#.utf8)), .raw(Array(#""\udc00\ud800""#.utf8)), .raw(Array(#""\u00""#.utf8)),
        .array([]), .array([.string("a"), .number("1")]), .object([]), .object([("name", .string("x"))]),
    ]

    static func valid(using random: inout FuzzRandom) -> JSONDocument {
        var budgets: [JSONValue] = []
        var keys: Set<String> = []
        for name in CSVFile.budgets.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))
        where keys.insert(NameKey.make(name)).inserted {
            budgets.append(.object([
                ("name", .string(name)), ("limit", .string(Money(cents: Int64.random(in: 1...10_000_000, using: &random)).plainString)),
                ("period", .string("monthly")),
            ]))
        }
        var expenses: [JSONValue] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let amount = Money(cents: Int64.random(in: 1...(random.chance(0.1) ? 100_000_000_000 : 100_000), using: &random))
            let quantity = Int64.random(in: 1...(random.chance(0.2) ? 1_000 : 5), using: &random)
            let total = (try? amount.multiplied(by: quantity))?.plainString ?? "0.00"
            let day = random.day()
            var pairs: [(String, JSONValue)] = [
                ("id", random.chance(0.3) ? .null : .number(String(Int64.random(in: 1...Int64.max, using: &random)))),
                ("name", .string(random.pick(CSVFile.names))), ("amount", .string(amount.plainString)),
                ("quantity", .number(String(quantity))), ("total", .string(total)),
                ("date", .string(CSVFile.format(day, "yyyy-MM-dd"))), ("budget", .string(random.pick(CSVFile.budgets))),
                ("tags", .array(["weekly", "Gift", "ÉTÉ"].filter { _ in random.chance(0.3) }.map { .string($0) })),
            ]
            if random.chance(0.2) { pairs.removeFirst() }
            pairs.shuffle(using: &random)
            expenses.append(.object(pairs))
        }
        var top: [(String, JSONValue)] = [("version", .number("1")), ("budgets", .array(budgets)), ("expenses", .array(expenses))]
        if random.chance(0.1) { top.append(("exportedBy", .string("a newer Tally"))) }
        top.shuffle(using: &random)
        return JSONDocument(value: .object(top), expenseCount: expenses.count)
    }

    /// One to three edits of the tree: a key dropped, added or repeated, a value of the wrong
    /// type or size, an entry duplicated, a value buried under deep nesting.
    mutating func mutate(using random: inout FuzzRandom) {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            value = JSONDocument.mutate(value, depth: 0, using: &random)
        }
    }

    private static func mutate(_ value: JSONValue, depth: Int, using random: inout FuzzRandom) -> JSONValue {
        // Stop at this node, or go down into one of its children.
        let descend = depth < 4 && random.chance(0.7)
        switch value {
        case .object(var pairs) where !pairs.isEmpty:
            let index = Int.random(in: 0..<pairs.count, using: &random)
            if descend {
                pairs[index].1 = mutate(pairs[index].1, depth: depth + 1, using: &random)
                return .object(pairs)
            }
            switch Int.random(in: 0..<6, using: &random) {
            case 0: pairs.remove(at: index)
            case 1: pairs.append((random.pick(["version", "budgets", "expenses", "name", "amount", "id", "extra"]), random.pick(strangeValues)))
            case 2: pairs.append(pairs[index])
            case 3: pairs[index].1 = nested(pairs[index].1, using: &random)
            default: pairs[index].1 = random.pick(strangeValues)
            }
            return .object(pairs)
        case .array(var values) where !values.isEmpty:
            let index = Int.random(in: 0..<values.count, using: &random)
            if descend {
                values[index] = mutate(values[index], depth: depth + 1, using: &random)
                return .array(values)
            }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: values.remove(at: index)
            case 1: values.append(contentsOf: Array(repeating: values[index], count: Int.random(in: 1...3, using: &random)))
            case 2: values[index] = nested(values[index], using: &random)
            default: values[index] = random.pick(strangeValues)
            }
            return .array(values)
        default:
            return random.chance(0.1) ? nested(value, using: &random) : random.pick(strangeValues)
        }
    }

    private static func nested(_ value: JSONValue, using random: inout FuzzRandom) -> JSONValue {
        var result = value
        for _ in 0..<Int.random(in: 1...(random.chance(0.1) ? 5_000 : 20), using: &random) { result = .array([result]) }
        return result
    }
}
