/// Spent over limit as whole basis points (10,000 is 100 %), rounded down.
///
/// Rounding down means a budget shows 100 % only once it is fully used.
public struct Share: Hashable, Comparable, Sendable {
    public var basisPoints: Int64

    public init(basisPoints: Int64) {
        self.basisPoints = basisPoints
    }

    /// The share of `limit` that `spent` uses; zero when there is no limit.
    public init(spent: Money, of limit: Money) {
        guard limit.cents > 0, spent.cents > 0 else {
            basisPoints = 0
            return
        }
        let (product, overflow) = spent.cents.multipliedReportingOverflow(by: 10_000)
        basisPoints = overflow ? Int64.max : product / limit.cents
    }

    public static func < (lhs: Share, rhs: Share) -> Bool { lhs.basisPoints < rhs.basisPoints }

    /// Whole percent, rounded down: `85` for 85.23 %.
    public var wholePercent: Int64 { basisPoints / 100 }

    /// `0.8523`: the exact ratio with four decimals, as JSON carries it.
    public var ratioString: String {
        let units = basisPoints / 10_000
        let fraction = String(basisPoints % 10_000)
        return "\(units).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// `85%`.
    public var percentString: String { "\(wholePercent)%" }
}
