/// An exact amount of money in minor units (cents).
///
/// Money never passes through floating point: text is parsed digit by digit and
/// arithmetic is checked, so a total either is exact or fails with a typed error.
public struct Money: Hashable, Comparable, Sendable, Codable {
    public var cents: Int64

    /// The largest amount a user may type: 1,000,000,000.00.
    public static let maximumInput = Money(cents: 100_000_000_000)
    public static let zero = Money(cents: 0)

    public init(cents: Int64) {
        self.cents = cents
    }

    /// Parses `12`, `12.5` or `12.50`: digits with an optional `.` and at most two decimals.
    ///
    /// Signs, exponents, grouping separators, spaces and empty text are rejected, and so is
    /// anything above ``maximumInput``.
    public init(parsing text: String) throws(TallyError) {
        var units: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var seenPoint = false
        var integerDigits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                if seenPoint {
                    fractionDigits += 1
                    guard fractionDigits <= 2 else { throw .invalidAmount(text) }
                    fraction = fraction * 10 + digit
                } else {
                    integerDigits += 1
                    // Past the maximum the value stops growing, so Int64 cannot overflow, and the
                    // rest is still read: malformed text is invalid, however long its digits run.
                    if units <= Money.maximumInput.cents / 100 { units = units * 10 + digit }
                }
            case UInt8(ascii: "."):
                guard !seenPoint, integerDigits > 0 else { throw .invalidAmount(text) }
                seenPoint = true
            default:
                throw .invalidAmount(text)
            }
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { throw .invalidAmount(text) }
        if fractionDigits == 1 { fraction *= 10 }
        let cents = units * 100 + fraction
        guard cents <= Money.maximumInput.cents else { throw .amountOutOfRange(text) }
        self.cents = cents
    }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }

    public static func + (lhs: Money, rhs: Money) throws(TallyError) -> Money {
        let (sum, overflow) = lhs.cents.addingReportingOverflow(rhs.cents)
        guard !overflow else { throw .arithmeticOverflow }
        return Money(cents: sum)
    }

    public static func - (lhs: Money, rhs: Money) throws(TallyError) -> Money {
        let (difference, overflow) = lhs.cents.subtractingReportingOverflow(rhs.cents)
        guard !overflow else { throw .arithmeticOverflow }
        return Money(cents: difference)
    }

    public func multiplied(by factor: Int64) throws(TallyError) -> Money {
        let (product, overflow) = cents.multipliedReportingOverflow(by: factor)
        guard !overflow else { throw .arithmeticOverflow }
        return Money(cents: product)
    }

    /// Sums exactly, failing instead of wrapping around.
    public static func sum(_ amounts: some Sequence<Money>) throws(TallyError) -> Money {
        var total = Money.zero
        for amount in amounts { total = try total + amount }
        return total
    }

    /// `1234.50`: the form used in JSON and CSV, without grouping.
    public var plainString: String { format(grouped: false) }

    /// `1,234.50`: the form used in tables.
    public var groupedString: String { format(grouped: true) }

    private func format(grouped: Bool) -> String {
        // magnitude avoids the overflow of negating Int64.min.
        let magnitude = cents.magnitude
        let units = String(magnitude / 100)
        let fraction = magnitude % 100
        var integerPart = ""
        if grouped {
            for (index, character) in units.enumerated() {
                if index > 0, (units.count - index) % 3 == 0 { integerPart.append(",") }
                integerPart.append(character)
            }
        } else {
            integerPart = units
        }
        let sign = cents < 0 ? "-" : ""
        return "\(sign)\(integerPart).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

extension Money: CustomStringConvertible {
    public var description: String { plainString }
}
