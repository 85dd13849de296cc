/// What a bank statement says of a charge made in another currency: the amount it booked (the
/// charged amount, authoritative) and the original, with or without the rate it applied. The
/// rules that turn that into an expense's ``ForeignCharge`` live here, beside
/// ``ExchangeRate/convert(_:into:)``, whose rounding they invert.
extension ExchangeRate {
    /// The original amount in `currency` that this rate turns into `charged`: charged / rate,
    /// rounded half-even to `currency`'s minor unit (what a file gives when it states only the
    /// booked amount and the rate, as OFX's `ORIGCURRENCY` does). `charged` is positive.
    public func original(of charged: Money, in currency: Currency) throws(TallyError) -> CurrencyAmount {
        let overflow = TallyError.foreignMoney(.conversionOverflow("\(charged.plainString) at the rate \(plainString)"))
        guard charged.cents > 0 else { throw overflow }
        // units = cents × 10^(digits + scale) / (100 × mantissa)
        let digits = try MinorUnits.digits(of: currency)
        var wide = Wide(UInt64(charged.cents))
        guard wide.multiply(by: MinorUnits.power(digits + scale)) else { throw overflow }
        let (divisor, overflowed) = UInt64(mantissa).multipliedReportingOverflow(by: 100)
        guard !overflowed, let units = wide.dividedRoundingHalfEven(by: divisor), units > 0, units <= UInt64(Int64.max) else { throw overflow }
        return CurrencyAmount(minorUnits: Int64(units), currency: currency)
    }
}

extension ForeignCharge {
    /// The charge of a booked amount `charged` (in `ledger`, positive) for `original`, with a
    /// rate that gives back exactly `charged` under ``ExchangeRate/convert(_:into:)``: the
    /// rate the bank states when it does, else charged / original (rounded half-even to 12
    /// decimals, which reproduces any amount below some 10^9 units). The rate is `given`, as
    /// the card charged it, so `rates reapply` leaves it.
    public static func booked(_ charged: Money, original: CurrencyAmount, stated: ExchangeRate?, in ledger: Currency) throws(TallyError) -> ForeignCharge {
        if let stated, try stated.convert(original, into: ledger) == charged {
            return ForeignCharge(original: original, rate: stated, source: .given)
        }
        let overflow = TallyError.foreignMoney(.conversionOverflow("\(charged.plainString) for \(original.description)"))
        guard charged.cents > 0, original.minorUnits > 0 else { throw overflow }
        let units = try ExchangeRate(mantissa: original.minorUnits, scale: try MinorUnits.digits(of: original.currency))
        let rate = try ExchangeRate.quotient(numerator: UInt64(charged.cents), numeratorScale: 2, by: units)
        guard try rate.convert(original, into: ledger) == charged else { throw overflow }
        return ForeignCharge(original: original, rate: rate, source: .given)
    }
}

extension CurrencyAmount {
    /// `amount` (hundredths, as statements and ``Money`` keep them) in `currency`'s own minor
    /// units, unsigned: 4500.00 JPY is 4500, 12.50 BHD is 12500. An amount with cents its
    /// currency does not have (4500.50 JPY) is ``ForeignMoneyProblem/invalidAmount(_:currency:digits:)``.
    public init(hundredths amount: Money, currency: Currency) throws(TallyError) {
        let digits = try MinorUnits.digits(of: currency)
        let cents = amount.cents.magnitude
        let units: UInt64
        if digits >= 2 {
            let (scaled, overflow) = cents.multipliedReportingOverflow(by: MinorUnits.power(digits - 2))
            guard !overflow, scaled <= UInt64(Int64.max) else { throw .foreignMoney(.conversionOverflow(amount.plainString)) }
            units = scaled
        } else {
            let divisor = MinorUnits.power(2 - digits)
            guard cents % divisor == 0 else {
                throw .foreignMoney(.invalidAmount(Money(cents: Int64(cents)).plainString, currency: currency.code, digits: digits))
            }
            units = cents / divisor
        }
        self.init(minorUnits: Int64(units), currency: currency)
    }
}
