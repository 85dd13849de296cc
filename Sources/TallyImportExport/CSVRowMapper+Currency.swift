import Foundation
import TallyCore

// A mapped currency column: each row's amount is in that row's currency (ISO 4217, in its own
// minor units), and a mapped rate column gives the rate charged. The mapper only reads and
// checks them; the use case converts, since the rates are the store's.
extension CSVRowMapper {
    /// The row's currency when it is another than the ledger's; `nil` without a currency column,
    /// for an empty cell and for the ledger's own code.
    mutating func rowCurrency(_ record: CSVRecord) throws(TallyError) -> Currency? {
        guard let currency, !record.withBytes(at: currency, { CSVRowMapper.trimmed($0).isEmpty }) else { return nil }
        let raw = record.string(at: currency)
        let found: Currency
        if let known = currencies[raw] {
            found = known
        } else {
            let code = raw.trimmingCharacters(in: .whitespaces)
            do {
                found = try Currency(code: code)
                _ = try MinorUnits.digits(of: found)
            } catch {
                let reason = if case .foreignMoney(let problem) = error { problem.message } else { "not an ISO 4217 currency code" }
                throw cellError(record, currency, reason)
            }
            if currencies.count < 1024 { currencies[raw] = found }
        }
        guard found != options.ledgerCurrency else { return nil }
        guard options.ledgerCurrency != nil else { throw .foreignMoney(.noLedgerCurrency) }
        return found
    }

    /// The amount cell in `currency`'s minor units, signed; more decimals than it has fail.
    func minorUnits(_ record: CSVRecord, _ column: Int, in currency: Currency) throws(TallyError) -> Int64 {
        let format = AmountFormat(decimalComma: options.amountFormat.decimalComma, currency: currency.code)
        switch format.signedMinorUnits(record.string(at: column), digits: (try? MinorUnits.digits(of: currency)) ?? 2) {
        case .success(let units): return units
        case .failure(let problem): throw cellError(record, column, "\(problem.reason(decimalComma: format.decimalComma)) (\(currency.code))")
        }
    }

    /// The rate cell: `nil` without a rate column or for an empty cell; a rate for a row in the
    /// ledger's currency is refused, as for an expense added by hand.
    func givenRate(_ record: CSVRecord, foreign: Bool) throws(TallyError) -> ExchangeRate? {
        guard let rate, !record.withBytes(at: rate, { CSVRowMapper.trimmed($0).isEmpty }) else { return nil }
        let text = record.string(at: rate).trimmingCharacters(in: .whitespaces)
        guard foreign else { throw cellError(record, rate, ForeignMoneyProblem.rateWithoutCurrency.message) }
        do {
            return try ExchangeRate(parsing: text)
        } catch {
            throw cellError(record, rate, "use a positive decimal with at most \(ExchangeRate.maximumScale) decimals, like 0.0061")
        }
    }

    /// A name's hash with the row's currency in it, so 12.50 USD and 12.50 EUR are different rows;
    /// a row in the ledger's currency keeps the key it has without a currency column.
    static func keyed(_ nameHash: UInt64, _ currency: Currency?) -> UInt64 {
        guard let currency else { return nameHash }
        var hash = ImportRowKey.Hash()
        hash.add(nameHash)
        hash.add(currency.code)
        return hash.value
    }

    private func cellError(_ record: CSVRecord, _ column: Int, _ reason: String) -> TallyError {
        .foreignMoney(.importCell(line: record.line, column: headerNames[column], value: record.string(at: column), reason: reason))
    }
}

extension Int64 {
    /// |self|, for amounts already bounded well below `Int64.max`.
    var magnitudeClamped: Int64 { self < 0 ? -self : self }
}
