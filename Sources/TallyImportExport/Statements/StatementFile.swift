import TallyCore

/// One statement of a file as read: its account, entries in file order and summary.
public struct ReadStatement: Hashable, Sendable {
    public var account: StatementAccount
    /// The statement's place in the file, from 1.
    public var index: Int
    /// The statement's own id, when the file gives one.
    public var id: String?
    public var entries: [StatementEntry] = []
    public var summary = StatementSummary()

}

/// How to read a statement file: the settings the formats leave open.
public struct StatementReadOptions: Hashable, Sendable {
    /// The text encoding of a line-based file (MT940, QIF); XML and OFX files say their own.
    public var encoding: TextEncoding = .utf8
    /// QIF's date order; `nil` infers it from the file's dates.
    public var qifDateOrder: QIFDateOrder?

    public init(encoding: TextEncoding = .utf8, qifDateOrder: QIFDateOrder? = nil) {
        self.encoding = encoding
        self.qifDateOrder = qifDateOrder
    }
}

/// A statement file read whole: every statement with its entries. An import does not keep them
/// (``stream(_:as:options:_:)`` hands each on as it is read); tests and the planner's
/// ``StatementPlanner/plan(_:)`` do.
public struct StatementFile: Sendable {
    public var format: StatementFormat
    public var statements: [ReadStatement]
    /// The QIF date order used, inferred or given; `nil` for the other formats, and for a QIF
    /// file none of whose dates depends on it.
    public var dateOrder: QIFDateOrder?

    public var entryCount: Int { statements.reduce(0) { $0 + $1.entries.count } }

    /// Reads `input` as `format` whole, for tests and tools that want every entry at hand.
    public static func read(_ input: ImportInput, as format: StatementFormat, options: StatementReadOptions = StatementReadOptions()) throws(TallyError) -> StatementFile {
        var statements: [ReadStatement] = []
        let dateOrder = try stream(input, as: format, options: options) { (event: StatementEvent) throws(TallyError) in
            switch event {
            case .begin(let account, let index, let id): statements.append(ReadStatement(account: account, index: index, id: id))
            case .entry(let entry): statements[statements.count - 1].entries.append(entry)
            case .end(let summary): statements[statements.count - 1].summary = summary
            }
        }
        return StatementFile(format: format, statements: statements, dateOrder: dateOrder)
    }

    /// Reads `input` as `format`, handing each event on as it comes, checked: entries only
    /// inside a statement, every statement ended, at least one. Returns the QIF date order used.
    @discardableResult
    public static func stream(
        _ input: ImportInput, as format: StatementFormat, options: StatementReadOptions = StatementReadOptions(),
        _ visit: (StatementEvent) throws(TallyError) -> Void
    ) throws(TallyError) -> QIFDateOrder? {
        var open = false
        var count = 0
        var lastLine: Int?
        let handle = { (event: StatementEvent) throws(TallyError) in
            switch event {
            case .begin:
                guard !open else { throw .importFile(line: lastLine, reason: "a statement begins inside another") }
                open = true
                count += 1
            case .entry(let entry):
                guard open else { throw .importFile(line: entry.line, reason: "an entry outside any statement") }
                lastLine = entry.line
            case .end:
                guard open else { throw .importFile(line: lastLine, reason: "a statement ends that never began") }
                open = false
            }
            try visit(event)
        }
        var dateOrder: QIFDateOrder?
        switch format {
        case .ofx: try OFXReader.read(input, handle)
        case .camt053: try CamtReader.read(input, handle)
        case .mt940: try MT940Reader.read(input, encoding: options.encoding, handle)
        case .qif:
            if let given = options.qifDateOrder {
                dateOrder = given
            } else {
                dateOrder = try QIFReader.inferDateOrder(input, encoding: options.encoding)
            }
            try QIFReader.read(input, dateOrder: dateOrder, encoding: options.encoding, handle)
        }
        if open { throw .importFile(line: lastLine, reason: "the file ends inside statement \(count)") }
        guard count > 0 else { throw .importFile(line: nil, reason: "the file holds no statement") }
        return dateOrder
    }
}

extension StatementFormat {
    /// The format a file's content shows, from its first bytes, whatever its extension says;
    /// `nil` when it shows none of them.
    public static func detect(prefix: [UInt8]) -> StatementFormat? {
        if OFXReader.looksLikeOFX(prefix) { return .ofx }
        if CamtReader.looksLikeCamt(prefix) { return .camt053 }
        if QIFReader.looksLikeQIF(prefix) { return .qif }
        if MT940Reader.looksLikeMT940(prefix) { return .mt940 }
        return nil
    }

    /// The format a file's extension names, if any.
    public init?(extension ext: String) {
        switch ext.lowercased() {
        case "ofx", "qfx": self = .ofx
        case "camt", "camt053": self = .camt053
        case "sta", "mt940", "940": self = .mt940
        case "qif": self = .qif
        default: return nil
        }
    }
}
