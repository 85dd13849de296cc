import Foundation
import TallyCore

// Tally's own export of a ledger with splits, refunds or other currencies (``CSVLedgerColumns``),
// read with the default header: a row's id, refund, original amount and split line. The lines of
// one expense are put back together by ``LineGroups``.
extension CSVRowMapper {
    /// Sets what the ledger columns say on `row`: its exported id, its refund, its original
    /// amount as recorded (the rate is not looked up again), and its split line, if any.
    func readLedgerColumns(_ record: CSVRecord, _ columns: CSVLedgerColumns.Positions, kind: EntryKind?, into row: inout ImportedExpense) throws(TallyError) {
        if let id = try wholeCell(record, columns.id, "use the expense's id, a whole number") { row.expense.id = id }
        let refundOf = try wholeCell(record, columns.refundOf, "use the id of the expense refunded, a whole number")
        if kind == .refund {
            row.expense.isRefund = true
            row.expense.refundOf = refundOf
        } else if refundOf != nil {
            throw ledgerError(record, columns.refundOf, "only a row of kind refund returns an expense")
        }
        row.expense.foreign = try foreignCharge(record, columns)
        guard !cell(record, columns.lineAmount).isEmpty else {
            for column in [columns.share, columns.lineName, columns.lineTags] where !cell(record, column).isEmpty {
                throw ledgerError(record, column, "a line's columns need its line amount")
            }
            return
        }
        guard row.expense.id != nil else { throw ledgerError(record, columns.id, "a split's line needs its expense's id") }
        guard row.source == .cell else { throw ledgerError(record, columns.lineAmount, "a split's line needs its budget") }
        let amount: Money
        do {
            amount = try Money(parsing: cell(record, columns.lineAmount))
            try Expense.checkAmount(amount)
        } catch {
            throw ledgerError(record, columns.lineAmount, error.errorDescription ?? "invalid amount")
        }
        let share: LineShare
        do { share = try LineShare(parsing: cell(record, columns.share)) } catch {
            throw ledgerError(record, columns.share, error.errorDescription ?? "invalid share")
        }
        let tags = record.withBytes(at: columns.lineTags, CSVRowMapper.tagList)
        row.pendingLine = ExpenseLine(budgetID: 0, share: share, amount: amount, name: cell(record, columns.lineName), tags: tags)
    }

    /// `original`, `currency`, `rate` and `rate source`: all four or none.
    private func foreignCharge(_ record: CSVRecord, _ columns: CSVLedgerColumns.Positions) throws(TallyError) -> ForeignCharge? {
        let cells = [columns.original, columns.currency, columns.rate, columns.rateSource]
        guard let given = cells.first(where: { !cell(record, $0).isEmpty }) else { return nil }
        if let missing = cells.first(where: { cell(record, $0).isEmpty }) {
            throw ledgerError(record, given, "an amount in another currency needs original, currency, rate and rate source (\(headerNames[missing]) is empty)")
        }
        let currency: Currency
        do { currency = try Currency(code: cell(record, columns.currency)) } catch {
            throw ledgerError(record, columns.currency, "not an ISO 4217 currency code")
        }
        let original: CurrencyAmount
        do { original = try CurrencyAmount(parsing: cell(record, columns.original), currency: currency) } catch {
            throw ledgerError(record, columns.original, error.errorDescription ?? "invalid amount")
        }
        let rate: ExchangeRate
        do { rate = try ExchangeRate(parsing: cell(record, columns.rate)) } catch {
            throw ledgerError(record, columns.rate, "use a positive decimal with at most \(ExchangeRate.maximumScale) decimals, like 0.0061")
        }
        guard let source = RateSource(rawValue: cell(record, columns.rateSource)) else {
            throw ledgerError(record, columns.rateSource, "use \(RateSource.allCases.map(\.rawValue).joined(separator: " or "))")
        }
        return ForeignCharge(original: original, rate: rate, source: source)
    }

    private func cell(_ record: CSVRecord, _ column: Int) -> String {
        record.string(at: column).trimmingCharacters(in: .whitespaces)
    }

    /// A positive whole number, or `nil` for an empty cell.
    private func wholeCell(_ record: CSVRecord, _ column: Int, _ reason: String) throws(TallyError) -> Int64? {
        guard !record.withBytes(at: column, { CSVRowMapper.trimmed($0).isEmpty }) else { return nil }
        guard let value = record.withBytes(at: column, { CSVRowMapper.wholeNumber($0) }), value > 0 else {
            throw ledgerError(record, column, reason)
        }
        return value
    }

    private func ledgerError(_ record: CSVRecord, _ column: Int, _ reason: String) -> TallyError {
        .importRow(line: record.line, column: headerNames[column], value: record.string(at: column), reason: reason)
    }
}
