import Foundation

/// What money came in and what the accounts held, per period.
///
/// The one way reports read accounts: they ask for these figures inside their own read and do
/// the rest of the arithmetic (saved, savings rate, unbudgeted) themselves, so how the figures
/// are found (from the accounts' days, ``AccountDay``) can change without them.
public struct AccountFigures: Hashable, Sendable {
    /// Incomes dated within the period.
    public var income: Money
    /// Assets − liabilities at the period's last day; `nil` when no account has a balance then.
    public var netWorth: Money?
    /// The ledger has at least one account (archived included).
    public var hasAccounts: Bool

    public init(income: Money, netWorth: Money?, hasAccounts: Bool) {
        self.income = income
        self.netWorth = netWorth
        self.hasAccounts = hasAccounts
    }
}

extension LedgerRows {
    /// One per period, in order.
    ///
    /// Income is every income dated within the period, whatever its account (archived ones
    /// too); transfers move money between accounts and count in neither figure's income. Net
    /// worth adds each asset's balance at the end of the period's last day and takes away each
    /// liability's (what is owed), over the accounts that have a balance then: an account whose
    /// opening day is later has none. Sums past `Int64` throw ``TallyError/arithmeticOverflow``.
    public func accountFigures(for periods: [DayInterval]) throws(TallyError) -> [AccountFigures] {
        // Balances and income from the accounts' days: no income or transfer is read.
        let book = try accountBook(withEntries: false)
        let hasAccounts = !book.accounts.isEmpty
        var figures: [AccountFigures] = []
        figures.reserveCapacity(periods.count)
        for days in periods {
            let income = try book.income(in: days)
            var netWorth: Money?
            for account in book.accounts {
                guard let balance = try book.balance(of: account, through: days.last) else { continue }
                let held = netWorth ?? .zero
                netWorth = account.kind.isLiability ? try held - balance : try held + balance
            }
            figures.append(AccountFigures(income: income, netWorth: netWorth, hasAccounts: hasAccounts))
        }
        return figures
    }
}
