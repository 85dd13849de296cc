/// An amount in any currency, in that currency's own ISO 4217 minor units (``MinorUnits``):
/// 4500 JPY is 4500, 12.50 EUR is 1250, 1.250 BHD is 1250. Never a Double.
public struct CurrencyAmount: Hashable, Sendable, Codable {
    public var minorUnits: Int64
    public var currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// The amount `factor` times (an expense's quantity), or ``TallyError/arithmeticOverflow``.
    public func multiplied(by factor: Int64) throws(TallyError) -> CurrencyAmount {
        let (units, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw .arithmeticOverflow }
        return CurrencyAmount(minorUnits: units, currency: currency)
    }

    /// The largest amount in whole units a user may type, as for ``Money/maximumInput``.
    public static let maximumUnits: Int64 = 1_000_000_000_000

    /// Parses plain digits with an optional `.` and at most the currency's decimals (`4500` JPY,
    /// `12.5` EUR, `1.250` BHD); more decimals than the currency has are refused, not rounded.
    public init(parsing text: String, currency: Currency) throws(TallyError) {
        let digits = try MinorUnits.digits(of: currency)
        let invalid = TallyError.foreignMoney(.invalidAmount(text, currency: currency.code, digits: digits))
        var units: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var integerDigits = 0
        var seenPoint = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if seenPoint {
                    fractionDigits += 1
                    guard fractionDigits <= digits else { throw invalid }
                    fraction = fraction * 10 + digit
                } else {
                    integerDigits += 1
                    // Stops growing past the maximum, so Int64 cannot overflow while the rest is read.
                    if units <= CurrencyAmount.maximumUnits { units = units * 10 + digit }
                }
            case UInt8(ascii: "."):
                guard !seenPoint, integerDigits > 0 else { throw invalid }
                seenPoint = true
            default:
                throw invalid
            }
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { throw invalid }
        guard units <= CurrencyAmount.maximumUnits else { throw .amountOutOfRange(text) }
        let scale = Int64(MinorUnits.power(digits))
        fraction *= Int64(MinorUnits.power(digits - fractionDigits))
        minorUnits = units * scale + fraction
        self.currency = currency
        guard minorUnits > 0 else { throw .foreignMoney(.invalidAmount(text, currency: currency.code, digits: digits)) }
    }

    /// The amount with exactly its currency's decimals and a `.`: `4500`, `12.50`, `1.250`.
    public var plainString: String {
        let digits = (try? MinorUnits.digits(of: currency)) ?? 2
        guard digits > 0 else { return String(minorUnits) }
        let scale = Int64(MinorUnits.power(digits))
        let magnitude = minorUnits.magnitude
        let fraction = String(magnitude % UInt64(scale))
        let sign = minorUnits < 0 ? "-" : ""
        return "\(sign)\(magnitude / UInt64(scale)).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    /// `4500 JPY`, `12.50 EUR`: how lists and messages show an original amount.
    public var description: String { "\(plainString) \(currency.code)" }
}
