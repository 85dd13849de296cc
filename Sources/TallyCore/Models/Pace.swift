/// "Am I on track right now?": a budget's pace in the current period. A plain function of
/// values (its status, today, and what its recurring bills paid and still owe in the period),
/// so every surface shows the same figures.
public struct BudgetPace: Hashable, Sendable {
    /// No projection before this share of the period has passed: too few days to extrapolate.
    public static let earliestProjection = Share(basisPoints: 1_000)

    /// The days the pace is reckoned over: the period, a yearly budget's whole year, a once
    /// budget's range.
    public let days: DayInterval
    /// The share of those days gone, today included (0–1).
    public let elapsed: Share
    /// Spending at the end of the days: what was spent so far that no recurring bill paid,
    /// extended at its daily rate over all the days, plus every bill of the days (paid or still
    /// due). `nil` before ``earliestProjection``. On the last day: spent plus what is still due.
    public let projected: Money?
    /// What can still be spent per day left (today included) after the bills still due:
    /// (available − spent − due) / days left, never below 0, rounded down to the cent.
    public let perDay: Money
    /// The bills of the days not yet paid or skipped.
    public let billsDue: Money

    /// The pace of `status` on `today`, or `nil` when `today` is outside `days` (a past or
    /// future period, which has no pace). `billsPaid` is what the expenses that paid a bill of
    /// the days add up to; `billsDue` what its unpaid, unskipped bills come to.
    public init?(status: BudgetStatus, days: DayInterval, today: Day, billsPaid: Money, billsDue: Money) throws(TallyError) {
        guard days.contains(today) else { return nil }
        let total = Int64(days.last.ordinal - days.first.ordinal + 1)
        let gone = Int64(today.ordinal - days.first.ordinal + 1)
        self.days = days
        self.billsDue = billsDue
        elapsed = Share(basisPoints: gone * 10_000 / total)
        if elapsed < BudgetPace.earliestProjection {
            projected = nil
        } else {
            let ownSpending = try status.spent - billsPaid
            let (scaled, overflow) = ownSpending.cents.multipliedReportingOverflow(by: total)
            guard !overflow else { throw .arithmeticOverflow }
            projected = try Money(cents: scaled / gone) + billsPaid + billsDue
        }
        let left = try status.available - status.spent - billsDue
        let daysLeft = total - gone + 1
        perDay = left.cents > 0 ? Money(cents: left.cents / daysLeft) : .zero
    }

    /// Whether the budget is on course to end over what it has available.
    public func isProjectedOver(_ status: BudgetStatus) -> Bool {
        projected.map { $0 > status.available } ?? false
    }
}

extension Budget {
    /// The days a budget's pace is reckoned over in the view of `month`: a yearly budget's whole
    /// year (its limit is the year's), otherwise the days its figures cover.
    public func paceDays(viewing month: Month, in calendar: PeriodCalendar) -> DayInterval {
        guard period == .yearly else { return days(viewing: month, in: calendar) }
        return calendar.days(ofYear: periodKey(of: month).year)
    }
}

extension RecurringSchedule {
    /// A budget's bills within `days`: what the expenses that paid them add up to (`paidBy`
    /// holds those expenses by id; only those of the budget dated within the days count) and
    /// what its unpaid, unskipped occurrences within the days come to.
    public static func bills(
        of budgetID: Int64, in days: DayInterval, rules: [RecurringRule], payments: [RecurringPayment], paidBy: [Int64: Expense]
    ) throws(TallyError) -> (paid: Money, due: Money) {
        var paid = Money.zero
        var counted = Set<Int64>()
        for payment in payments {
            guard let id = payment.expenseID, let expense = paidBy[id], expense.budgetID == budgetID, days.contains(expense.date),
                counted.insert(id).inserted
            else { continue }
            paid = try paid + expense.total()
        }
        let paidDays = paidDays(payments)
        var due = Money.zero
        for rule in rules where rule.budgetID == budgetID {
            for day in rule.occurrences(from: days.first, through: days.last) where !(paidDays[rule.id ?? 0]?.contains(day) ?? false) {
                due = try due + rule.total()
            }
        }
        return (paid, due)
    }
}

/// Reads what `BudgetPace` needs from a store, for every surface (lists, report, check): the rules, their payments and the expenses that
/// paid the bills of the days looked at. Only the payments near those days are read back.
extension DataAccess {
    /// Each status's pace on `today` by budget id; absent for a budget whose days do not hold today.
    public func paces(for statuses: [BudgetStatus], today: Day, calendar: PeriodCalendar) throws(TallyError) -> [Int64: BudgetPace] {
        // A budget in its own currency has no pace: its recurring bills are in the ledger's.
        let spans = statuses.filter { $0.budget.currency == nil }.map { ($0, $0.budget.paceDays(viewing: $0.month, in: calendar)) }
            .filter { $0.1.contains(today) }
        guard !spans.isEmpty else { return [:] }
        let (rules, payments) = try recurring()
        var paidBy: [Int64: Expense] = [:]
        if !payments.isEmpty, let first = spans.map(\.1.first).min(), let last = spans.map(\.1.last).max() {
            // A matched expense may lie a few days from its occurrence.
            let near = DayInterval(
                first: Day(ordinal: first.ordinal - RecurringSchedule.matchDays) ?? first,
                last: Day(ordinal: last.ordinal + RecurringSchedule.matchDays) ?? last)
            // One read for all of them: a read each would cost a report one query per payment.
            let ids = payments.compactMap { near.contains($0.date) ? $0.expenseID : nil }
            for expense in try expenses(ids: ids) { paidBy[expense.id ?? 0] = expense }
        }
        var paces: [Int64: BudgetPace] = [:]
        for (status, days) in spans {
            let id = status.budget.id ?? 0
            let bills = try RecurringSchedule.bills(of: id, in: days, rules: rules, payments: payments, paidBy: paidBy)
            paces[id] = try BudgetPace(status: status, days: days, today: today, billsPaid: bills.paid, billsDue: bills.due)
        }
        return paces
    }
}

