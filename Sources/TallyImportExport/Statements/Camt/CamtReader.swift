import TallyCore

/// Reads ISO 20022 camt.053 bank-to-customer statements, `camt.053.001.02` to `.08`, as a
/// stream: each `Stmt` is a statement, each `Ntry` one entry, or one per `TxDtls` when a
/// booking groups several transactions.
public enum CamtReader: StatementReader {
    static let namespacePrefix = "urn:iso:std:iso:20022:tech:xsd:camt.053.001."
    static let versions = 2...8

    public static func read(_ input: ImportInput, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        let xml = try XMLPullReader(input)
        var parser = CamtParser()
        while let event = try xml.next() {
            // An amount's currency is its attribute: read while the reader stands on the element.
            if case .start("Amt", _, _) = event { parser.amountCurrency = try xml.attribute("Ccy") }
            try parser.handle(event, visit)
        }
        guard parser.statementCount > 0 else { throw .importFile(line: nil, reason: "the camt.053 document has no Stmt") }
    }

    /// Whether `prefix` (the file's first bytes) looks like a camt.053 document: XML whose first
    /// 4 KiB name the camt.053 namespace.
    public static func looksLikeCamt(_ prefix: [UInt8]) -> Bool {
        guard let text = XMLSniff.xmlText(prefix) else { return false }
        return text.contains(namespacePrefix) && text.contains("BkToCstmrStmt")
    }
}

/// The camt reader's state between two XML events.
private struct CamtParser {
    private var path: [String] = []
    /// `path` joined by `/`, and where each element's name starts in it: the key of a field is
    /// cut from it instead of joining the names again for every field of every entry.
    private var joinedPath: [UInt8] = []
    private var nameStarts: [Int] = []
    private var text = ""
    private var textLine = 0
    private var version: Int?
    private(set) var statementCount = 0
    /// The `Ccy` of the last `Amt` started, for its value when it ends.
    var amountCurrency: String?

    // Where the open Stmt, Bal, Ntry and TxDtls sit in `path`.
    private var statementAt: Int?
    private var balanceAt: Int?
    private var entryAt: Int?
    private var detailsAt: Int?

    private var statement = CamtStatement()
    private var balance = CamtBalance()
    private var entry = CamtNtry(line: 0)
    private var details = CamtTxDtls(line: 0)

    mutating func handle(_ event: XMLEvent, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        switch event {
        case .start(let name, let namespace, let line):
            if version == nil { try checkRoot(name, namespace, line) }
            if path.count == 1 && name != "BkToCstmrStmt" {
                throw .importFile(line: line, reason: "the camt.053 document holds \(quoted(name)), not BkToCstmrStmt")
            }
            text = ""
            textLine = line
            let depth = path.count
            path.append(name)
            if depth > 0 { joinedPath.append(UInt8(ascii: "/")) }
            nameStarts.append(joinedPath.count)
            joinedPath.append(contentsOf: name.utf8)
            try started(name, depth: depth, line: line, visit)
        case .text(let value, let line):
            if text.isEmpty {
                textLine = line
                text = value
            } else {
                text += value
            }
            guard text.utf8.count <= StatementLimits.maximumFieldBytes else {
                throw .importFile(line: line, reason: "a text is longer than \(StatementLimits.maximumFieldBytes / 1024) KiB")
            }
        case .end:
            guard !path.isEmpty else { return }  // libxml2 pairs every end with its start
            try ended(visit)
            path.removeLast()
            let start = nameStarts.removeLast()
            joinedPath.removeSubrange((start > 0 ? start - 1 : 0)...)
            text = ""
        }
    }

    private mutating func checkRoot(_ name: String, _ namespace: String, _ line: Int) throws(TallyError) {
        guard namespace.hasPrefix(CamtReader.namespacePrefix),
            let number = Int(namespace.dropFirst(CamtReader.namespacePrefix.count)), CamtReader.versions.contains(number),
            name == "Document"
        else {
            let what = namespace.isEmpty ? "\(quoted(name)) without a namespace" : quoted(namespace)
            throw .importFile(line: line, reason: "not a camt.053.001.02 to .08 statement: the document is \(what)")
        }
        version = number
    }

    private mutating func started(
        _ name: String, depth: Int, line: Int, _ visit: (StatementEvent) throws(TallyError) -> Void
    ) throws(TallyError) {
        switch name {
        case "Stmt" where depth == 2:
            statementAt = depth
            statement = CamtStatement()
            statementCount += 1
        case "Bal" where statementAt == depth - 1:
            balanceAt = depth
            balance = CamtBalance()
        case "Ntry" where statementAt == depth - 1:
            try beginIfNeeded(visit)
            entryAt = depth
            entry = CamtNtry(line: line)
        case "TxDtls" where entryAt != nil && detailsAt == nil:
            detailsAt = depth
            details = CamtTxDtls(line: line)
        default: break
        }
    }

    private mutating func beginIfNeeded(_ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        guard !statement.begun else { return }
        statement.begun = true
        try visit(.begin(account: statement.account, index: statementCount, id: statement.id))
    }

    /// The element that ends, by its path below `base`: `Acct/Id/IBAN` inside a Stmt.
    private func key(below base: Int) -> String {
        String(decoding: joinedPath[nameStarts[base + 1]...], as: UTF8.self)
    }

    private mutating func ended(_ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        let depth = path.count - 1
        switch depth {
        case detailsAt:
            entry.details.append(details)
            detailsAt = nil
        case entryAt:
            for item in try entry.entries(statementCurrency: statement.account.currency) { try visit(.entry(item)) }
            entryAt = nil
        case balanceAt:
            try statement.add(balance)
            balanceAt = nil
        case statementAt:
            try beginIfNeeded(visit)
            try visit(.end(statement.summary))
            statementAt = nil
        default:
            // Every field Tally reads holds text; an empty one, or an aggregate, says nothing.
            guard !text.isEmpty else { return }
            let value = StatementFields.trim(text)
            guard !value.isEmpty else { return }
            if let detailsAt {
                let field = key(below: detailsAt)
                if field == "AmtDtls/InstdAmt/Amt" { details.instructedCurrency = amountCurrency }
                try CamtFields.detail(field, value, textLine, into: &details)
            } else if let entryAt {
                try CamtFields.entry(key(below: entryAt), value, textLine, into: &entry)
            } else if let balanceAt {
                let field = key(below: balanceAt)
                // Without `Acct/Ccy`, the balances' currency is the statement's.
                if field == "Amt", statement.account.currency == nil, let code = amountCurrency, !code.isEmpty {
                    statement.account.currency = code.uppercased()
                }
                try CamtFields.balance(field, value, textLine, into: &balance)
            } else if let statementAt {
                try CamtFields.statement(key(below: statementAt), value, textLine, into: &statement)
            }
        }
    }
}
