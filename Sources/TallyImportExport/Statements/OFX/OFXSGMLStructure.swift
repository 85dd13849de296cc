import TallyCore

/// Tells SGML leaves from aggregates and holds the file to what OFX allows. A tag followed by
/// a value is a leaf, whose closing tag may follow or not; a tag followed by another tag is an
/// aggregate, which must be closed, in order. Refused: closing what was never opened, closing
/// out of order, text directly inside an aggregate, and an aggregate still open at the end.
struct OFXSGMLStructure {
    private var open: [String] = []
    /// A start tag whose content is not known yet, and the value that followed it.
    private var pending: (name: String, line: Int)?
    private var value: String?
    /// The leaf just ended, whose optional closing tag may come next.
    private var lastLeaf: String?
    private var sawRoot = false

    /// Leaves that may be written empty (`<MEMO>` followed by the next tag) and must not then
    /// be taken for aggregates.
    private static let leaves: Set<String> = [
        "TRNTYPE", "DTPOSTED", "DTUSER", "DTAVAIL", "TRNAMT", "FITID", "SRVRTID", "CHECKNUM", "REFNUM", "SIC", "PAYEEID",
        "NAME", "EXTDNAME", "MEMO", "CURDEF", "ACCTID", "BANKID", "BRANCHID", "ACCTTYPE", "ACCTKEY", "DTSTART", "DTEND",
        "BALAMT", "DTASOF", "CODE", "SEVERITY", "MESSAGE", "DTSERVER", "LANGUAGE", "ORG", "FID", "TRNUID", "CURSYM",
        "CURRATE", "INTU.BID", "INTU.USERID", "MKTGINFO", "ADDR1", "ADDR2", "ADDR3", "CITY", "STATE", "POSTALCODE",
        "COUNTRY", "PHONE", "CORRECTFITID", "CORRECTACTION", "DTPROFUP", "DTACCTUP",
    ]

    /// Aggregates of the statements Tally reads, so text after one is named for what it is.
    private static let aggregates: Set<String> = [
        "OFX", "SIGNONMSGSRSV1", "SONRS", "STATUS", "FI", "BANKMSGSRSV1", "STMTTRNRS", "STMTRS", "BANKACCTFROM",
        "BANKTRANLIST", "STMTTRN", "PAYEE", "BANKACCTTO", "CCACCTTO", "LEDGERBAL", "AVAILBAL", "CREDITCARDMSGSRSV1",
        "CCSTMTTRNRS", "CCSTMTRS", "CCACCTFROM", "CURRENCY", "ORIGCURRENCY", "BALLIST", "BAL",
    ]

    mutating func open(_ name: String, line: Int, _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        try resolve(emit)
        if !sawRoot {
            guard name == "OFX" else { throw .importFile(line: line, reason: "the OFX body starts with <\(name)>, not <OFX>") }
            sawRoot = true
        } else if open.isEmpty {
            throw .importFile(line: line, reason: "<\(name)> comes after </OFX>")
        }
        pending = (name, line)
        value = nil
    }

    mutating func text(_ text: String, line: Int, _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        guard let name = pending?.name, value == nil, !Self.aggregates.contains(name) else {
            var aggregate = open.last
            if let name = self.pending?.name, Self.aggregates.contains(name) { aggregate = name }
            let inside = aggregate.map { "<\($0)>" } ?? "the file, outside <OFX>"
            throw .importFile(line: line, reason: "text \(quoted(StatementFields.trim(text))) is directly inside \(inside)")
        }
        value = StatementFields.trim(text)
    }

    mutating func close(_ name: String, line: Int, _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        if let pending, pending.name == name {
            // `<NAME>value</NAME>`, or an empty `<BANKTRANLIST></BANKTRANLIST>`.
            try emit(.leaf(name, value: value ?? "", line: pending.line))
            self.pending = nil
            value = nil
            return
        }
        try resolve(emit)
        if lastLeaf == name {
            lastLeaf = nil
            return
        }
        lastLeaf = nil
        guard let top = open.last else {
            throw .importFile(line: line, reason: "</\(name)> closes an aggregate that was never opened")
        }
        guard top == name else {
            let reason = open.contains(name) ? "</\(name)> closes while <\(top)> inside it is still open" : "</\(name)> closes an aggregate that was never opened"
            throw .importFile(line: line, reason: reason)
        }
        open.removeLast()
        try emit(.close(name, line: line))
    }

    mutating func finish(line: Int, _ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        try resolve(emit)
        guard sawRoot else { throw .importFile(line: nil, reason: "the OFX file has no <OFX> element") }
        if let top = open.last {
            throw .importFile(line: line, reason: "the file ends inside <\(top)>: it is truncated")
        }
    }

    /// Decides what the pending start tag was, now that the next tag has come.
    private mutating func resolve(_ emit: (OFXToken) throws(TallyError) -> Void) throws(TallyError) {
        guard let pending else { return }
        self.pending = nil
        if let value {
            self.value = nil
            try emit(.leaf(pending.name, value: value, line: pending.line))
            lastLeaf = pending.name
        } else if Self.leaves.contains(pending.name) {
            try emit(.leaf(pending.name, value: "", line: pending.line))
            lastLeaf = pending.name
        } else {
            open.append(pending.name)
            lastLeaf = nil
            try emit(.open(pending.name, line: pending.line))
        }
    }
}
