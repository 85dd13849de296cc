import TallyCore

/// Reads SWIFT MT940 customer statements, with or without the SWIFT block wrappers
/// (`{1:…}{2:…}{4:` … `-}`): each message is one statement. Fields are `:TAG:` at the start of
/// a line; any other line continues the field before it.
public enum MT940Reader: StatementReader {
    public static func read(_ input: ImportInput, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        try read(input, encoding: .utf8, visit)
    }

    public static func read(
        _ input: ImportInput, encoding: TextEncoding, _ visit: (StatementEvent) throws(TallyError) -> Void
    ) throws(TallyError) {
        var lines = try StatementLines(input, encoding: encoding)
        var parser = MT940Parser()
        // The parser queues its events, so it need not hold on to `visit`; a line yields few.
        while let line = try lines.next() {
            try parser.take(line)
            for event in parser.events { try visit(event) }
            parser.events.removeAll(keepingCapacity: true)
        }
        try parser.finish(lastLine: lines.lineNumber)
        for event in parser.events { try visit(event) }
    }

    /// Whether a file's first bytes look like MT940: a SWIFT header block or a `:20:` field
    /// first (some exports start with a `:940:` line or blank lines).
    public static func looksLikeMT940(_ prefix: [UInt8]) -> Bool {
        StatementBytes.prefix(prefix, startsWithAnyOf: ["{1:", ":20:", ":940:"])
    }
}

/// The reader's state across lines: the field being gathered, the statement being read.
private struct MT940Parser {
    var events: [StatementEvent] = []

    /// The field whose lines are being gathered: its tag, its lines, its first line's number.
    private var field: (tag: String, lines: [[UInt8]], line: Int, bytes: Int)?
    private var statement: Statement?
    /// Where an open SWIFT header (`{1:` without `{4:` yet) or text block (`{4:`) started.
    private var header: Int?
    private var block: Int?
    private var index = 0

    private struct Statement {
        var id: String?
        var line: Int
        var account: StatementAccount?
        var begun = false
        var opening: StatementBalance?
        var closing: StatementBalance?
        /// A `:61:` waiting for the `:86:` that may follow it.
        var pending: (line: MT940Line, details: MT940Details)?
    }

