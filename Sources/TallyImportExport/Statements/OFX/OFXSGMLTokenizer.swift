import TallyCore

// OFX 1.x is SGML against a DTD no general SGML library is at hand for (libxml2 reads XML only,
// and its HTML parser would guess at what it does not know), so this tokenizer is written by
// hand. It reads bytes as they come, holding at most one header line
// (``StatementLimits/maximumLineBytes``) or one value (``StatementLimits/maximumFieldBytes``), so
// a file on a single line streams as well as one element a line.

/// Reads OFX 1.x SGML: the `KEY:VALUE` header, then tags whose values (leaf elements) need no
/// closing tag while aggregates must be closed, in order, before the file ends.
struct OFXSGMLTokenizer {
    private var line = 1
    private var decoder = OFXTextDecoder.utf8
    private var structure = OFXSGMLStructure()

    static func read(_ source: inout some ByteSource, _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        var tokenizer = OFXSGMLTokenizer()
        try tokenizer.run(&source, emit)
    }

    private enum State { case header, text, tag }

    private mutating func run(_ source: inout some ByteSource, _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var state = State.header
        var pending: [UInt8] = []
        var pendingLine = 1
        var headerLines: [[UInt8]] = []
        while true {
            let count = try source.read(into: &buffer, buffer.indices)
            if count == 0 { break }
            for byte in buffer[0..<count] {
                switch state {
                case .header:
                    if byte == UInt8(ascii: "<") {
                        // No header value holds '<': the body starts, with or without a line break.
                        headerLines.append(pending)
                        try readHeader(headerLines)
                        state = .tag
                        pending = []
                        pendingLine = line
                    } else if byte == 0x0A {
                        headerLines.append(pending)
                        pending = []
                    } else {
                        pending.append(byte)
                        guard pending.count <= StatementLimits.maximumLineBytes else {
                            throw .importFile(line: line, reason: "a header line is longer than \(StatementLimits.maximumLineBytes / 1024) KiB")
                        }
                    }
                case .text:
                    if byte == UInt8(ascii: "<") {
                        if !pending.allSatisfy(Self.isSpace) {
                            try structure.text(try decoder.decode(pending, line: pendingLine), line: pendingLine, emit)
                        }
                        state = .tag
                        pending = []
                        pendingLine = line
                    } else {
                        if pending.isEmpty { pendingLine = line }
                        pending.append(byte)
                        guard pending.count <= StatementLimits.maximumFieldBytes else {
                            throw .importFile(line: pendingLine, reason: "a value is longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
                        }
                    }
                case .tag:
                    if byte == UInt8(ascii: ">") {
                        try tag(pending, emit)
                        state = .text
                        pending = []
                    } else {
                        pending.append(byte)
                        guard pending.count <= 256, byte != UInt8(ascii: "<") else {
                            throw .importFile(line: pendingLine, reason: "a tag is not closed with '>'")
                        }
                    }
                }
                if byte == 0x0A { line += 1 }
            }
        }
        switch state {
        case .header: throw .importFile(line: nil, reason: "the OFX file has no <OFX> element")
        case .tag: throw .importFile(line: pendingLine, reason: "the OFX file ends inside a tag: it is truncated")
        case .text:
            if !pending.allSatisfy(Self.isSpace) {
                try structure.text(try decoder.decode(pending, line: pendingLine), line: pendingLine, emit)
            }
            try structure.finish(line: line, emit)
        }
    }

    /// `<NAME>` or `</NAME>`, without the angle brackets.
    private mutating func tag(_ bytes: [UInt8], _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        let closing = bytes.first == UInt8(ascii: "/")
        let name = closing ? bytes.dropFirst() : bytes[...]
        guard !name.isEmpty, name.allSatisfy({ Self.isNameByte($0) }) else {
            throw .importFile(line: line, reason: "\(quoted("<" + String(decoding: bytes, as: UTF8.self) + ">")) is not an OFX tag")
        }
        let text = String(decoding: name, as: UTF8.self)
        // Tags are capitals almost always; uppercasing every one would cost the reader a tenth.
        let tag = name.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) ? text.uppercased() : text
        if closing {
            try structure.close(tag, line: line, emit)
        } else {
            try structure.open(tag, line: line, emit)
        }
    }

