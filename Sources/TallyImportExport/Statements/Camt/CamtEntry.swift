import TallyCore

/// What one camt `Ntry` says, gathered while it is read, and the entries it becomes.
struct CamtNtry {
    var line: Int
    var amount: Money?
    var debit: Bool?
    var reversal = false
    /// `BOOK`, or `PDNG` / `INFO` for an entry the bank has not booked (none on most statements).
    var status: String?
    var booked: Day?
    var valued: Day?
    var servicerRef: String?
    var entryRef: String?
    var transactionCode = CamtTransactionCode()
    var info: String?
    var details: [CamtTxDtls] = []

    init(line: Int) {
        self.line = line
    }

    /// The entries: one per `TxDtls` (one when there is none or one); none for an entry not
    /// booked yet, which a later statement books. The sign follows
    /// `CdtDbtInd`, which for a reversal already says which way the money moved (ISO 20022:
    /// "CRDT with RvslInd: the original operation was a debit").
    func entries(statementCurrency: String?) throws(TallyError) -> [StatementEntry] {
        if status == "PDNG" || status == "INFO" { return [] }
        guard let amount else { throw .importFile(line: line, reason: "an Ntry has no Amt") }
        guard let debit else { throw .importFile(line: line, reason: "an Ntry has no CdtDbtInd") }
        guard let date = booked ?? valued else { throw .importFile(line: line, reason: "an Ntry has no BookgDt or ValDt") }
        let ntryID = servicerRef ?? entryRef
        let details = self.details.isEmpty ? [CamtTxDtls(line: line)] : self.details
        var entries: [StatementEntry] = []
        for (index, tx) in details.enumerated() {
            let single = details.count == 1
            let isDebit = single ? debit : tx.debit ?? debit
            let cents = (single ? amount : tx.amount ?? tx.transactionAmount ?? amount).cents
            let id: String?
            if let own = tx.servicerRef {
                id = own
            } else if let ntryID {
                id = single ? ntryID : "\(ntryID)#\(index + 1)"
            } else {
                id = tx.endToEndID
            }
            let party = isDebit ? tx.creditor : tx.debtor
            let remittance = tx.remittance
            let fallback = [remittance, tx.info, info, tx.transactionCode.text, transactionCode.text].compactMap { $0 }.first { !$0.isEmpty }
            let name = party.name ?? fallback ?? "Bank entry"
            var memo = remittance ?? tx.info ?? info ?? ""
            if memo == name { memo = "" }
            if reversal { memo = memo.isEmpty ? "reversal" : "reversal: \(memo)" }
            entries.append(StatementEntry(
                date: date, amount: Money(cents: isDebit ? -cents : cents), bankID: id, name: name, memo: memo,
                counterparty: party.account, line: single ? line : tx.line, original: try tx.original(in: statementCurrency)))
        }
        return entries
    }
}

/// One `NtryDtls/TxDtls`.
struct CamtTxDtls {
    var line: Int
    var amount: Money?
    var transactionAmount: Money?
    var debit: Bool?
    var servicerRef: String?
    var endToEndID: String?
    var creditor = CamtParty()
    var debtor = CamtParty()
    var unstructured: [String] = []
    var reference: String?
    var info: String?
    var transactionCode = CamtTransactionCode()
    /// `AmtDtls/InstdAmt`: the amount as instructed, in its `Ccy`, and the exchange the bank
    /// made from it (`CcyXchg`).
    var instructed: (amount: Money, line: Int)?
    var instructedCurrency: String?
    var exchange: (source: String?, target: String?, unit: String?, rate: ExchangeRate?) = (nil, nil, nil, nil)

    init(line: Int) {
        self.line = line
    }

    /// The instructed amount when it is in another currency than the statement's
    /// (`statementCurrency`), with the rate `CcyXchg` states as statement units per one unit of
    /// it: `XchgRate` counts units of the other currency per `UnitCcy` (ISO 20022), which is
    /// `SrcCcy` when absent. A rate between other currencies than these two is left out.
    func original(in statementCurrency: String?) throws(TallyError) -> StatementOriginal? {
        guard let instructed, let code = instructedCurrency else { return nil }
        let currency = try StatementFields.currency(code, line: instructed.line, field: "InstdAmt/Amt Ccy")
        guard let statementCurrency else { return nil }
        let statement = try StatementFields.currency(statementCurrency, line: nil, field: "Acct/Ccy")
        guard currency != statement, instructed.amount != .zero else { return nil }
        let amount: CurrencyAmount
        do throws(TallyError) {
            amount = try CurrencyAmount(hundredths: instructed.amount, currency: currency)
        } catch {
            let reason = if case .foreignMoney(let problem) = error { problem.message } else { error.errorDescription ?? "cannot be read" }
            throw .foreignMoney(.statementField(line: instructed.line, field: "InstdAmt/Amt", value: instructed.amount.plainString, reason: reason))
        }
        var rate: ExchangeRate?
        if let stated = exchange.rate, let source = exchange.source?.uppercased(), let target = exchange.target?.uppercased() {
            let unit = exchange.unit?.uppercased() ?? source
            let other = unit == source ? target : source
            if unit == currency.code && other == statement.code {
                rate = stated
            } else if unit == statement.code && other == currency.code {
                rate = try stated.inverted()
            }
        }
        return StatementOriginal(amount: amount, rate: rate)
    }

    /// `Ustrd` lines joined by spaces, else the structured creditor reference.
    var remittance: String? {
        let joined = StatementFields.collapse(unstructured.joined(separator: " "))
        return joined.isEmpty ? reference : joined
    }
}

/// A creditor or debtor: the name of the party itself, else of the ultimate one, and its account.
struct CamtParty {
    var ownName: String?
    var ultimateName: String?
    var account: String?

    var name: String? { ownName ?? ultimateName }
}
