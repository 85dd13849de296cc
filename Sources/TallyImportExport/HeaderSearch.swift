import TallyCore

// A bank's export often starts with lines about the account (number, period, owner) and ends
// with a balance or totals. The header is found, and a trailing block of summary lines left out,
// here; the rows between are read exactly as in a file without them.

/// The lines of a CSV file that are neither its header nor its rows.
public struct CSVFrame: Hashable, Sendable {
    /// Lines above the header: found, or given with a number of lines to skip.
    public var preambleLines = 0
    /// Summary lines after the last row (``TrailingLines``).
    public var footerLines = 0

    public init(preambleLines: Int = 0, footerLines: Int = 0) {
        self.preambleLines = preambleLines
        self.footerLines = footerLines
    }
}

/// Finds the header: the first line that holds every mapped column.
public enum HeaderSearch {
    /// How far the search looks, so a file without its header costs little whatever its size.
    public static let maximumPreambleLines = 50

    /// A number of lines to skip, checked as a profile or flag gives it.
    public static func validatedSkip(_ skip: Int) throws(TallyError) -> Int {
        guard (0...ImportProfile.maximumSkip).contains(skip) else {
            throw .invalidImportOption(.skip, value: String(skip), reason: "use a whole number from 0 to \(ImportProfile.maximumSkip)")
        }
        return skip
    }

    /// The header record and how many lines came before it. With `skip` the header is the line
    /// after exactly that many; without, the first of ``maximumPreambleLines`` lines holding
    /// every mapped column. When none does, the line holding most of them (the first line when
    /// none holds any) fails as a header would, naming the column it lacks.
    static func header(_ reader: CSVReader, columns: ColumnMapping, skip: Int?) throws(CSVError) -> (CSVRecord, Int) {
        if let skip {
            for _ in 0..<skip {
                guard try reader.next() != nil else {
                    throw .source(.importFile(line: nil, reason: "the file ends within the \(skip) lines to skip above the header"))
                }
            }
            guard let header = try reader.next() else {
                throw .source(.importFile(line: nil, reason: skip == 0 ? emptyFile : "the file has no header after the \(skip) lines skipped"))
            }
            return (header, skip)
        }
        var closest: (line: Int, names: [String], found: Int)?
        for index in 0..<maximumPreambleLines {
            guard let record = try reader.next() else { break }
            let names = record.strings
            let found = columns.foundCount(in: names)
            if found == columns.needed.count { return (record, index) }
            if found > closest?.found ?? -1 { closest = (record.line, names, found) }
        }
        guard let closest else { throw .source(.importFile(line: nil, reason: emptyFile)) }
        do {
            _ = try columns.resolve(header: closest.names, line: closest.line)
        } catch {
            throw .source(error)
        }
        // Not reached: a line holding every column is the header.
        throw .source(.importFile(line: closest.line, reason: "no header among the first \(maximumPreambleLines) lines"))
    }

    static let emptyFile = "the file is empty; it needs at least a header line"
}

extension ColumnMapping {
    /// The columns a header must hold: every one of `--columns`, or the required default ones.
    var needed: [String] {
        ImportField.mappable.compactMap { field in
            isExplicit || ColumnMapping.required.contains(field) ? columns[field] : nil
        }
    }

    /// How many of ``needed`` the line's cells name, ignoring case and surrounding spaces.
    func foundCount(in names: [String]) -> Int {
        let keys = Set(names.map(ColumnMapping.key))
        return needed.count(where: { keys.contains(ColumnMapping.key($0)) })
    }
}

/// Summary lines at the end of a file, held back until the file shows whether they end it.
///
/// A line is a summary line when its date cell holds no date and nothing that could be a
/// mistyped one: the line is too short to have the cell, or the cell is empty or does not start
/// with a digit (every date format starts with one). `Kontostand;;;;;-1.234,56;EUR` is one; a
/// row cut short (`15.01.2026;Stadtw`) or with a mistyped date (`3I.01.2026;…`) is not. Such
/// lines in a trailing run, with blank lines among them, are left out and counted; once a row
/// follows, or the run grows past ``maximumLines``, they are read as any row is (and fail or are
/// skipped exactly as they would be without this).
struct TrailingLines {
    static let maximumLines = 50