    /// The header's `KEY:VALUE` lines: `OFXHEADER:100` and `DATA:OFXSGML` must be there;
    /// `CHARSET` chooses how values are decoded.
    private mutating func readHeader(_ lines: [[UInt8]]) throws(TallyError) {
        // Fields are KEY:VALUE, one a line as the specification has it; some banks put them all
        // on one line or a space after the colon, which costs nothing to accept.
        var words = lines.joined(separator: [0x20]).split(whereSeparator: Self.isSpace).map { String(decoding: $0, as: UTF8.self) }[...]
        var fields: [String: String] = [:]
        while let word = words.popFirst() {
            guard let colon = word.firstIndex(of: ":") else {
                throw .importFile(line: nil, reason: "\(quoted(word)) in the OFX header is not KEY:VALUE")
            }
            var value = String(word[word.index(after: colon)...])
            if value.isEmpty, let next = words.first, !next.contains(":") {
                value = next
                words = words.dropFirst()
            }
            fields[word[..<colon].uppercased()] = value.uppercased()
        }
        if lines.isEmpty || fields.isEmpty {
            return  // A bare `<OFX>` document, as some banks write it: UTF-8.
        }
        guard fields["OFXHEADER"] == "100" else {
            throw .importFile(line: 1, reason: "the OFX header has no OFXHEADER:100 (OFX 2 files start with <?xml)")
        }
        guard fields["DATA"] == "OFXSGML" else {
            throw .importFile(line: nil, reason: "the OFX header's DATA is \(quoted(fields["DATA"] ?? "")), not OFXSGML")
        }
        switch fields["CHARSET"] ?? "NONE" {
        case "1252", "WINDOWS-1252", "CP1252": decoder = .singleByte(TextEncoding.windows1252.highBytes)
        case "ISO-8859-1", "8859-1", "LATIN1": decoder = .singleByte(TextEncoding.latin1.highBytes)
        case "NONE", "UTF-8", "UTF8", "CSUNICODE", "65001": decoder = .utf8
        case let other: throw .importFile(line: nil, reason: "the OFX header's CHARSET \(quoted(other)) is not one Tally reads")
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_")
    }
}

/// How an OFX 1.x file's values become text.
enum OFXTextDecoder {
    /// UTF-8 (which ASCII is), refused when it is not valid.
    case utf8
    /// A single-byte encoding: the UTF-8 bytes of each byte from 0x80 on.
    case singleByte([[UInt8]])

    func decode(_ bytes: [UInt8], line: Int) throws(TallyError) -> String {
        let text: String
        switch self {
        case .utf8:
            guard let valid = String(validating: bytes, as: UTF8.self) else {
                throw .importFile(line: line, reason: "a value is not valid UTF-8 (the OFX header names no single-byte CHARSET)")
            }
            text = valid
        case .singleByte(let high):
            var utf8: [UInt8] = []
            utf8.reserveCapacity(bytes.count)
            for byte in bytes {
                if byte < 0x80 { utf8.append(byte) } else { utf8.append(contentsOf: high[Int(byte) - 0x80]) }
            }
            text = String(decoding: utf8, as: UTF8.self)
        }
        // On bytes: String.contains with a String goes through Foundation, at a quarter of the reader's time.
        return text.utf8.contains(UInt8(ascii: "&")) ? Self.unescape(text) : text
    }

    /// SGML's character entities as OFX uses them: `&amp;`, `&lt;`, `&gt;` (and `&quot;`, `&apos;`, `&nbsp;`).
    static func unescape(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[amp...]
            let known: [(String, String)] = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&nbsp;", " ")]
            if let known = known.first(where: { after.hasPrefix($0.0) }) {
                result += known.1
                rest = after.dropFirst(known.0.count)
            } else {
                result += "&"
                rest = after.dropFirst()
            }
        }
        return result + rest
    }
}