    mutating func take(_ line: StatementLine) throws(TallyError) {
        var bytes = line.bytes[...]
        if bytes.first == UInt8(ascii: "{") {
            // A SWIFT header: what follows `{4:` on the line, if anything, is the first field.
            try endField()
            // Until `{4:`, the message is in its headers; `{5:` is the trailer after `-}`.
            if !bytes.starts(with: Array("{5:".utf8)) { header = header ?? line.number }
            guard let text = MT940Text.find(Array("{4:".utf8), in: Array(bytes)) else { return }
            try endMessage(line: line.number)
            header = nil
            block = line.number
            bytes = bytes.dropFirst(text + 3)
            if bytes.allSatisfy(StatementBytes.isSpace) { return }
        }
        if bytes.starts(with: Array("-}".utf8)) || (bytes.first == UInt8(ascii: "-") && bytes.dropFirst().allSatisfy(StatementBytes.isSpace)) {
            try endField()
            try endMessage(line: line.number)
            block = nil
            return
        }
        if let (tag, valueStart) = MT940Parser.tag(bytes) {
            try endField()
            let value = Array(bytes[valueStart...])
            field = (tag, [value], line.number, value.count)
            return
        }
        guard var current = field else {
            // Lines before the first field (a `:940:`-less header, blank lines) carry nothing.
            return
        }
        // Released first, so the append below does not copy the lines; a blank line counts
        // its line break, so a field of empty lines is bounded too.
        field = nil
        current.bytes += bytes.count + 1
        guard current.bytes <= StatementLimits.maximumFieldBytes else {
            throw MT940Text.error(current.line, "the :\(current.tag): field is longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
        }
        current.lines.append(Array(bytes))
        field = current
    }

    mutating func finish(lastLine: Int) throws(TallyError) {
        try endField()
        try endMessage(line: lastLine)
        // A wrapped message ends with `-}`: without it the file may have lost the end of its
        // closing balance's amount, which would still read as an amount.
        if let start = header ?? block {
            throw MT940Text.error(lastLine, "the SWIFT message that starts on line \(start) has no end '-}' (is the file cut short?)")
        }
        guard index > 0 else { throw .importFile(line: nil, reason: "the file holds no MT940 statement (no :20: field)") }
    }

    /// `:20:` or `:60F:` at the start of `bytes`: the tag and where its value starts.
    private static func tag(_ bytes: ArraySlice<UInt8>) -> (String, Int)? {
        guard bytes.count >= 4, bytes.first == UInt8(ascii: ":") else { return nil }
        let start = bytes.startIndex + 1
        var end = start
        while end < bytes.endIndex, end - start < 4, StatementBytes.isDigit(bytes[end]) || StatementBytes.isUpper(bytes[end]) { end += 1 }
        guard end - start >= 2, end < bytes.endIndex, bytes[end] == UInt8(ascii: ":") else { return nil }
        return (String(decoding: bytes[start..<end], as: UTF8.self), end + 1)
    }

    private mutating func endField() throws(TallyError) {
        guard let field else { return }
        self.field = nil
        try handle(tag: field.tag, lines: field.lines, line: field.line)
    }

    private mutating func handle(tag: String, lines: [[UInt8]], line: Int) throws(TallyError) {
        let value = MT940Text.join(lines, separator: 0x0A)
        if tag == "20" {
            try endMessage(line: line)
            index += 1
            let id = StatementBytes.trimmed(MT940Text.firstLine(value))
            statement = Statement(id: id.isEmpty ? nil : String(id.prefix(64)), line: line)
            return
        }
        guard var current = statement else {
            // A `:940:` header line and such carry nothing; a statement's own fields need its `:20:`.
            guard ["25", "60F", "60M", "61", "62F", "62M"].contains(tag) else { return }
            throw MT940Text.error(line, "the :\(tag): field comes before the statement's :20: reference")
        }
        defer { statement = current }
        switch tag {
        case "25":
            current.account = MT940Account.parse(value)
        case "60F", "60M":
            guard current.account != nil else { throw MT940Text.error(line, "the opening balance comes before the :25: account") }
            guard !current.begun else { throw MT940Text.error(line, "a second opening balance") }
            let balance = try MT940Balance(value, line: line, field: "opening")
            current.opening = balance.balance
            current.account?.currency = balance.currency
            begin(&current)
        case "61":
            guard current.account != nil else { throw MT940Text.error(line, "the statement line :61: comes before the :25: account") }
            guard current.closing == nil else { throw MT940Text.error(line, "a statement line after the closing balance") }
            try flush(&current)
            begin(&current)
            current.pending = (try MT940Line(value, line: line), MT940Details())
        case "86":
            // Details of the statement itself, after its last entry, are left out.
            if current.pending != nil { current.pending?.details = MT940Details(lines) }
        case "62F", "62M":
            guard current.account != nil else { throw MT940Text.error(line, "the closing balance comes before the :25: account") }
            guard current.closing == nil else { throw MT940Text.error(line, "a second closing balance") }
            try flush(&current)
            begin(&current)
            current.closing = try MT940Balance(value, line: line, field: "closing").balance
        default:
            // :21:, :28C:, :64:, :65:, :NS: and others say nothing an import keeps.
            break
        }
    }

    private mutating func begin(_ current: inout Statement) {
        guard !current.begun, let account = current.account else { return }
        current.begun = true
        events.append(.begin(account: account, index: index, id: current.id))
    }

    private mutating func flush(_ current: inout Statement) throws(TallyError) {
        guard let (entry, details) = current.pending else { return }
        current.pending = nil
        var name = details.name
        var memo = details.remittance
        if name.isEmpty {
            name = memo.isEmpty ? (details.postingText.isEmpty ? entry.type : details.postingText) : memo
            if name == memo { memo = "" }
        }
        guard name.utf8.count <= StatementLimits.maximumFieldBytes, memo.utf8.count <= StatementLimits.maximumFieldBytes else {
            throw MT940Text.error(entry.line, "the entry's details are longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
        }
        events.append(.entry(StatementEntry(
            date: entry.day, amount: entry.amount, bankID: entry.bankID, name: name, memo: memo,
            counterparty: details.counterparty, line: entry.line)))
    }

    /// The message ends: its statement must have come to its closing balance.
    private mutating func endMessage(line: Int) throws(TallyError) {
        guard var current = statement else { return }
        statement = nil
        guard let closing = current.closing else {
            throw MT940Text.error(
                line, "the statement that starts on line \(current.line) ends without its closing balance :62F: (is the file cut short?)")
        }
        try flush(&current)
        var period: DayInterval?
        if let opening = current.opening, opening.day <= closing.day { period = DayInterval(first: opening.day, last: closing.day) }
        events.append(.end(StatementSummary(period: period, opening: current.opening, closing: closing)))
    }
}
