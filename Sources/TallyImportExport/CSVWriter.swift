import TallyCore

/// Writes RFC 4180 records: fields are quoted only when they hold a delimiter, a quote, CR or LF
/// (or start or end with a space, which spreadsheets would otherwise trim), quotes are doubled,
/// and every record ends with LF.
public final class CSVWriter {
    private let sink: any ByteSink
    private let delimiter: UInt8
    private var line: [UInt8] = []

    public init(sink: any ByteSink, delimiter: CSVReader.Delimiter = .comma) {
        self.sink = sink
        self.delimiter = delimiter.rawValue
        line.reserveCapacity(256)
    }

    public func writeRecord(_ fields: [String]) throws(TallyError) {
        line.removeAll(keepingCapacity: true)
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(delimiter) }
            CSVWriter.append(field, delimiter: delimiter, to: &line)
        }
        line.append(CSVReader.lineFeed)
        try sink.write(line)
    }

    public func flush() throws(TallyError) {
        try sink.flush()
    }

    static func needsQuotes(_ utf8: String.UTF8View, delimiter: UInt8) -> Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        if first == UInt8(ascii: " ") || last == UInt8(ascii: " ") { return true }
        return utf8.contains { $0 == delimiter || $0 == CSVReader.quote || $0 == CSVReader.lineFeed || $0 == CSVReader.carriageReturn }
    }

    static func append(_ field: String, delimiter: UInt8, to line: inout [UInt8]) {
        let utf8 = field.utf8
        guard needsQuotes(utf8, delimiter: delimiter) else {
            line.append(contentsOf: utf8)
            return
        }
        line.append(CSVReader.quote)
        for byte in utf8 {
            line.append(byte)
            if byte == CSVReader.quote { line.append(CSVReader.quote) }
        }
        line.append(CSVReader.quote)
    }
}
