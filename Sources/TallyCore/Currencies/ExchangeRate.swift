/// An exact decimal rate: `mantissa / 10^scale`, positive, at most ``maximumScale`` fractional
/// digits. Read as "one unit of the `from` currency is worth this many units of the `to`
/// currency" (an expense's rate: ledger units per one foreign unit). Never a Double.
public struct ExchangeRate: Hashable, Sendable, Codable {
    public static let maximumScale = 12
    public let mantissa: Int64
    public let scale: Int

    /// A rate in lowest terms (no trailing fractional zeros), so equal rates compare equal.
    public init(mantissa: Int64, scale: Int) throws(TallyError) {
        guard mantissa > 0, (0...ExchangeRate.maximumScale).contains(scale) else {
            throw .foreignMoney(.invalidRate("\(mantissa)e-\(scale)"))
        }
        var mantissa = mantissa
        var scale = scale
        while scale > 0, mantissa % 10 == 0 {
            mantissa /= 10
            scale -= 1
        }
        self.mantissa = mantissa
        self.scale = scale
    }

    /// Parses `161.54`, `0.0061`, `1`: digits with an optional `.`, at most 12 decimals, above zero.
    public init(parsing text: String) throws(TallyError) {
        let invalid = TallyError.foreignMoney(.invalidRate(text))
        var mantissa: Int64 = 0
        var scale = 0
        var seenPoint = false
        var digits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { throw invalid }
                mantissa = sum
                digits += 1
                if seenPoint { scale += 1 }
            case UInt8(ascii: "."):
                guard !seenPoint, digits > 0 else { throw invalid }
                seenPoint = true
            default:
                throw invalid
            }
        }
        guard digits > 0, scale <= ExchangeRate.maximumScale, mantissa > 0, !(seenPoint && scale == 0) else { throw invalid }
        try self.init(mantissa: mantissa, scale: scale)
    }

    /// The largest rate a person may type (`--rate`, `rates set`): a slip of the keyboard, not a
    /// currency. A rates file is not bounded: the ECB history quotes the old Turkish lira at more
    /// than 1,000,000 a euro.
    public static let maximumTyped: Int64 = 1_000_000

    /// A rate typed by hand: ``init(parsing:)``, and at most ``maximumTyped``.
    public init(typed text: String) throws(TallyError) {
        try self.init(parsing: text)
        // scale ≤ 12, so the bound times 10^scale stays below Int64's 9.2 × 10^18.
        var bound = Self.maximumTyped
        for _ in 0..<scale { bound *= 10 }
        guard mantissa <= bound else { throw .foreignMoney(.typedRateTooLarge(text)) }
    }

    /// `161.54`, `0.0061`, `1`: the exact decimal, as parsed back by ``init(parsing:)``.
    public var plainString: String {
        // A rate import writes some 200,000 of these twice (the row and its undo image): written
        // digit by digit into the string's own storage.
        if mantissa > 0, (0...ExchangeRate.maximumScale).contains(scale) {
            return String(unsafeUninitializedCapacity: 32) { buffer in
                var digitCount = 1
                var probe = mantissa
                while probe >= 10 {
                    probe /= 10
                    digitCount += 1
                }
                let integerDigits = max(digitCount - scale, 1)
                let count = integerDigits + (scale > 0 ? scale + 1 : 0)
                var rest = mantissa
                var index = count
                for _ in 0..<scale {
                    index -= 1
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                if scale > 0 {
                    index -= 1
                    buffer[index] = UInt8(ascii: ".")
                }
                for _ in 0..<integerDigits {
                    index -= 1
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                return count
            }
        }
        let text = String(mantissa)
        guard scale > 0 else { return text }
        let padded = String(repeating: "0", count: max(0, scale + 1 - text.count)) + text
        let split = padded.index(padded.endIndex, offsetBy: -scale)
        return "\(padded[..<split]).\(padded[split...])"
    }

    /// `amount` in the currency `ledger` at this rate, rounded half-even to the ledger's minor
    /// unit (to hundredths for a ledger whose unit is smaller: ``Money`` is hundredths):
    /// units = round(minor × mantissa × 10^d / 10^(scale + foreignDigits)), d = min(ledger's digits, 2),
    /// computed in 128 bits. Too large a result is ``ForeignMoneyProblem/conversionOverflow(_:)``.
    public func convert(_ amount: CurrencyAmount, into ledger: Currency) throws(TallyError) -> Money {
        guard amount.minorUnits > 0 else { throw .foreignMoney(.conversionOverflow(amount.description)) }
        return try convert(
            units: UInt64(amount.minorUnits), decimals: try MinorUnits.digits(of: amount.currency), into: ledger,
            describedAs: amount.description)
    }

    /// ``convert(_:into:)`` of `units` with `decimals` decimals (a ``Money``'s cents have 2): a
    /// budget's own currency converts ledger amounts this way, whatever the ledger's minor unit.
    func convert(units: UInt64, decimals foreignDigits: Int, into ledger: Currency, describedAs label: String) throws(TallyError) -> Money {
        let overflow = TallyError.foreignMoney(.conversionOverflow(label))
        let digits = min(try MinorUnits.digits(of: ledger), 2)
        var wide = Wide(units)
        guard wide.multiply(by: UInt64(mantissa)), wide.multiply(by: MinorUnits.power(digits)) else { throw overflow }
        guard let units = wide.dividedRoundingHalfEven(by: MinorUnits.power(scale + foreignDigits)) else { throw overflow }
        let (cents, overflowed) = units.multipliedReportingOverflow(by: MinorUnits.power(2 - digits))
        guard !overflowed, cents <= UInt64(Int64.max) else { throw overflow }
        return Money(cents: Int64(cents))
    }

    /// 1 / rate, rounded half-even to 12 fractional digits (fewer above 9,223,372, see
    /// ``quotient(numerator:numeratorScale:by:)``): the rate the other way.
    public func inverted() throws(TallyError) -> ExchangeRate {
        try ExchangeRate.quotient(numerator: 1, numeratorScale: 0, by: self)
    }

    /// `a / b` for two rates, rounded half-even to 12 fractional digits: the cross rate through a shared currency.
    public static func quotient(_ a: ExchangeRate, by b: ExchangeRate) throws(TallyError) -> ExchangeRate {
        try quotient(numerator: UInt64(a.mantissa), numeratorScale: a.scale, by: b)
    }

    /// `a × b`, rounded half-even to 12 fractional digits.
    public static func product(_ a: ExchangeRate, _ b: ExchangeRate) throws(TallyError) -> ExchangeRate {
        let overflow = TallyError.foreignMoney(.conversionOverflow("the rate \(a.plainString) × \(b.plainString)"))
        var wide = Wide(UInt64(a.mantissa))
        guard wide.multiply(by: UInt64(b.mantissa)) else { throw overflow }
        let scale = a.scale + b.scale
        if scale <= maximumScale {
            guard let exact = wide.dividedRoundingHalfEven(by: 1), exact <= UInt64(Int64.max) else { throw overflow }
            return try ExchangeRate(mantissa: Int64(exact), scale: scale)
        }
        guard let rounded = wide.dividedRoundingHalfEven(by: MinorUnits.power(scale - maximumScale)), rounded <= UInt64(Int64.max), rounded > 0
        else { throw overflow }
        return try ExchangeRate(mantissa: Int64(rounded), scale: maximumScale)
    }

    /// (n / 10^ns) / (b.mantissa / 10^b.scale) at s digits = round(n × 10^(s + b.scale − ns) / b.mantissa),
    /// s = 12, or the most digits below 12 whose mantissa fits 64 bits (a rate above 9,223,372).
    static func quotient(numerator: UInt64, numeratorScale: Int, by b: ExchangeRate) throws(TallyError) -> ExchangeRate {
        for scale in stride(from: maximumScale, through: 0, by: -1) {
            var exponent = scale + b.scale - numeratorScale
            guard exponent >= 0 else { break }
            var wide = Wide(numerator)
            var fits = true
            while exponent > 0, fits {
                let step = min(exponent, 18)
                fits = wide.multiply(by: MinorUnits.power(step))
                exponent -= step
            }
            if fits, let rounded = wide.dividedRoundingHalfEven(by: UInt64(b.mantissa)), rounded <= UInt64(Int64.max) {
                guard rounded > 0 else { break }
                return try ExchangeRate(mantissa: Int64(rounded), scale: scale)
            }
        }
        throw .foreignMoney(.conversionOverflow("the rate \(numerator)e-\(numeratorScale) / \(b.plainString)"))
    }
}

/// An unsigned 128-bit number as two words: enough for minor units × mantissa × 100.
struct Wide {
    var high: UInt64 = 0
    var low: UInt64

    init(_ value: UInt64) { low = value }

    /// Multiplies in place; false when the product needs more than 128 bits.
    mutating func multiply(by factor: UInt64) -> Bool {
        let (lowHigh, lowLow) = low.multipliedFullWidth(by: factor)
        let (highProduct, overflow1) = high.multipliedReportingOverflow(by: factor)
        let (newHigh, overflow2) = highProduct.addingReportingOverflow(lowHigh)
        guard !overflow1, !overflow2 else { return false }
        high = newHigh
        low = lowLow
        return true
    }

    /// The quotient rounded half to even, or nil when it needs more than 64 bits.
    func dividedRoundingHalfEven(by divisor: UInt64) -> UInt64? {
        guard divisor > 0, high < divisor else { return nil }
        let (quotient, remainder) = divisor.dividingFullWidth((high, low))
        // Compare 2 × remainder with the divisor without overflowing: remainder < divisor.
        let half = divisor - remainder
        let roundUp = remainder > half || (remainder == half && quotient & 1 == 1)
        guard roundUp else { return quotient }
        let (next, overflow) = quotient.addingReportingOverflow(1)
        return overflow ? nil : next
    }
}
