import TallyCore

/// A camt `Stmt` while it is read: what `begin` and `end` hand on.
struct CamtStatement {
    var begun = false
    var id: String?
    var account = StatementAccount()
    var from: Day?
    var to: Day?
    var opening: StatementBalance?
    var closing: StatementBalance?

    mutating func add(_ balance: CamtBalance) throws(TallyError) {
        guard let code = balance.code, ["OPBD", "PRCD", "CLBD"].contains(code) else { return }
        guard let amount = balance.amount, let debit = balance.debit, let day = balance.day else {
            throw .importFile(line: balance.line, reason: "the \(code) balance has no Amt, CdtDbtInd or Dt")
        }
        let stated = StatementBalance(amount: Money(cents: debit ? -amount.cents : amount.cents), day: day)
        // OPBD is the opening balance itself; PRCD, the previous closing, stands in when it is missing.
        if code == "CLBD" {
            closing = stated
        } else if code == "OPBD" || opening == nil {
            opening = stated
        }
    }

    var summary: StatementSummary {
        let period = from.flatMap { from in to.map { DayInterval(first: from, last: $0) } }
        return StatementSummary(period: period, opening: opening, closing: closing)
    }
}

/// A camt `Bal` while it is read.
struct CamtBalance {
    var code: String?
    var amount: Money?
    var debit: Bool?
    var day: Day?
    var line: Int?
}

/// Where each camt leaf element goes, by its path below the aggregate that holds it. Elements
/// not named here are skipped.
enum CamtFields {
    static func statement(_ key: String, _ value: String, _ line: Int, into statement: inout CamtStatement) throws(TallyError) {
        switch key {
        case "Id": statement.id = nonEmpty(value)
        case "Acct/Id/IBAN": statement.account.iban = StatementText.accountNumber(value)
        case "Acct/Id/Othr/Id": statement.account.number = StatementText.accountNumber(value)
        case "Acct/Ccy": statement.account.currency = nonEmpty(value.uppercased())
        case "FrToDt/FrDtTm", "FrToDt/FrDt": statement.from = try StatementFields.isoDay(value, line: line, field: "FrToDt")
        case "FrToDt/ToDtTm", "FrToDt/ToDt": statement.to = try StatementFields.isoDay(value, line: line, field: "FrToDt")
        default: break
        }
    }

    static func balance(_ key: String, _ value: String, _ line: Int, into balance: inout CamtBalance) throws(TallyError) {
        switch key {
        case "Tp/CdOrPrtry/Cd":
            balance.code = value.uppercased()
            balance.line = line
        case "Amt": balance.amount = try StatementFields.unsignedAmount(value, line: line, field: "Bal/Amt")
        case "CdtDbtInd": balance.debit = try indicator(value, line)
        case "Dt/Dt", "Dt/DtTm": balance.day = try StatementFields.isoDay(value, line: line, field: "Bal/Dt")
        default: break
        }
    }

    static func entry(_ key: String, _ value: String, _ line: Int, into entry: inout CamtNtry) throws(TallyError) {
        switch key {
        case "Amt": entry.amount = try StatementFields.unsignedAmount(value, line: line, field: "Ntry/Amt")
        case "CdtDbtInd": entry.debit = try indicator(value, line)
        case "RvslInd": entry.reversal = value == "true" || value == "1"
        // .02 to .07 write the status as a code; .08 in Cd (or Prtry).
        case "Sts", "Sts/Cd": entry.status = value.uppercased()
        case "BookgDt/Dt", "BookgDt/DtTm": entry.booked = try StatementFields.isoDay(value, line: line, field: "BookgDt")
        case "ValDt/Dt", "ValDt/DtTm": entry.valued = try StatementFields.isoDay(value, line: line, field: "ValDt")
        case "AcctSvcrRef": entry.servicerRef = reference(value)
        case "NtryRef": entry.entryRef = reference(value)
        case "AddtlNtryInf": entry.info = nonEmpty(StatementFields.collapse(value))
        default: entry.transactionCode.set(key, value)
        }
    }