    /// Each held line as the mapper read it, and whether it is blank.
    private var held: [(outcome: Result<RowOutcome, TallyError>, blank: Bool)] = []
    private var summaryCount = 0

    var isEmpty: Bool { held.isEmpty }
    var isFull: Bool { summaryCount >= TrailingLines.maximumLines }

    /// The first held line that fails, if any.
    var firstFailure: TallyError? {
        for line in held { if case .failure(let error) = line.outcome { return error } }
        return nil
    }

    mutating func hold(_ outcome: Result<RowOutcome, TallyError>, blank: Bool = false) {
        held.append((outcome, blank))
        if !blank { summaryCount += 1 }
    }

    /// A row follows: the held lines are rows after all, in file order; the first error is thrown.
    mutating func release(_ body: (RowOutcome) throws(TallyError) -> Void) throws(TallyError) {
        let lines = held
        held.removeAll()
        summaryCount = 0
        for line in lines { try body(try line.outcome.get()) }
    }

    /// The file ended: blank lines are skipped as ever, the others counted as summary lines.
    mutating func end(_ body: (RowOutcome) throws(TallyError) -> Void) throws(TallyError) -> Int {
        let count = summaryCount
        for line in held where line.blank { try body(try line.outcome.get()) }
        held.removeAll()
        summaryCount = 0
        return count
    }
}

extension CSVRowMapper {
    /// Whether `record` may be a summary line (``TrailingLines``): one look at its date cell.
    func mayBeSummaryLine(_ record: CSVRecord) -> Bool {
        guard record.count > dateColumn else { return true }
        return record.withBytes(at: dateColumn) { cell in
            guard let first = CSVRowMapper.trimmed(cell).first else { return true }
            return !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        }
    }
}

extension CSVReader.Delimiter {
    /// The delimiter of the file at `path`, from its first 64 KB: the one under which the
    /// earliest line holds every mapped column (the header line's most used one first, on a tie),
    /// else the one the first line uses most (``detect(header:)``), as for a file without a
    /// preamble. With `skip` (`--skip N`), the header is line N + 1, and its most used one decides.
    public static func detect(path: String, encoding: TextEncoding, columns: ColumnMapping, skip: Int? = nil) throws(TallyError) -> CSVReader.Delimiter {
        let source = try FileSource(path: path)
        let prefix = encoding == .utf8 ? try readPrefix(source) : try readPrefix(TranscodingSource(source, encoding: encoding))
        if let skip {
            // Preamble lines are a bank's account details, never quoted across lines.
            var start = prefix.startIndex
            for _ in 0..<skip {
                guard let end = prefix[start...].firstIndex(of: 0x0A) else { break }
                start = end + 1
            }
            return detect(header: prefix[start...])
        }
        let firstLine = detect(header: prefix)
        var best: (delimiter: CSVReader.Delimiter, index: Int)?
        for delimiter in [firstLine] + [.comma, .semicolon, .tab].filter({ $0 != firstLine }) {
            let reader = CSVReader(source: MemorySource(prefix), delimiter: delimiter)
            // A line this delimiter cannot read ends its search: another may read it.
            for index in 0..<min(HeaderSearch.maximumPreambleLines, best?.index ?? .max) {
                guard let record = try? reader.next() else { break }
                if columns.foundCount(in: record.strings) == columns.needed.count {
                    best = (delimiter, index)
                    break
                }
            }
        }
        return best?.delimiter ?? firstLine
    }

    private static func readPrefix(_ source: some ByteSource) throws(TallyError) -> [UInt8] {
        var source = source
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var filled = 0
        while filled < buffer.count {
            let count = try source.read(into: &buffer, filled..<buffer.count)
            if count == 0 { break }
            filled += count
        }
        return Array(buffer[0..<filled])
    }
}
