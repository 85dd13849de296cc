import Foundation

/// How names are compared: ignoring case, diacritics and character width, so "Café",
/// "cafe" and "CAFE" are one budget while "Fast Food" and "Food" stay two.
public enum NameKey {
    /// The key is composed (NFC) after folding: a name typed with combining characters and the
    /// same name typed precomposed must get one key, and SQLite compares keys byte by byte.
    public static func make(_ name: String) -> String {
        // Folding printable ASCII only lowers its case; Foundation's folding bridges to NSString.
        if let folded = PrintableASCII.trimmed(name, lowercased: true), folded.utf8.count == name.utf8.count {
            return folded
        }
        return name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    /// The key of a name as a user typed it to find something: surrounding white space does not count.
    public static func lookup(_ name: String) -> String {
        if let folded = PrintableASCII.trimmed(name, lowercased: true) { return folded }
        return make(trimmed(name))
    }

    /// `text` without the Unicode white space (`White_Space`) around it: the one trimming every
    /// name, tag and lookup gets. Foundation's `.whitespacesAndNewlines` also takes a zero-width
    /// space (U+200B), which names keep, so a lookup trimmed that way found `Café` for `Café` +
    /// U+200B, a budget of its own.
    public static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Trims surrounding white space and checks what every name must satisfy.
    /// At most `maximumLength` characters and `maximumScalars` Unicode scalars (ten per
    /// character unless given): the schema's CHECKs count scalars (SQLite's `length`), and a
    /// character may hold many (an emoji family, a letter with marks). A name Swift accepts
    /// must be one they accept, since bulk writes run without them (`SchemaChecksTests`).
    static func validated(
        _ name: String, kind: TallyError.NameKind, maximumLength: Int, maximumScalars: Int? = nil
    ) throws(TallyError) -> String {
        if let trimmed = PrintableASCII.trimmed(name) {
            // One byte is one character here, and printable ASCII holds no control character.
            guard !trimmed.isEmpty else { throw .emptyName(kind) }
            guard trimmed.utf8.count <= maximumLength else { throw .nameTooLong(kind, trimmed, maximum: maximumLength) }
            return trimmed
        }
        // Trimming was most of this function; most names have nothing to trim.
        let scalars = name.unicodeScalars
        let untrimmed = scalars.first.map { !$0.properties.isWhitespace } == true && scalars.last.map { !$0.properties.isWhitespace } == true
        let trimmed = untrimmed ? name : Self.trimmed(name)
        guard !trimmed.isEmpty else { throw .emptyName(kind) }
        // A character takes at least one byte, so only long texts need their characters counted.
        guard trimmed.utf8.count <= maximumLength
            || (trimmed.count <= maximumLength && trimmed.unicodeScalars.count <= maximumScalars ?? maximumLength * 10)
        else {
            throw .nameTooLong(kind, trimmed, maximum: maximumLength)
        }
        guard !UTF8ControlScan.containsControlOrLineBreak(trimmed) else {
            throw .nameHasControlCharacters(kind, trimmed)
        }
        return trimmed
    }
}

extension Unicode.Scalar {
    var isControlOrLineBreak: Bool {
        properties.generalCategory == .control || self == "\u{2028}" || self == "\u{2029}"
    }
}

/// Finds what `Unicode.Scalar.isControlOrLineBreak` finds, on UTF-8 bytes instead of decoded
/// scalars and their category lookups: C0 controls and DEL are single bytes, C1 controls
/// (U+0080–U+009F) are `C2 80`…`C2 9F`, and the line and paragraph separators `E2 80 A8/A9`.
enum UTF8ControlScan {
    static func containsControlOrLineBreak(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F { return true }
                if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
                if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                    bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                {
                    return true
                }
                index += 1
            }
            return false
        }
    }
}

/// A fast path for the common case of names and tags made of printable ASCII (space to `~`),
/// where Foundation's trimming and Unicode category lookups cost most of an import's time.
/// Any other text returns `nil` and takes the Unicode path, so the answers are the same.
enum PrintableASCII {
    /// `text` without surrounding spaces, lowercased if asked; `nil` unless every byte is printable ASCII.
    static func trimmed(_ text: String, lowercased: Bool = false) -> String? {
        var storage = text
        return storage.withUTF8 { bytes -> String? in
            var hasUppercase = false
            for byte in bytes {
                guard byte >= 0x20, byte <= 0x7E else { return nil }
                if byte >= 0x41, byte <= 0x5A { hasUppercase = true }
            }
            var first = 0
            var end = bytes.count
            while first < end, bytes[first] == 0x20 { first += 1 }
            while end > first, bytes[end - 1] == 0x20 { end -= 1 }
            let lowering = lowercased && hasUppercase
            if first == 0, end == bytes.count, !lowering { return text }
            let slice = UnsafeBufferPointer(rebasing: bytes[first..<end])
            guard lowering else { return String(decoding: slice, as: UTF8.self) }
            return String(unsafeUninitializedCapacity: slice.count) { buffer in
                for (index, byte) in slice.enumerated() {
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                }
                return slice.count
            }
        }
    }
}
