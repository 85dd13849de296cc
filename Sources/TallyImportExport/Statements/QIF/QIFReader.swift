import TallyCore

/// Reads Quicken Interchange Format: `!Type:Bank`, `!Type:CCard` and `!Type:Cash` sections, each
/// a statement, of records ended by `^`. QIF names no account, currency or balance, and gives
/// its transactions no ids: the account is empty and every `bankID` `nil`.
///
/// QIF defines no date format and no decimal sign, so the file is read twice: once to learn
/// both from all its dates and amounts (keeping only what decides them), once to hand on the
/// entries.
public enum QIFReader: StatementReader {
    public static func read(_ input: ImportInput, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        try read(input, dateOrder: nil, encoding: .utf8, visit)
    }

    /// Reads the file with `dateOrder`, or the order its dates show when `nil`
    /// (``inferDateOrder(_:encoding:)``).
    public static func read(
        _ input: ImportInput, dateOrder: QIFDateOrder?, encoding: TextEncoding,
        _ visit: (StatementEvent) throws(TallyError) -> Void
    ) throws(TallyError) {
        let shape = try firstPass(input, encoding: encoding)
        var order = dateOrder
        if order == nil { order = try shape.dateOrder() }
        let decimal = try shape.decimalSign()
        var lines = try StatementLines(input, encoding: encoding)
        var sections = QIFSections()
        var index = 0
        var open = false
        var record = QIFRecord()
        while let line = try lines.next() {
            switch try sections.take(line) {
            case .header(let starts):
                guard record.isEmpty else { throw truncated(record) }
                if open { try visit(.end(StatementSummary())) }
                open = starts
                if starts {
                    index += 1
                    try visit(.begin(account: StatementAccount(), index: index, id: nil))
                }
            case .field(let code, let value):
                guard sections.inTransactions else { continue }
                try record.add(code, value, line: line.number)
            case .end:
                guard sections.inTransactions, !record.isEmpty else { continue }
                try visit(.entry(try record.entry(order: order, decimal: decimal, kind: sections.kind)))
                record = QIFRecord()
            case .skip:
                continue
            }
        }
        guard record.isEmpty else { throw truncated(record) }
        if open { try visit(.end(StatementSummary())) }
        guard index > 0 else { throw .importFile(line: nil, reason: "the file holds no !Type:Bank, !Type:CCard or !Type:Cash section") }
    }

    /// The date order the file's dates show, for the caller to say which it used; `nil` when no
    /// date depends on it. Throws when they show both orders, or neither while some date reads
    /// both ways (`03/04/2024`).
    public static func inferDateOrder(_ input: ImportInput, encoding: TextEncoding = .utf8) throws(TallyError) -> QIFDateOrder? {
        try firstPass(input, encoding: encoding).dateOrder()
    }

    /// Whether a file's first bytes look like QIF: a `!Type:`, `!Account` or `!Option` header.
    public static func looksLikeQIF(_ prefix: [UInt8]) -> Bool {
        StatementBytes.prefix(prefix, startsWithAnyOf: ["!Type:", "!Account", "!Option:", "!Clear:"])
    }

    /// Reads every record's syntax, dates and amounts, keeping only what decides the formats.
    private static func firstPass(_ input: ImportInput, encoding: TextEncoding) throws(TallyError) -> QIFShape {
        var lines = try StatementLines(input, encoding: encoding)
        var sections = QIFSections()
        var shape = QIFShape()
        while let line = try lines.next() {
            guard case .field(let code, let value) = try sections.take(line), sections.inTransactions else { continue }
            switch code {
            case UInt8(ascii: "D"):
                guard let date = QIFDate(value) else {
                    throw .importFile(line: line.number, reason: "the date \(quoted(String(decoding: value, as: UTF8.self))) is not a date QIF writes")
                }
                shape.note(date: date, line: line.number, text: String(decoding: value, as: UTF8.self))
            case UInt8(ascii: "T"), UInt8(ascii: "U"):
                shape.note(amount: value, line: line.number)
            default:
                break
            }
        }
        return shape
    }

    private static func truncated(_ record: QIFRecord) -> TallyError {
        .importFile(line: record.line, reason: "the record that starts here has no closing '^' (is the file cut short?)")
    }
}

/// Which kind of section the reader is in, from the `!` headers.
private struct QIFSections {
    enum Line {
        /// A `!` header; `starts` when it begins a section of transactions.
        case header(starts: Bool)
        case field(UInt8, [UInt8])
        case end
        case skip
    }

