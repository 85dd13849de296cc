import ArgumentParser
import TallyCore

/// An expense's amount as typed: in the ledger's currency, or in another one (`4500 JPY`,
/// `¥4500`, `--currency JPY`), which the use case converts.
enum TypedAmount: Equatable {
    case ledger(Money)
    case foreign(CurrencyAmount)

    /// The ledger amount and the original: a foreign amount's ledger amount is a placeholder
    /// until the use case converts it, once the ledger's currency and rates are read.
    var parts: (ledger: Money, original: CurrencyAmount?) {
        switch self {
        case .ledger(let money): (money, nil)
        case .foreign(let foreign): (Money(cents: 1), foreign)
        }
    }
}

extension ArgumentValue {
    /// `text` with `--currency` (`currency`): a currency named in the text or by the option makes
    /// an amount in that currency, read with its own minor unit (`4500.5 JPY` is refused); two
    /// different currencies are a usage error. The locale's decimal sign works as for any amount.
    static func typedAmount(_ text: String, currency: String?) throws(ValidationError) -> TypedAmount {
        let (code, number) = AmountText.split(text)
        if code == nil, let sign = AmountText.sharedSign(in: text) {
            throw ValidationError(TallyError.foreignMoney(.sharedSign(text, sign: sign)).message)
        }
        let named = try currency.map { (text: String) throws(ValidationError) in try check(text, Currency.init(code:)) }
        guard let code else {
            guard let named else { return .ledger(try amount(text)) }
            return .foreign(try foreignAmount(text, named))
        }
        let written = try check(code, Currency.init(code:))
        if let named, named != written { throw ValidationError(TallyError.foreignMoney(.conflictingCurrencies(written.code, named.code)).message) }
        return .foreign(try foreignAmount(number, written))
    }

    /// `number` in `currency`'s minor units; the locale's decimal sign becomes `.` first.
    static func foreignAmount(_ number: String, _ currency: Currency) throws(ValidationError) -> CurrencyAmount {
        let plain = try check(number) { (text: String) throws(TallyError) in try Preferences.current.plainDecimal(text) }
        return try check(plain) { (text: String) throws(TallyError) in try CurrencyAmount(parsing: text, currency: currency) }
    }

    /// A rate as `--rate` or `rates set` gives it, typed by hand: ledger units per one unit of
    /// the other currency.
    static func rate(_ text: String) throws(ValidationError) -> ExchangeRate {
        try check(text) { (text: String) throws(TallyError) in try ExchangeRate(typed: text) }
    }
}

extension Preferences {
    /// `text` with the locale's decimal sign (`12,50` in `de_DE`) as `.`; plain digits never load ICU.
    func plainDecimal(_ text: String) throws(TallyError) -> String {
        guard locale != nil, !text.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return text }
        let separator = moneyFormat(currency: nil).decimalSeparator
        guard separator != ".", text.contains(separator), !text.contains(".") else { return text }
        return text.replacingOccurrences(of: separator, with: ".")
    }
}
