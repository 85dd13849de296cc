import TallyCore

/// An expense's amount as paid in another currency (version 9).
public struct OriginalDTO: Codable, Hashable, Sendable {
    public var amount: String
    public var currency: String
}

extension OriginalDTO {
    /// `original`, `rate` and `rateSource` of an entry (an expense, an income) as one
    /// ``ForeignCharge``: all three or none.
    static func charge(
        _ original: OriginalDTO?, rate: String?, rateSource: String?, _ invalid: (String, String, String) -> TallyError
    ) throws(TallyError) -> ForeignCharge? {
        guard original != nil || rate != nil || rateSource != nil else { return nil }
        guard let original, let rate, let rateSource else {
            throw invalid("original", original?.currency ?? "", "an amount in another currency needs original, rate and rateSource")
        }
        let currency: Currency
        do { currency = try Currency(code: original.currency) } catch { throw invalid("original.currency", original.currency, error.errorDescription ?? "") }
        let amount: CurrencyAmount
        do { amount = try CurrencyAmount(parsing: original.amount, currency: currency) } catch {
            throw invalid("original.amount", original.amount, error.errorDescription ?? "")
        }
        let exact: ExchangeRate
        do { exact = try ExchangeRate(parsing: rate) } catch { throw invalid("rate", rate, error.errorDescription ?? "") }
        guard let source = RateSource(rawValue: rateSource) else { throw invalid("rateSource", rateSource, "use table or given") }
        return ForeignCharge(original: amount, rate: exact, source: source)
    }

    init?(_ charge: ForeignCharge?) {
        guard let charge else { return nil }
        self.init(amount: charge.original.plainString, currency: charge.original.currency.code)
    }
}

extension ExpenseDTO {
    /// `original`, `rate` and `rateSource` as one ``ForeignCharge``: all three or none.
    func foreignCharge(_ invalid: (String, String, String) -> TallyError) throws(TallyError) -> ForeignCharge? {
        try OriginalDTO.charge(original, rate: rate, rateSource: rateSource, invalid)
    }
}

/// One row of the rate table (version 9): on `date`, one `from` was worth `rate` `to`.
public struct RateDTO: Codable, Hashable, Sendable {
    public var date: String
    public var from: String
    public var to: String
    public var rate: String

    public init(_ rate: DayRate) {
        date = rate.day.isoString
        from = rate.from.code
        to = rate.to.code
        self.rate = rate.rate.plainString
    }

    func dayRate(index: Int) throws(TallyError) -> DayRate {
        func invalid(_ field: String, _ value: String, _ reason: String) -> TallyError {
            .importFile(line: nil, reason: "rates[\(index)].\(field) \(quoted(value)): \(reason)")
        }
        let day: Day
        do { day = try Day(parsing: date) } catch { throw invalid("date", date, error.errorDescription ?? "") }
        guard RateFile.isCode(from) else { throw invalid("from", from, "not a currency code") }
        guard RateFile.isCode(to), to != from else { throw invalid("to", to, "not another currency code") }
        let exact: ExchangeRate
        do { exact = try ExchangeRate(parsing: rate) } catch { throw invalid("rate", rate, error.errorDescription ?? "") }
        return DayRate(day: day, from: Currency(storedCode: from), to: Currency(storedCode: to), rate: exact)
    }
}
