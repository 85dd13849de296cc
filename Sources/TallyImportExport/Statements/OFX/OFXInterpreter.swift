import TallyCore

/// Reads bank (`STMTRS`) and credit card (`CCSTMTRS`) statements from OFX tokens, whichever
/// tokenizer made them. Each statement aggregate is one statement; anything else is skipped.
struct OFXInterpreter {
    private var path: [String] = []
    private var statementAt: Int?
    private var transactionAt: Int?
    private var statementCount = 0

    private var begun = false
    private var account = StatementAccount()
    private var start: Day?
    private var end: Day?
    private var ledger: (amount: Money?, day: Day?, line: Int) = (nil, nil, 0)
    private var transaction = OFXTransaction(line: 0)

    mutating func handle(_ token: OFXToken, _ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        switch token {
        case .open(let name, let line):
            let depth = path.count
            path.append(name)
            if (name == "STMTRS" || name == "CCSTMTRS") && statementAt == nil {
                statementAt = depth
                statementCount += 1
                begun = false
                account = StatementAccount()
                (start, end) = (nil, nil)
                ledger = (nil, nil, 0)
            } else if name == "STMTTRN", statementAt != nil, transactionAt == nil {
                try beginIfNeeded(visit)
                transactionAt = depth
                transaction = OFXTransaction(line: line)
            }
        case .leaf(let name, let value, let line):
            if let transactionAt {
                try transaction.set(key(below: transactionAt, leaf: name), value, line: line)
            } else if let statementAt {
                try statementField(key(below: statementAt, leaf: name), value, line: line)
            }
        case .close:
            let depth = path.count - 1
            if depth == transactionAt {
                try visit(.entry(try transaction.entry(statementCurrency: account.currency)))
                transactionAt = nil
            } else if depth == statementAt {
                try beginIfNeeded(visit)
                var closing: StatementBalance?
                if let amount = ledger.amount {
                    guard let day = ledger.day else { throw .importFile(line: ledger.line, reason: "LEDGERBAL has no DTASOF") }
                    closing = StatementBalance(amount: amount, day: day)
                }
                let period = start.flatMap { start in end.map { DayInterval(first: start, last: $0) } }
                try visit(.end(StatementSummary(period: period, closing: closing)))
                statementAt = nil
            }
            if !path.isEmpty { path.removeLast() }
        }
    }

    func finish() throws(TallyError) {
        guard statementCount > 0 else {
            throw .importFile(line: nil, reason: "the OFX file has no bank or credit card statement (STMTRS or CCSTMTRS)")
        }
    }

    /// The leaf's path below `base`: `TRNAMT` inside a STMTTRN, `LEDGERBAL/BALAMT` inside a
    /// STMTRS. Most leaves sit right below their aggregate, and cost no string to build.
    private func key(below base: Int, leaf: String) -> String {
        guard base + 1 < path.count else { return leaf }
        var key = ""
        for name in path[(base + 1)...] {
            key += name
            key += "/"
        }
        return key + leaf
    }

    private mutating func beginIfNeeded(_ visit: (StatementEvent) throws(TallyError) -> Void) throws(TallyError) {
        guard !begun else { return }
        begun = true
        try visit(.begin(account: account, index: statementCount, id: nil))
    }

    private mutating func statementField(_ key: String, _ value: String, line: Int) throws(TallyError) {
        switch key {
        case "CURDEF": account.currency = value.isEmpty ? nil : value.uppercased()
        case "BANKACCTFROM/ACCTID", "CCACCTFROM/ACCTID":
            // OFX has no IBAN field; European banks put the IBAN in ACCTID.
            guard let number = StatementText.accountNumber(value) else { break }
            if StatementText.isIBAN(number) { account.iban = number } else { account.number = number }
        case "BANKTRANLIST/DTSTART": start = try OFXFields.day(value, line: line, field: "DTSTART")
        case "BANKTRANLIST/DTEND": end = try OFXFields.day(value, line: line, field: "DTEND")
        case "LEDGERBAL/BALAMT":
            ledger.amount = try OFXFields.amount(value, line: line, field: "BALAMT")
            ledger.line = line
        case "LEDGERBAL/DTASOF": ledger.day = try OFXFields.day(value, line: line, field: "DTASOF")
        default: break
        }
    }
}

/// One `STMTTRN` while it is read.
struct OFXTransaction {
    var line: Int
    var type: String?
    var posted: Day?
    var amount: Money?
    var id: String?
    var name: String?
    var payee: String?
    var memo: String?
    var counterparty: String?
    /// `ORIGCURRENCY` (TRNAMT already booked in CURDEF) or `CURRENCY` (TRNAMT in CURSYM): its
    /// CURRATE, the CURDEF units per CURSYM unit (OFX 2.1.1 §5.2: "ratio of CURDEF currency to
    /// CURSYM currency"), and CURSYM.
    var foreign: (isOriginal: Bool, rate: ExchangeRate?, currency: Currency?, line: Int)?

    init(line: Int) {
        self.line = line
    }

