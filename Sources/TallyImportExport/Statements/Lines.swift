import TallyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The line reader the line-based statement formats (MT940, QIF) share: bounded, so a file
// without line breaks is refused after one line's worth of bytes, not read into memory whole.

/// One line of a statement file, without its line break.
struct StatementLine {
    /// 1-based.
    let number: Int
    let bytes: [UInt8]

    /// The bytes as text; the reader has checked they are UTF-8.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Reads LF or CRLF lines from a byte source, checking UTF-8 (after turning a single-byte
/// encoding into it) and refusing a line longer than ``StatementLimits/maximumLineBytes``.
struct StatementLines {
    private var source: any ByteSource
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start.
    private var head = 0
    /// How far `buffer` has been searched for a line feed without finding one.
    private var searched = 0
    private var finished = false
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private(set) var lineNumber = 0
    private let maximumLineBytes: Int

    init(_ input: ImportInput, encoding: TextEncoding, maximumLineBytes: Int = StatementLimits.maximumLineBytes) throws(TallyError) {
        let source = try input.open()
        self.source = encoding == .utf8 ? source : TranscodingSource(AnyByteSource(source), encoding: encoding)
        self.maximumLineBytes = maximumLineBytes
    }

    /// The next line, or `nil` at the end of the input. A last line without a line break is a line.
    mutating func next() throws(TallyError) -> StatementLine? {
        while true {
            if let feed = lineFeed(from: head + searched) { return try take(upTo: feed, skip: 1) }
            searched = buffer.count - head
            // A carriage return may still be cut from its line feed: one byte of slack.
            if searched > maximumLineBytes + 1 { throw tooLong() }
            if finished {
                guard head < buffer.count else { return nil }
                return try take(upTo: buffer.count, skip: 0)
            }
            try fill()
        }
    }

    /// The index of the first line feed at or after `start`; `memchr`, as a debug build's
    /// generic search reads about a megabyte a second.
    private func lineFeed(from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, start < bytes.count,
                let found = memchr(base + start, 0x0A, bytes.count - start)
            else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    private mutating func take(upTo end: Int, skip: Int) throws(TallyError) -> StatementLine {
        var last = end
        if last > head, buffer[last - 1] == 0x0D { last -= 1 }
        lineNumber += 1
        guard last - head <= maximumLineBytes else { throw tooLong() }
        var bytes = Array(buffer[head..<last])
        head = end + skip
        searched = 0
        if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let invalid = bytes.withUnsafeBufferPointer { pointer -> Int? in
            guard let base = pointer.baseAddress else { return nil }
            return UTF8Check.firstInvalidByte(base, count: pointer.count)
        }
        if let invalid {
            throw .importFile(
                line: lineNumber, reason: "byte \(invalid + 1) of the line is not UTF-8", hint: .encoding)
        }
        return StatementLine(number: lineNumber, bytes: bytes)
    }

    private mutating func fill() throws(TallyError) {
        if head > 0, head >= buffer.count / 2 {
            buffer.removeFirst(head)
            head = 0
        }
        let count = try source.read(into: &chunk, chunk.indices)
        if count == 0 { finished = true } else { buffer.append(contentsOf: chunk[0..<count]) }
    }

    private func tooLong() -> TallyError {
        .importFile(line: lineNumber + 1, reason: "the line is longer than \(maximumLineBytes / 1024) KiB")
    }
}

/// An existential source as a concrete one, for ``TranscodingSource``'s generic parameter.
struct AnyByteSource: ByteSource {
    var base: any ByteSource

    init(_ base: any ByteSource) { self.base = base }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int {
        try base.read(into: buffer)
    }
}

/// Byte helpers the line-based readers share.
enum StatementBytes {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    /// The value of an all-digit run, `nil` when empty, holding another byte, or too long to matter.
    static func number(_ bytes: some Collection<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// Text without leading and trailing spaces, tabs and carriage returns.
    static func trimmed(_ bytes: some Collection<UInt8>) -> String {
        let array = Array(bytes)
        guard let first = array.firstIndex(where: { !isSpace($0) }), let last = array.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: array[first...last], as: UTF8.self)
    }

    /// Whether the prefix of a file, past a byte order mark and blank space, starts with one of
    /// `starts` (ASCII, compared without case).
    static func prefix(_ prefix: [UInt8], startsWithAnyOf starts: [String]) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { isSpace($0) || $0 == 0x0A }
        let upper = bytes.prefix(16).map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        return starts.contains { upper.starts(with: Array($0.uppercased().utf8)) }
    }
}

/// The two-digit years statement files write: 00–69 are 2000–2069, 70–99 are 1970–1999.
enum TwoDigitYear {
    static func expand(_ year: Int) -> Int { year < 70 ? 2000 + year : 1900 + year }
}

extension Day {
    /// Days since 1970-01-01, for choosing the nearest of several candidate days.
    var daysSinceEpoch: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
