// camt/ofx detection: `StatementFormat.detect(prefix:)`, written with the import integration,
// asks `CamtReader.looksLikeCamt` and `OFXReader.looksLikeOFX`, which look through this.

/// What the format checks look at: a file's first 4 KiB as text, without a byte order mark or
/// the whitespace before its first character.
enum XMLSniff {
    static let window = 4096

    /// The start of the file as text, from its first non-blank character; `nil` when empty.
    static func text(_ prefix: [UInt8]) -> String? {
        var bytes = prefix.prefix(window)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let start = bytes.firstIndex(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return nil }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// The start of the file when it is XML (its first character is `<`).
    static func xmlText(_ prefix: [UInt8]) -> String? {
        guard let text = text(prefix), text.hasPrefix("<") else { return nil }
        return text
    }
}
