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

    /// How messages name the statement: "statement 2 (DE89…)".
    public var label: String {
        "statement \(index)" + (account.label.map { " (\($0))" } ?? "")
    }
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

/// A statement file read whole: every statement with its entries. The readers stream; the
/// entries are kept because what each becomes depends on the ledger, which is opened only once
/// the file has read without a problem (a bad file creates no database). A 100k-entry file holds
/// a few tens of megabytes here.
public struct StatementFile: Sendable {
    public var format: StatementFormat
    public var statements: [ReadStatement]
    /// The QIF date order used, inferred or given; `nil` for the other formats, and for a QIF
    /// file none of whose dates depends on it.
    public var dateOrder: QIFDateOrder?

    public var entryCount: Int { statements.reduce(0) { $0 + $1.entries.count } }

    /// Reads `input` as `format`.
    public static func read(_ input: ImportInput, as format: StatementFormat, options: StatementReadOptions = StatementReadOptions()) throws(TallyError) -> StatementFile {
        var statements: [ReadStatement] = []
        var open: ReadStatement?
        func visit(_ event: StatementEvent) throws(TallyError) {
            switch event {
            case .begin(let account, let index, let id):
                if let open { statements.append(open) }
                open = ReadStatement(account: account, index: index, id: id)
            case .entry(let entry):
                guard open != nil else { throw .importFile(line: entry.line, reason: "an entry outside any statement") }
                open?.entries.append(entry)
            case .end(let summary):
                guard var statement = open else { throw .importFile(line: nil, reason: "a statement ends that never began") }
                statement.summary = summary
                statements.append(statement)
                open = nil
            }
        }
        var dateOrder: QIFDateOrder?
        let handle = { (event: StatementEvent) throws(TallyError) in try visit(event) }
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
        if let open { throw .importFile(line: open.entries.last?.line, reason: "the file ends inside \(open.label)") }
        guard !statements.isEmpty else { throw .importFile(line: nil, reason: "the file holds no statement") }
        return StatementFile(format: format, statements: statements, dateOrder: dateOrder)
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
