import TallyCore

/// A JSON document written byte for byte as `ListJSON.encode` (JSONEncoder, pretty-printed,
/// sorted keys, slashes unescaped) writes it, for the month report.
///
/// Why not JSONEncoder there: the first encoding of each `Encodable` type makes Swift's runtime
/// instantiate its containers and look up its conformances, scanning every conformance record
/// in the binary, which costs the month report more than computing the report from its cache.
/// `JSONValueTests` holds this writer to JSONEncoder's bytes on random documents and hostile texts.
public enum JSONValue: Sendable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Written with its keys sorted by their UTF-8 bytes, as `.sortedKeys` sorts them.
    case object([(String, JSONValue)])

    /// `value`, or `null` when it is `nil`.
    public static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }

    /// The document as JSONEncoder's `.prettyPrinted` writes it, without a final line break.
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16_384)
        write(into: &bytes, indent: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(into bytes: inout [UInt8], indent: Int) {
        switch self {
        case .string(let text): JSONText.append(text, to: &bytes)
        case .int(let value): bytes.append(contentsOf: String(value).utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            bytes.append(UInt8(ascii: "\n"))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(contentsOf: ",\n".utf8) }
                Self.indent(indent + 2, into: &bytes)
                value.write(into: &bytes, indent: indent + 2)
            }
            bytes.append(UInt8(ascii: "\n"))
            Self.indent(indent, into: &bytes)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            bytes.append(UInt8(ascii: "\n"))
            let sorted = members.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { bytes.append(contentsOf: ",\n".utf8) }
                Self.indent(indent + 2, into: &bytes)
                JSONText.append(member.0, to: &bytes)
                bytes.append(contentsOf: " : ".utf8)
                member.1.write(into: &bytes, indent: indent + 2)
            }
            bytes.append(UInt8(ascii: "\n"))
            Self.indent(indent, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func indent(_ count: Int, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }
}
