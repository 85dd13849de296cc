/// A run of consecutive periods, each named for the month it starts in: what a report over time
/// covers. At most ``maximumCount`` periods, so a typo such as `--from 1026-01` fails instead of
/// reading a thousand years.
public struct PeriodRange: Hashable, Sendable {
    /// Ten years of periods.
    public static let maximumCount = 120

    public let first: Month
    public let last: Month

    public init(from first: Month, to last: Month) throws(TallyError) {
        guard first <= last else { throw .periodRangeReversed(from: first, to: last) }
        let count = PeriodRange.count(from: first, to: last)
        guard count <= PeriodRange.maximumCount else { throw .periodRangeTooLong(from: first, to: last, count: count) }
        self.first = first
        self.last = last
    }

    /// The twelve periods of `year`.
    public init(year: Int) throws(TallyError) {
        try self.init(from: Month(year: year, month: 1), to: Month(year: year, month: 12))
    }

    private init(unchecked first: Month, _ last: Month) {
        self.first = first
        self.last = last
    }

    public var count: Int { PeriodRange.count(from: first, to: last) }

    /// Every period, in order.
    public var months: [Month] { Spending.months(in: first...last) }

    public var closed: ClosedRange<Month> { first...last }

    /// The range of the same length that ends just before this one starts.
    public var previous: PeriodRange {
        PeriodRange(unchecked: first.adding(months: -count), first.adding(months: -1))
    }

    /// The same periods a year earlier.
    public var yearEarlier: PeriodRange {
        PeriodRange(unchecked: first.adding(months: -12), last.adding(months: -12))
    }

    private static func count(from first: Month, to last: Month) -> Int {
        (last.year - first.year) * 12 + last.month - first.month + 1
    }
}

/// How a figure moved against a base: the amount, and the ratio to the base in signed basis
/// points, absent when the base is zero and no ratio exists.
///
/// A change is not a gauge, so it rounds to the nearest, halves away from zero: 0.15 ÷ 1.10 is
/// 0.1364 and shows `+13.6%`. A share of a limit (``Share``) rounds down instead, so it shows
/// 100 % only once the limit is reached.
public struct Change: Hashable, Sendable {
    public let base: Money
    public let amount: Money
    public let basisPoints: Int64?

    public init(from base: Money, to current: Money) throws(TallyError) {
        self.base = base
        amount = try current - base
        guard base.cents != 0 else {
            basisPoints = nil
            return
        }
        let (product, overflow) = amount.cents.multipliedReportingOverflow(by: 10_000)
        guard !overflow else { throw .arithmeticOverflow }
        basisPoints = Change.rounded(product, over: base.cents)
    }

    /// `numerator ÷ denominator` to the nearest whole number, halves away from zero.
    static func rounded(_ numerator: Int64, over denominator: Int64) -> Int64 {
        let quotient = numerator / denominator
        let remainder = (numerator % denominator).magnitude
        guard remainder * 2 >= denominator.magnitude else { return quotient }
        return (numerator < 0) != (denominator < 0) ? quotient - 1 : quotient + 1
    }

    /// `+62.5%`, `-0.4%`, `0.0%`: percent to one decimal, to the nearest (halves away from
    /// zero); `nil` without a base.
    public var percentString: String? {
        basisPoints.map { points in
            let tenths = Change.rounded(points, over: 10)
            let sign = tenths > 0 ? "+" : tenths < 0 ? "-" : ""
            return "\(sign)\(tenths.magnitude / 10).\(tenths.magnitude % 10)%"
        }
    }

    /// `0.6250`, `-0.0500`: the ratio with four decimals as JSON carries it; `nil` without a base.
    public var ratioString: String? {
        basisPoints.map { points in
            let magnitude = points.magnitude
            let fraction = String(magnitude % 10_000)
            return "\(points < 0 ? "-" : "")\(magnitude / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
        }
    }
}

extension Money {
    /// `total` spread evenly over `count` periods, rounded toward zero to the cent: the figure a
    /// report's "average per period" shows. Zero periods average zero.
    public static func average(of total: Money, over count: Int) -> Money {
        guard count > 0 else { return .zero }
        return Money(cents: total.cents / Int64(count))
    }
}
