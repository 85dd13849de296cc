import Foundation
import TallyCore
import Testing
@testable import TallyReports

/// `JSONValue` writes what `ListJSON.encode` (JSONEncoder) writes for the same document, byte
/// for byte: the month report's JSON must not change with the writer.
struct JSONValueTests {
    /// A `JSONValue` through JSONEncoder, member by member.
    private struct Encoded: Encodable {
        let value: JSONValue

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            switch value {
            case .string(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .int(let number):
                var container = encoder.singleValueContainer()
                try container.encode(number)
            case .bool(let flag):
                var container = encoder.singleValueContainer()
                try container.encode(flag)
            case .null:
                var container = encoder.singleValueContainer()
                try container.encodeNil()
            case .array(let values):
                var container = encoder.unkeyedContainer()
                for value in values { try container.encode(Encoded(value: value)) }
            case .object(let members):
                var container = encoder.container(keyedBy: Key.self)
                for (key, value) in members { try container.encode(Encoded(value: value), forKey: Key(stringValue: key)) }
            }
        }
    }

    /// Every control character, quotes, backslashes, slashes, DEL, line separators, accents both
    /// composed and not, emoji, right-to-left text, and the empty text.
    static let texts: [String] = [
        "", "plain", "Crème brûlée", "Cre\u{300}me", "\"quoted\"", "back\\slash", "a/b/c", "</script>", "tab\there", "line\nbreak",
        "\r\n", "\u{8}\u{C}", "\u{0}", "\u{1F}\u{7F}", "\u{2028}\u{2029}", "🍕 Pizza", "👩‍👩‍👧", "שלום", "-12.50", "null", "{}",
        String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }),
    ]

    private static func randomValue(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
        case 0: return .string(texts.randomElement(using: &generator) ?? "")
        case 1: return .int([0, 1, -1, Int64.max, Int64.min, Int64.random(in: -1_000_000...1_000_000, using: &generator)].randomElement(using: &generator) ?? 0)
        case 2: return .bool(Bool.random(using: &generator))
        case 3: return .null
        case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            let keys = ["a", "B", "Zb", "expenseCount", "earlierAverage", "e", "é", "_", "a b", "1", "", "\"k\"", "name", "names"]
            let chosen = keys.shuffled(using: &generator).prefix(Int.random(in: 0...6, using: &generator))
            return .object(chosen.map { ($0, randomValue(&generator, depth: depth + 1)) })
        }
    }

    @Test func writesWhatJSONEncoderWritesForRandomDocuments() throws {
        var generator = SeededGenerator(seed: 2026)
        for _ in 0..<500 {
            let value = Self.randomValue(&generator, depth: 0)
            #expect(value.text == (try ListJSON.encode(Encoded(value: value))))
        }
    }

    @Test(arguments: texts)
    func escapesEachTextAsJSONEncoderDoes(text: String) throws {
        let value = JSONValue.object([("text", .string(text)), ("list", .array([.string(text)])), (text, .null)])
        #expect(value.text == (try ListJSON.encode(Encoded(value: value))))
    }

    /// The month report's own document, through both writers.
    @Test func theReportsDocumentIsWrittenAsJSONEncoderWritesIt() throws {
        for store in [try Fixtures.store(), try Fixtures.periodStore()] {
            let report = try Fixtures.report(store)
            let document = JSONRenderer.document(report)
            #expect(try JSONRenderer().render(report) == ListJSON.encode(Encoded(value: document)) + "\n")
        }
    }
}
