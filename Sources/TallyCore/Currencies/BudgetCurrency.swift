/// The rule for a budget in its own currency C (``Budget/currency``), written once.
///
/// Its limit, cap, later limits and target are in C, with no more decimals than C's minor unit.
/// Its spending counts each of its expenses in C:
/// - an expense paid in C counts its original amount × quantity, exactly (a three-decimal
///   currency's total rounded once, half to even, to hundredths: ``Money`` is hundredths);
/// - any other counts its ledger-currency total (``Expense/total()``) converted at the rate
///   table's rate ledger → C on the expense's own day (``RateLookup``: the latest on or before,
///   inverted or through a third currency as needed), rounded half to even to C's minor unit,
///   expense by expense. A missing rate is an error naming the pair and the day, never 1:1.
///
/// Carried, available and remaining are then ``Budget/status(viewing:in:spent:expenseCount:history:)``
/// over those amounts. The stores' caches keep summing ledger amounts (``BudgetStatus/ledgerSpent``).
public enum BudgetCurrency {
    /// What `expense` counts in a budget in `currency`, given `rates`, the table's rows of each
    /// pair's latest on or before the expense's day (``RateQuery/latestOnOrBefore``).
    public static func amount(of expense: Expense, in currency: Currency, rates: [DayRate], ledger: Currency) throws(TallyError) -> Money {
        let one = try ExchangeRate(mantissa: 1, scale: 0)
        if let original = expense.foreign?.original, original.currency == currency {
            let (total, overflow) = original.minorUnits.multipliedReportingOverflow(by: Int64(expense.quantity))
            guard !overflow, total > 0 else { throw .arithmeticOverflow }
            return try one.convert(CurrencyAmount(minorUnits: total, currency: currency), into: currency)
        }
        let total = try expense.total()
        guard total.cents > 0 else { return .zero }
        let rate = try RateLookup.rate(from: ledger, to: currency, on: expense.date, in: rates)
        return try rate.convert(
            units: UInt64(total.cents), decimals: 2, into: currency, describedAs: "\(total.plainString) \(ledger.code)")
    }

    /// Throws ``ForeignMoneyProblem/invalidAmount(_:currency:digits:)`` when an amount of `budget`
    /// has more decimals than `currency`'s minor unit (refused, never rounded).
    public static func checkAmounts(of budget: Budget, in currency: Currency) throws(TallyError) {
        let digits = try MinorUnits.digits(of: currency)
        guard digits < 2 else { return }
        let unit = Int64(MinorUnits.power(2 - digits))
        var amounts = [budget.limit] + budget.limitChanges.map(\.limit)
        if let cap = budget.cap { amounts.append(cap) }
        if let target = budget.target { amounts.append(target.amount) }
        for amount in amounts where amount.cents % unit != 0 {
            throw .foreignMoney(.invalidAmount(amount.plainString, currency: currency.code, digits: digits))
        }
    }
}

/// The rate table's rows by day, each day read once (``RateQuery/latestOnOrBefore``).
struct DayRates {
    private var byDay: [Day: [DayRate]] = [:]

    mutating func rows(on day: Day, from rows: some LedgerRows) throws(TallyError) -> [DayRate] {
        if let known = byDay[day] { return known }
        let read = try rows.rates(RateQuery(latestOnOrBefore: day))
        byDay[day] = read
        return read
    }
}

extension LedgerRows {
    /// ``budgetStatuses(for:of:)`` with the figures of each budget in its own currency counted
    /// by ``BudgetCurrency``: such a budget's expenses are read (all up to the view's end when it
    /// rolls over, else the view's days) with the rates of their days; the others cost nothing more.
    public func statuses(for month: Month, of budgets: [Budget]?) throws(TallyError) -> [BudgetStatus] {
        let statuses = try budgetStatuses(for: month, of: budgets)
        guard statuses.contains(where: { $0.budget.currency != nil }) else { return statuses }
        let settings = try settings()
        guard let ledger = settings.currency else { throw .foreignMoney(.noLedgerCurrency) }
        var rates = DayRates()
        var figured: [BudgetStatus] = []
        figured.reserveCapacity(statuses.count)
        for status in statuses {
            guard let currency = status.budget.currency, currency != ledger else {
                figured.append(status)
                continue
            }
            figured.append(try ownCurrencyStatus(of: status, in: currency, ledger: ledger, calendar: settings.calendar, rates: &rates))
        }
        return figured
    }

    /// `budget` as a store keeps it: `nil` for a currency equal to the ledger's; another currency
    /// needs the ledger to have one (``ForeignMoneyProblem/noLedgerCurrency``).
    public func keptCurrency(of budget: Budget) throws(TallyError) -> Budget {
        guard let currency = budget.currency else { return budget }
        guard let ledger = try settings().currency else { throw .foreignMoney(.noLedgerCurrency) }
        var budget = budget
        if currency == ledger { budget.currency = nil }
        return budget
    }

    /// Throws when a budget in its own currency could not count `expense` (a missing rate for
    /// its day): `add` and `edit` refuse it up front, so no report fails on it later.
    public func checkCounts(_ expense: Expense, in budget: Budget) throws(TallyError) {
        guard let currency = budget.currency, let ledger = try settings().currency, currency != ledger,
            expense.foreign?.original.currency != currency
        else { return }
        var rates = DayRates()
        _ = try BudgetCurrency.amount(of: expense, in: currency, rates: rates.rows(on: expense.date, from: self), ledger: ledger)
    }

    private func ownCurrencyStatus(
        of status: BudgetStatus, in currency: Currency, ledger: Currency, calendar: PeriodCalendar, rates: inout DayRates
    ) throws(TallyError) -> BudgetStatus {
        let budget = status.budget
        let rolls = budget.rollover != .none && budget.period != .once
        let read = rolls ? DayInterval.from(nil, to: status.days.last) : status.days
        var spent = Money.zero
        var count = 0
        var history = BudgetHistory()
        try forEachExpense(ExpenseQuery(budgetID: budget.id, days: read)) { (expense: Expense) throws(TallyError) in
            let amount = try BudgetCurrency.amount(
                of: expense, in: currency, rates: rates.rows(on: expense.date, from: self), ledger: ledger)
            if status.days.contains(expense.date) {
                spent = try spent + amount
                count += 1
            }
            if rolls { try history.add(amount, on: expense.date, of: budget, in: calendar) }
        }
        var figured = try budget.status(viewing: status.month, in: calendar, spent: spent, expenseCount: count, history: history)
        figured.ledgerSpent = status.spent
        return figured
    }
}
