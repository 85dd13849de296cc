import Foundation
import TallyCore

// The streaming reader and the records it hands out; its errors are in `CSVError.swift`, its
// UTF-8 check in `UTF8Check.swift`.

/// One CSV record, borrowed from the reader's buffer.
///
/// It is valid only until the reader's next call to ``CSVReader/next()``: fields are not copied,
/// so reading a million rows allocates only the strings a caller asks for.
public struct CSVRecord {
    /// The physical line on which the record starts, counting line breaks inside quoted fields.
    public let line: Int
    public let count: Int
    private let base: UnsafePointer<UInt8>
    private let fields: UnsafePointer<CSVReader.FieldSpan>

    init(line: Int, count: Int, base: UnsafePointer<UInt8>, fields: UnsafePointer<CSVReader.FieldSpan>) {
        self.line = line
        self.count = count
        self.base = base
        self.fields = fields
    }

    /// A line with nothing on it; RFC 4180 calls it a record with one empty field.
    public var isBlank: Bool { count == 1 && fields[0].start == fields[0].end }

    /// Whether the field has no characters (quoted `""` counts as empty too).
    public func isEmpty(at index: Int) -> Bool { fields[index].start == fields[index].end }

    /// The field's text with quotes removed and doubled quotes made single.
    public func string(at index: Int) -> String {
        withBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the field's unquoted bytes; no copy unless the field doubles quotes.
    public func withBytes<R, E: Error>(at index: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let span = fields[index]
        let raw = UnsafeRawBufferPointer(start: base + span.start, count: span.end - span.start)
        guard span.hasDoubledQuotes else { return try body(raw) }
        var unescaped: [UInt8] = []
        unescaped.reserveCapacity(raw.count)
        var skipNext = false
        for byte in raw {
            if skipNext {
                skipNext = false
                continue
            }
            unescaped.append(byte)
            if byte == CSVReader.quote { skipNext = true }
        }
        let result: Result<R, E> = unescaped.withUnsafeBytes { bytes in
            do throws(E) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Every field as a string; for tests and small files.
    public var strings: [String] { (0..<count).map(string(at:)) }
}

/// A streaming RFC 4180 reader that works on bytes.
///
/// It reads the source into one large buffer and hands out records that point into it, so memory
/// stays at one buffer (grown only for a record larger than the buffer) whatever the file size.
/// Quoted fields may hold delimiters, doubled quotes and CR, LF or CRLF; records end with LF or
/// CRLF, the last one with or without it; a UTF-8 byte order mark is skipped.
public final class CSVReader {
    public enum Delimiter: UInt8, Sendable {
        case comma = 0x2C
        case semicolon = 0x3B
        case tab = 0x09
    }

    struct FieldSpan {
        var start: Int
        var end: Int
        var hasDoubledQuotes: Bool
    }

    private enum Step {
        case record(end: Int, lineBreaks: Int)
        case needMore
        case endOfInput
    }

    static let quote = UInt8(ascii: "\"")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    public static let defaultBufferSize = 1 << 20
    public static let defaultMaximumRecordSize = 64 << 20

    private let read: (UnsafeMutableRawBufferPointer) throws(TallyError) -> Int
    private let delimiter: UInt8
    private let maximumRecordSize: Int
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The first byte not yet handed out: the start of the next record.
    private var start = 0
    private var end = 0
    private var reachedEnd = false
    private var started = false
    /// The physical line on which the record at `start` begins.
    private var line = 1
    /// Bytes that stop the scan of an unquoted field: the delimiter, quote, CR and LF.
    private let stops: UnsafeMutablePointer<Bool>
    private var fields: UnsafeMutablePointer<FieldSpan>
    private var fieldCapacity = 16
    private var fieldCount = 0

    /// - Parameters:
    ///   - bufferSize: bytes read at a time (at least 4); 1 MiB keeps system calls rare.
    ///   - maximumRecordSize: the largest single record the buffer may grow to hold.
    public init<Source: ByteSource>(
        source: Source, delimiter: Delimiter = .comma, bufferSize: Int = CSVReader.defaultBufferSize,
        maximumRecordSize: Int = CSVReader.defaultMaximumRecordSize
    ) {
        var source = source
        read = { (buffer: UnsafeMutableRawBufferPointer) throws(TallyError) -> Int in try source.read(into: buffer) }
        self.delimiter = delimiter.rawValue
        capacity = max(4, bufferSize)
        self.maximumRecordSize = max(capacity, maximumRecordSize)
        buffer = .allocate(capacity: capacity)
        fields = .allocate(capacity: fieldCapacity)
        stops = .allocate(capacity: 256)
        stops.initialize(repeating: false, count: 256)
        for byte in [delimiter.rawValue, CSVReader.quote, CSVReader.lineFeed, CSVReader.carriageReturn] {
            stops[Int(byte)] = true
        }
    }

    public convenience init(fileDescriptor: Int32, delimiter: Delimiter = .comma, bufferSize: Int = CSVReader.defaultBufferSize) {
        self.init(source: FileDescriptorSource(fileDescriptor: fileDescriptor), delimiter: delimiter, bufferSize: bufferSize)
    }

    deinit {
        buffer.deallocate()
        fields.deallocate()
        stops.deallocate()
    }

    /// The next record, or `nil` at the end of the input. The record is valid until the next call.
    public func next() throws(CSVError) -> CSVRecord? {
        if !started {
            started = true
            try refill()
            if end - start >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
        }
        while true {
            switch try parseRecord() {
            case .endOfInput:
                return nil
            case .needMore:
                try refill()
            case .record(let recordEnd, let lineBreaks):
                try validateUTF8(from: start, to: recordEnd)
                let record = CSVRecord(line: line, count: fieldCount, base: buffer, fields: fields)
                start = recordEnd
                line += lineBreaks
                return record
            }
        }
    }

    /// Reads every record; for tests and small inputs only, since it keeps them all.
    public func allRecords() throws(CSVError) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        while let record = try next() { records.append((record.line, record.strings)) }
        return records
    }

    // MARK: - Buffer

    /// Moves the unfinished record to the front and fills the rest, growing the buffer when one
    /// record does not fit. Fills completely so a long record is rescanned only O(log n) times.
    private func refill() throws(CSVError) {
        if start > 0 {
            (buffer + 0).update(from: buffer + start, count: end - start)
            end -= start
            start = 0
        }
        if end == capacity {
            guard capacity < maximumRecordSize else {
                throw .recordTooLarge(line: line, maximumBytes: maximumRecordSize)
            }
            let newCapacity = min(capacity * 2, maximumRecordSize)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = grown
            capacity = newCapacity
        }
        while end < capacity, !reachedEnd {
            let count: Int
            do {
                count = try read(UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
            } catch {
                throw .source(error)
            }
            if count == 0 { reachedEnd = true }
            end += count
        }
    }

    private func appendField(_ fieldStart: Int, _ fieldEnd: Int, _ hasDoubledQuotes: Bool) {
        if fieldCount == fieldCapacity {
            let grown = UnsafeMutablePointer<FieldSpan>.allocate(capacity: fieldCapacity * 2)
            grown.initialize(from: fields, count: fieldCount)
            fields.deallocate()
            fields = grown
            fieldCapacity *= 2
        }
        (fields + fieldCount).initialize(to: FieldSpan(start: fieldStart, end: fieldEnd, hasDoubledQuotes: hasDoubledQuotes))
        fieldCount += 1
    }

    // MARK: - Parsing

    /// Parses the record at `start` from scratch. It changes nothing but the field list, so when
    /// the buffer ends mid-record it can simply be run again after a refill.
    private func parseRecord() throws(CSVError) -> Step {
        let bytes = buffer
        let end = self.end
        let atEnd = reachedEnd
        let delimiter = self.delimiter
        let quote = CSVReader.quote
        let lineFeed = CSVReader.lineFeed
        let carriageReturn = CSVReader.carriageReturn
        var position = start
        var lineBreaks = 0
        fieldCount = 0
        while true {
            if position == end {
                guard atEnd else { return .needMore }
                if fieldCount == 0 { return .endOfInput }
                // The file ends right after a delimiter: the last field is empty.
                appendField(position, position, false)
                return .record(end: position, lineBreaks: lineBreaks)
            }
            var next: Int
            if bytes[position] == quote {
                let openingLine = line + lineBreaks
                var scan = position + 1
                var doubled = false
                while true {
                    while scan < end {
                        let byte = bytes[scan]
                        if byte == quote { break }
                        if byte == lineFeed {
                            lineBreaks += 1
                        } else if byte == carriageReturn {
                            // CRLF counts once, at its LF; a lone CR is a line break of its own.
                            if scan + 1 < end {
                                if bytes[scan + 1] != lineFeed { lineBreaks += 1 }
                            } else if !atEnd {
                                return .needMore
                            } else {
                                lineBreaks += 1
                            }
                        }
                        scan += 1
                    }
                    if scan == end {
                        guard atEnd else { return .needMore }
                        throw .unterminatedQuote(line: openingLine)
                    }
                    if scan + 1 == end, !atEnd { return .needMore }
                    if scan + 1 < end, bytes[scan + 1] == quote {
                        doubled = true
                        scan += 2
                        continue
                    }
                    break
                }
                appendField(position + 1, scan, doubled)
                next = scan + 1
                if next == end {
                    return .record(end: next, lineBreaks: lineBreaks)
                }
                let byte = bytes[next]
                if byte != delimiter, byte != lineFeed, byte != carriageReturn {
                    throw .textAfterClosingQuote(line: line + lineBreaks)
                }
            } else {
                var scan = position
                while scan < end, !stops[Int(bytes[scan])] { scan += 1 }
                if scan == end {
                    guard atEnd else { return .needMore }
                    appendField(position, scan, false)
                    return .record(end: scan, lineBreaks: lineBreaks)
                }
                if bytes[scan] == quote { throw .unexpectedQuote(line: line + lineBreaks) }
                appendField(position, scan, false)
                next = scan
            }
            // `next` is at a delimiter, LF or CR that ends the field.
            let byte = bytes[next]
            if byte == delimiter {
                position = next + 1
                continue
            }
            if byte == lineFeed {
                return .record(end: next + 1, lineBreaks: lineBreaks + 1)
            }
            if next + 1 == end {
                guard atEnd else { return .needMore }
                throw .bareCarriageReturn(line: line + lineBreaks)
            }
            guard bytes[next + 1] == lineFeed else { throw .bareCarriageReturn(line: line + lineBreaks) }
            return .record(end: next + 2, lineBreaks: lineBreaks + 1)
        }
    }

    // MARK: - UTF-8

    private func validateUTF8(from first: Int, to last: Int) throws(CSVError) {
        guard let bad = UTF8Check.firstInvalidByte(buffer + first, count: last - first) else { return }
        var lineBreaks = 0
        for index in first..<(first + bad) {
            let byte = buffer[index]
            if byte == CSVReader.lineFeed
                || (byte == CSVReader.carriageReturn && (index + 1 >= end || buffer[index + 1] != CSVReader.lineFeed))
            {
                lineBreaks += 1
            }
        }
        throw .invalidUTF8(line: line + lineBreaks)
    }
}
