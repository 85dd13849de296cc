import TallyCore

// Statements and entries in other currencies than the ledger's. A whole statement in another
// converts as a CSV row in another does: at the rate table's rate on the entry's day (source
// `table`, so `rates reapply` recomputes it). An entry of a statement in the ledger's currency
// that the bank booked from another keeps that original, at a rate that gives back exactly the
// booked amount (source `given`, as the card charged it). The rules are Core's: the rate is
// ``RateLookup``'s, the amount ``ForeignCharge/amount(in:)``, the booked charge
// ``ForeignCharge/booked(_:original:stated:in:)``.
extension StatementPlanner {
    /// The currency a statement's entries convert from: its own, when the ledger has a currency
    /// and the statement names another; `nil` when its amounts are the ledger's.
    func convertedCurrency(_ named: StatementAccount, label: String) throws(TallyError) -> Currency? {
        guard let code = named.currency, let ledgerCurrency else { return nil }
        let currency = try StatementFields.currency(code, line: nil, field: "the currency of \(label)")
        return currency == ledgerCurrency ? nil : currency
    }

    /// The entry's signed amount in the ledger's currency and, when it came from another, the
    /// charge an expense keeps: `statementCurrency` is the part's ``StatementPlan/Part/currency``.
    func ledgerAmount(of entry: StatementEntry, from statementCurrency: Currency?) throws(TallyError) -> (Money, ForeignCharge?) {
        guard let ledger = ledgerCurrency else { return (entry.amount, nil) }
        let booked = Money(cents: Int64(clamping: entry.amount.cents.magnitude))
        var charge: ForeignCharge?
        do throws(TallyError) {
            if let statementCurrency {
                let original = try CurrencyAmount(hundredths: booked, currency: statementCurrency)
                guard let tableRate else { throw TallyError.foreignMoney(.missingRate(from: statementCurrency.code, to: ledger.code, day: entry.date)) }
                charge = ForeignCharge(original: original, rate: try tableRate(statementCurrency, entry.date), source: .table)
            } else if let original = entry.original, original.amount.currency != ledger {
                charge = try ForeignCharge.booked(booked, original: original.amount, stated: original.rate, in: ledger)
            }
            guard let charge else { return (entry.amount, nil) }
            let amount = try charge.amount(in: ledger)
            guard amount != .zero else { throw TallyError.foreignMoney(.conversionOverflow(charge.original.description)) }
            return (Money(cents: entry.amount.cents < 0 ? -amount.cents : amount.cents), charge)
        } catch {
            if case .foreignMoney(.missingRate) = error { throw error }
            let what = charge?.original.description ?? entry.original?.amount.description ?? booked.plainString
            let reason = if case .foreignMoney(let problem) = error { problem.message } else { error.errorDescription ?? "cannot be converted" }
            throw .importFile(line: entry.line, reason: "\(what) cannot be converted into \(ledger.code): \(reason)")
        }
    }
}

/// The days on which each statement currency other than the ledger's needs a table rate: what
/// an import reads from the file before its transaction opens, to look the rates up at once.
public struct StatementRateDays {
    public let ledger: Currency
    public private(set) var days: [Currency: Set<Day>] = [:]
    private var current: Currency?

    public init(ledger: Currency) {
        self.ledger = ledger
    }

    /// One event of the file. A statement's code that is no currency is left for the planner,
    /// which refuses it with the statement's name.
    public mutating func add(_ event: StatementEvent) {
        switch event {
        case .begin(let account, _, _):
            current = account.currency.flatMap { try? StatementFields.currency($0, line: nil, field: "") }
            if current == ledger { current = nil }
        case .entry(let entry):
            if let current, entry.amount != .zero { days[current, default: []].insert(entry.date) }
        case .end:
            current = nil
        }
    }
}