    private(set) var inTransactions = false
    /// The section's type as the file spells it, the last resort for a name.
    private(set) var kind = ""
    private var sawHeader = false

    mutating func take(_ line: StatementLine) throws(TallyError) -> Line {
        let bytes = line.bytes
        guard let code = bytes.first else { return .skip }
        if code == UInt8(ascii: "!") {
            let text = StatementBytes.trimmed(bytes)
            sawHeader = true
            let lower = text.lowercased()
            if lower.hasPrefix("!type:") {
                let type = text.dropFirst(6).trimmingSpaces
                switch type.lowercased() {
                case "bank", "ccard", "cash":
                    inTransactions = true
                    kind = type
                    return .header(starts: true)
                case "cat", "class":
                    // Category and class lists, as a full Quicken export has: nothing to import.
                    inTransactions = false
                    return .header(starts: false)
                default:
                    throw .importFile(
                        line: line.number,
                        reason: "the section \(quoted(text)) is not a bank, credit card or cash account: only !Type:Bank, !Type:CCard and !Type:Cash are read")
                }
            }
            if lower.hasPrefix("!account") {
                // An account list or the account the next section is for: QIF gives no number.
                inTransactions = false
                return .header(starts: false)
            }
            // `!Option:AutoSwitch`, `!Clear:AutoSwitch` switch Quicken's own modes.
            return .skip
        }
        if code == UInt8(ascii: "^") { return .end }
        if StatementBytes.isSpace(code), bytes.allSatisfy(StatementBytes.isSpace) { return .skip }
        guard sawHeader else {
            throw .importFile(line: line.number, reason: "a QIF record comes before any !Type: header")
        }
        return .field(code, Array(bytes.dropFirst()))
    }
}

/// The fields of one record, as they are read.
private struct QIFRecord {
    var line = 0
    private var date: ([UInt8], Int)?
    private var amount: ([UInt8], Int)?
    private var payee = ""
    private var memo = ""
    private var number = ""

    var isEmpty: Bool { line == 0 }

    mutating func add(_ code: UInt8, _ value: [UInt8], line: Int) throws(TallyError) {
        if self.line == 0 { self.line = line }
        guard value.count <= StatementLimits.maximumFieldBytes else {
            throw .importFile(line: line, reason: "the field is longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
        }
        switch code {
        case UInt8(ascii: "D"): date = (value, line)
        // `U` repeats `T` with more digits in newer Quicken; `T` wins when both are there.
        case UInt8(ascii: "T"): amount = (value, line)
        case UInt8(ascii: "U"): if amount == nil { amount = (value, line) }
        case UInt8(ascii: "P"): payee = StatementBytes.trimmed(value)
        case UInt8(ascii: "M"): memo = StatementBytes.trimmed(value)
        // A check number: not the bank's id of the transaction.
        case UInt8(ascii: "N"): number = StatementBytes.trimmed(value)
        // The category (`L`), split lines (`S`, `E`, `$`, `%`; the total is `T`), the cleared
        // status (`C`), the address (`A`) and the rest say nothing an import keeps.
        default: break
        }
    }

    func entry(order: QIFDateOrder?, decimal: UInt8, kind: String) throws(TallyError) -> StatementEntry {
        guard let (dateBytes, dateLine) = date else { throw .importFile(line: line, reason: "the record has no date (D)") }
        let dateText = String(decoding: dateBytes, as: UTF8.self)
        guard let day = QIFDate(dateBytes)?.day(order) else {
            throw .importFile(line: dateLine, reason: "the date \(quoted(dateText)) is not a day")
        }
        guard let (amountBytes, amountLine) = amount else { throw .importFile(line: line, reason: "the record has no amount (T)") }
        guard let money = QIFAmount.parse(amountBytes, decimal: decimal) else {
            throw .importFile(
                line: amountLine, reason: "the amount \(quoted(String(decoding: amountBytes, as: UTF8.self))) is not an amount, or is too large")
        }
        var name = payee
        var memo = memo
        if name.isEmpty {
            name = !memo.isEmpty ? memo : (!number.isEmpty ? "Check \(number)" : kind)
            if name == memo { memo = "" }
        }
        return StatementEntry(date: day, amount: money, bankID: nil, name: name, memo: memo, line: line)
    }
}
