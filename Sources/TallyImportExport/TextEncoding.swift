import TallyCore

/// The character encodings bank exports come in. UTF-8 is read as it is; the single-byte ones
/// are turned into UTF-8 on the way to the CSV reader (`TranscodingSource`), so the reader,
/// the models and the store only ever see UTF-8. The fingerprint is of the file's own bytes.
public enum TextEncoding: String, CaseIterable, Hashable, Sendable {
    case utf8 = "utf-8"
    case windows1252 = "windows-1252"
    case latin1

    /// `utf-8`, `windows-1252` or `latin1`, and their usual other names.
    public init(name: String) throws(TallyError) {
        switch name.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "windows-1252", "cp1252", "windows1252": self = .windows1252
        case "latin1", "latin-1", "iso-8859-1", "iso8859-1": self = .latin1
        default: throw .invalidImportOption(.encoding, value: name, reason: "use utf-8, windows-1252 or latin1")
        }
    }

    /// The code points of bytes 0x80 to 0x9F; from 0xA0 on both encodings are Latin-1.
    /// Windows-1252's five unassigned bytes are read as the C1 controls of the same value, as
    /// Windows does (a name holding one is then refused as a control character).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152, 0x8D, 0x17D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178,
    ]

    /// The UTF-8 bytes of each byte 0x80…0xFF in this single-byte encoding.
    var highBytes: [[UInt8]] {
        (0x80...0xFF).map { byte -> [UInt8] in
            let scalar = self == .windows1252 && byte < 0xA0 ? Self.windows1252High[byte - 0x80] : UInt32(byte)
            return Array(String(Character(Unicode.Scalar(scalar) ?? "?")).utf8)
        }
    }
}

/// Turns a single-byte encoding into UTF-8 as it is read: ASCII passes, each other byte becomes
/// its two or three UTF-8 bytes.
final class TranscodingSource<Base: ByteSource>: ByteSource {
    private var base: Base
    private let high: [[UInt8]]
    private var pending: [UInt8] = []
    private var raw = [UInt8](repeating: 0, count: 1 << 16)

    init(_ base: Base, encoding: TextEncoding) {
        self.base = base
        high = encoding.highBytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        if pending.isEmpty {
            // At most a third of the buffer: each byte may become three.
            let wanted = max(1, min(raw.count, buffer.count / 3))
            let count = try base.read(into: &raw, 0..<wanted)
            if count == 0 { return 0 }
            pending.reserveCapacity(count * 3)
            for byte in raw[0..<count] {
                if byte < 0x80 { pending.append(byte) } else { pending.append(contentsOf: high[Int(byte) - 0x80]) }
            }
        }
        let count = min(buffer.count, pending.count)
        pending.withUnsafeBytes { bytes in buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count])) }
        pending.removeFirst(count)
        return count
    }
}
