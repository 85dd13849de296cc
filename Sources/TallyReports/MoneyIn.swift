import TallyCore

/// A period's money in against its spending, with what the accounts held at its end: computed
/// once from the store's ``AccountFigures`` and the report's spending, drawn by every renderer.
///
/// - saved = income − spending (negative when more went out than came in);
/// - savings rate = saved ÷ income, `nil` without income;
/// - net worth as ``AccountFigures/netWorth``: assets − liabilities at the period's last day.
public struct MoneyIn: Hashable, Sendable {
    /// Incomes dated within the period; transfers are not income.
    public var income: Money
    /// What the report counts as spent in the period (its total).
    public var spending: Money
    public var saved: Money
    public var savingsRate: SavingsRate?
    /// `nil` when no account has a balance at the period's end.
    public var netWorth: Money?

    public init(income: Money, spending: Money, netWorth: Money?) throws(TallyError) {
        self.income = income
        self.spending = spending
        saved = try income - spending
        savingsRate = try SavingsRate(saved: saved, of: income)
        self.netWorth = netWorth
    }

    /// No income, no spending, no accounts: what a report without figures carries.
    public static let none = MoneyIn(income: .zero, spending: .zero, saved: .zero, savingsRate: nil, netWorth: nil)

    private init(income: Money, spending: Money, saved: Money, savingsRate: SavingsRate?, netWorth: Money?) {
        self.income = income
        self.spending = spending
        self.saved = saved
        self.savingsRate = savingsRate
        self.netWorth = netWorth
    }
}

/// Saved over income as whole basis points (10,000 is 100 %), rounded toward zero: `share`'s
/// rule (integer division of cents × 10,000), with a sign, since more may go out than came in.
public struct SavingsRate: Hashable, Sendable {
    public var basisPoints: Int64

    public init(basisPoints: Int64) {
        self.basisPoints = basisPoints
    }

    /// `nil` without income (zero or less); ``TallyError/arithmeticOverflow`` when `saved` × 10,000
    /// passes `Int64`.
    public init?(saved: Money, of income: Money) throws(TallyError) {
        guard income.cents > 0 else { return nil }
        let (product, overflow) = saved.cents.multipliedReportingOverflow(by: 10_000)
        guard !overflow else { throw .arithmeticOverflow }
        basisPoints = product / income.cents
    }

    /// `0.2500`, `-0.1250`: the ratio with four decimals, as JSON carries `share`.
    public var ratioString: String {
        let magnitude = basisPoints.magnitude
        let fraction = String(magnitude % 10_000)
        return "\(basisPoints < 0 ? "-" : "")\(magnitude / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// `25.0%`, `-12.5%`: percent to one decimal, toward zero.
    public var percentString: String {
        let tenths = basisPoints / 10
        return "\(tenths < 0 ? "-" : "")\(tenths.magnitude / 10).\(tenths.magnitude % 10)%"
    }
}