    static func detail(_ key: String, _ value: String, _ line: Int, into details: inout CamtTxDtls) throws(TallyError) {
        switch key {
        case "Refs/AcctSvcrRef": details.servicerRef = reference(value)
        case "Refs/EndToEndId": details.endToEndID = reference(value)
        case "Amt": details.amount = try StatementFields.unsignedAmount(value, line: line, field: "TxDtls/Amt")
        case "AmtDtls/TxAmt/Amt": details.transactionAmount = try StatementFields.unsignedAmount(value, line: line, field: "TxAmt/Amt")
        case "AmtDtls/InstdAmt/Amt":
            details.instructed = (try StatementFields.unsignedAmount(value, line: line, field: "InstdAmt/Amt"), line)
        case "AmtDtls/InstdAmt/CcyXchg/SrcCcy": details.exchange.source = value
        case "AmtDtls/InstdAmt/CcyXchg/TrgtCcy": details.exchange.target = value
        case "AmtDtls/InstdAmt/CcyXchg/UnitCcy": details.exchange.unit = value
        case "AmtDtls/InstdAmt/CcyXchg/XchgRate":
            details.exchange.rate = try StatementFields.rate(value, line: line, field: "CcyXchg/XchgRate")
        case "CdtDbtInd": details.debit = try indicator(value, line)
        // .02 to .07 name the party directly; .08 puts it under Pty (or Agt, for a bank).
        case "RltdPties/Cdtr/Nm", "RltdPties/Cdtr/Pty/Nm": details.creditor.ownName = name(value)
        case "RltdPties/UltmtCdtr/Nm", "RltdPties/UltmtCdtr/Pty/Nm": details.creditor.ultimateName = name(value)
        case "RltdPties/Dbtr/Nm", "RltdPties/Dbtr/Pty/Nm": details.debtor.ownName = name(value)
        case "RltdPties/UltmtDbtr/Nm", "RltdPties/UltmtDbtr/Pty/Nm": details.debtor.ultimateName = name(value)
        case "RltdPties/CdtrAcct/Id/IBAN", "RltdPties/CdtrAcct/Id/Othr/Id":
            details.creditor.account = details.creditor.account ?? StatementText.accountNumber(value)
        case "RltdPties/DbtrAcct/Id/IBAN", "RltdPties/DbtrAcct/Id/Othr/Id":
            details.debtor.account = details.debtor.account ?? StatementText.accountNumber(value)
        case "RmtInf/Ustrd": if !value.isEmpty { details.unstructured.append(value) }
        case "RmtInf/Strd/CdtrRefInf/Ref": details.reference = details.reference ?? nonEmpty(value)
        case "AddtlTxInf": details.info = nonEmpty(StatementFields.collapse(value))
        default: details.transactionCode.set(key, value)
        }
    }

    /// `DBIT` or `CRDT`; whether it is a debit.
    private static func indicator(_ value: String, _ line: Int) throws(TallyError) -> Bool {
        switch value {
        case "DBIT": return true
        case "CRDT": return false
        default: throw .importFile(line: line, reason: "CdtDbtInd \(quoted(value)) is neither CRDT nor DBIT")
        }
    }

    private static func reference(_ value: String) -> String? {
        value.isEmpty || value == "NOTPROVIDED" ? nil : value
    }

    private static func name(_ value: String) -> String? { nonEmpty(StatementFields.collapse(value)) }

    private static func nonEmpty(_ value: String) -> String? { value.isEmpty ? nil : value }
}

/// A bank transaction code (`BkTxCd`), a name of last resort: the bank's proprietary code, else
/// ISO's domain, family and sub-family (`PMNT/ICDT/ESCT`).
struct CamtTransactionCode {
    private var iso: [String] = []
    private var proprietary: String?

    var text: String? { proprietary ?? (iso.isEmpty ? nil : iso.joined(separator: "/")) }

    mutating func set(_ key: String, _ value: String) {
        guard !value.isEmpty else { return }
        switch key {
        case "BkTxCd/Domn/Cd", "BkTxCd/Domn/Fmly/Cd", "BkTxCd/Domn/Fmly/SubFmlyCd": iso.append(value)
        case "BkTxCd/Prtry/Cd": proprietary = value
        default: break
        }
    }
}