    mutating func set(_ key: String, _ value: String, line: Int) throws(TallyError) {
        let text = value.isEmpty ? nil : StatementFields.collapse(value)
        switch key {
        case "TRNTYPE": type = text
        case "DTPOSTED": posted = try OFXFields.day(value, line: line, field: "DTPOSTED")
        case "TRNAMT": amount = try OFXFields.amount(value, line: line, field: "TRNAMT")
        case "FITID": id = text
        case "NAME": name = text
        case "PAYEE/NAME": payee = text
        case "MEMO": memo = text
        case "BANKACCTTO/ACCTID", "CCACCTTO/ACCTID": counterparty = StatementText.accountNumber(value)
        case "ORIGCURRENCY/CURRATE", "CURRENCY/CURRATE":
            var foreign = self.foreign ?? (key.hasPrefix("ORIG"), nil, nil, line)
            foreign.rate = try StatementFields.rate(value, line: line, field: "CURRATE")
            self.foreign = foreign
        case "ORIGCURRENCY/CURSYM", "CURRENCY/CURSYM":
            var foreign = self.foreign ?? (key.hasPrefix("ORIG"), nil, nil, line)
            foreign.currency = try StatementFields.currency(value, line: line, field: "CURSYM")
            self.foreign = foreign
        default: break
        }
    }

    /// The entry, its amount in the statement's currency (`CURDEF`, given as `statementCurrency`).
    func entry(statementCurrency: String?) throws(TallyError) -> StatementEntry {
        guard let posted else { throw .importFile(line: line, reason: "a STMTTRN has no DTPOSTED") }
        guard var amount else { throw .importFile(line: line, reason: "a STMTTRN has no TRNAMT") }
        let name = self.name ?? payee ?? memo ?? type ?? "Bank entry"
        let memo = self.memo == name ? "" : self.memo ?? ""
        var original: StatementOriginal?
        if let foreign, amount != .zero {
            let what = foreign.isOriginal ? "ORIGCURRENCY" : "CURRENCY"
            guard let rate = foreign.rate, let currency = foreign.currency else {
                throw .importFile(line: foreign.line, reason: "\(what) needs both CURRATE and CURSYM")
            }
            guard let code = statementCurrency else { throw .importFile(line: foreign.line, reason: "\(what) needs the statement's CURDEF") }
            let statement = try StatementFields.currency(code, line: nil, field: "CURDEF")
            if currency != statement {
                let booked = Money(cents: Int64(amount.cents.magnitude))
                do throws(TallyError) {
                    if foreign.isOriginal {
                        original = StatementOriginal(amount: try rate.original(of: booked, in: currency), rate: rate)
                    } else {
                        // TRNAMT is in CURSYM: the booked amount is CURRATE × TRNAMT, in CURDEF.
                        let spent = try CurrencyAmount(hundredths: booked, currency: currency)
                        original = StatementOriginal(amount: spent, rate: rate)
                        let converted = try rate.convert(spent, into: statement)
                        amount = Money(cents: amount.cents < 0 ? -converted.cents : converted.cents)
                    }
                } catch {
                    let reason = if case .foreignMoney(let problem) = error { problem.message } else { error.errorDescription ?? "cannot be converted" }
                    throw .foreignMoney(.statementField(line: line, field: "TRNAMT", value: booked.plainString, reason: reason))
                }
            }
        }
        return StatementEntry(
            date: posted, amount: amount, bankID: id, name: name, memo: memo, counterparty: counterparty, line: line, original: original)
    }
}

/// OFX's dates and amounts.
enum OFXFields {
    /// `YYYYMMDD[HHMMSS[.XXX]][[-5:EST]]`: the first eight digits, the bank's own day; the time
    /// and zone after them never move it to another day.
    static func day(_ text: String, line: Int, field: String) throws(TallyError) -> Day {
        let bytes = Array(text.utf8)
        let digits = bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 })
        let rest = bytes.dropFirst(digits.count)
        guard digits.count >= 8, rest.isEmpty || rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: "["),
            let year = Int(String(decoding: digits[0..<4], as: UTF8.self)),
            let month = Int(String(decoding: digits[4..<6], as: UTF8.self)),
            let day = Int(String(decoding: digits[6..<8], as: UTF8.self)),
            let parsed = try? Day(year: year, month: month, day: day)
        else { throw .importFile(line: line, reason: "\(field) \(quoted(text)) is not an OFX date (YYYYMMDD…)") }
        return parsed
    }

    /// A signed amount with `.` as its decimal separator; `,` only when there is no `.`, as
    /// OFX 1.x allows (`-12,34`).
    static func amount(_ text: String, line: Int, field: String) throws(TallyError) -> Money {
        if let amount = StatementText.amount(text) { return amount }
        if !text.utf8.contains(UInt8(ascii: ".")), let amount = StatementText.amount(text, decimal: UInt8(ascii: ",")) { return amount }
        throw .importFile(line: line, reason: "\(field) \(quoted(text)) is not an amount")
    }
}
