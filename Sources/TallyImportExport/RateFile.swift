import TallyCore

/// Reads a file of exchange rates for `rates import`, in one of two layouts told apart by the header:
/// - the European Central Bank's reference rates (`eurofxref-hist.csv`, `eurofxref.csv`): a
///   `Date` column, then one column per currency holding its units per 1 EUR, `N/A` (or
///   nothing) where the ECB published none, and perhaps an empty trailing column;
/// - a plain `date,from,to,rate` file: one unit of `from` is worth `rate` units of `to`.
///
/// It streams: rows go to `save` in batches, so a file of any length is read in bounded memory;
/// the caller's one transaction keeps or drops them all. A bad line stops the read with
/// ``ForeignMoneyProblem/rateFile(line:_:)`` naming the line and the value.
public enum RateFile {
    static let batchSize = 50_000

    /// Reads every rate of `source`, handing them to `save` in batches; returns how many.
    @discardableResult
    public static func read(_ source: some ByteSource, save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) -> Int {
        let reader = CSVReader(source: source)
        var header: [String]?
        var layout: Layout?
        var batch: [DayRate] = []
        var count = 0
        do {
            while let record = try reader.next() {
                if record.isBlank { continue }
                let fields = record.strings.map(trimmed)
                guard let known = layout else {
                    (layout, header) = try Layout.detect(fields, line: record.line)
                    continue
                }
                try rows(of: fields, line: record.line, layout: known, header: header ?? [], into: &batch)
                if batch.count >= batchSize {
                    count += batch.count
                    try save(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch let error as CSVError {
            throw error.tallyError
        } catch let error as TallyError {
            throw error
        } catch {
            throw .importFile(line: nil, reason: "\(error)")
        }
        guard layout != nil else { throw .foreignMoney(.rateFile(line: 1, "the file is empty: expected a header")) }
        count += batch.count
        if !batch.isEmpty { try save(batch) }
        return count
    }

    enum Layout {
        /// `Date,USD,JPY,…`: each column a currency's units per 1 EUR.
        case ecb
        /// `date,from,to,rate`.
        case plain

        static func detect(_ fields: [String], line: Int) throws(TallyError) -> (Layout, [String]) {
            let lowered = fields.map { $0.lowercased() }
            if lowered == ["date", "from", "to", "rate"] { return (.plain, fields) }
            if lowered.first == "date", fields.count > 1 {
                var seen = Set<String>()
                for (index, code) in fields.enumerated().dropFirst() {
                    // The ECB's files end each line with a comma: an empty last column.
                    if code.isEmpty && index == fields.count - 1 { continue }
                    guard RateFile.isCode(code) else {
                        throw .foreignMoney(.rateFile(line: line, "column \(index + 1) \(quoted(code)) is not a currency code"))
                    }
                    guard seen.insert(code).inserted else { throw .foreignMoney(.rateFile(line: line, "currency \(code) has two columns")) }
                }
                return (.ecb, fields)
            }
            throw .foreignMoney(
                .rateFile(line: line, "unknown header \(quoted(fields.joined(separator: ","))): expected the ECB's 'Date,USD,JPY,…' or 'date,from,to,rate'"))
        }
    }

    private static func rows(of fields: [String], line: Int, layout: Layout, header: [String], into batch: inout [DayRate]) throws(TallyError) {
        let day = try Self.day(fields[0], line: line)
        switch layout {
        case .plain:
            guard fields.count == 4 else { throw .foreignMoney(.rateFile(line: line, "expected 4 fields, found \(fields.count)")) }
            let from = try code(fields[1], line: line)
            let to = try code(fields[2], line: line)
            guard from != to else { throw .foreignMoney(.rateFile(line: line, "a rate from \(from.code) to itself")) }
            batch.append(DayRate(day: day, from: from, to: to, rate: try rate(fields[3], line: line)))
        case .ecb:
            guard fields.count <= header.count else {
                throw .foreignMoney(.rateFile(line: line, "\(fields.count) fields, but the header names \(header.count) columns"))
            }
            let euro = Currency(storedCode: "EUR")
            for index in fields.indices.dropFirst() where !header[index].isEmpty {
                let value = fields[index]
                // The ECB's gaps: a currency not quoted that day (or no longer, or not yet).
                if value.isEmpty || value == "N/A" { continue }
                let to = Currency(storedCode: header[index])
                guard to != euro else { continue }
                batch.append(DayRate(day: day, from: euro, to: to, rate: try rate(value, line: line)))
            }
        }
    }

    private static func day(_ text: String, line: Int) throws(TallyError) -> Day {
        do { return try Day(parsing: text) } catch { throw .foreignMoney(.rateFile(line: line, "invalid date \(quoted(text)): use YYYY-MM-DD")) }
    }

    private static func code(_ text: String, line: Int) throws(TallyError) -> Currency {
        guard isCode(text) else { throw .foreignMoney(.rateFile(line: line, "\(quoted(text)) is not a currency code")) }
        return Currency(storedCode: text)
    }

    private static func rate(_ text: String, line: Int) throws(TallyError) -> ExchangeRate {
        do { return try ExchangeRate(parsing: text) } catch { throw .foreignMoney(.rateFile(line: line, "invalid rate \(quoted(text)): use a positive decimal with at most 12 decimals")) }
    }

    /// `NameKey.trimmed`, after a check that spares it the cells with nothing to trim (a
    /// history's every cell): it asks Unicode about each end of the text.
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        let plain = { (byte: UInt8) in byte > 0x20 && byte < 0x80 }
        return plain(first) && plain(last) ? text : NameKey.trimmed(text)
    }

    /// Three capital letters: the ECB's history names currencies ICU may no longer list (CYP, ROL).
    static func isCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }
}
