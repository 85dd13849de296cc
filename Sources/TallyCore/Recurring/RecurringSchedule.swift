/// One occurrence of a rule: a bill due on a day.
public struct RecurringOccurrence: Hashable, Sendable {
    public var rule: RecurringRule
    public var date: Day
    /// Due before the day it was looked at from, and neither paid nor skipped.
    public var overdue: Bool

    public init(rule: RecurringRule, date: Day, overdue: Bool = false) {
        self.rule = rule
        self.date = date
        self.overdue = overdue
    }

    public var total: Money {
        get throws(TallyError) { try rule.total() }
    }

    /// The ordinary expense that pays it: the rule's name, amount, quantity and tags on its day.
    public func expense() -> Expense {
        Expense(
            name: rule.name, amount: rule.amount, quantity: rule.quantity, date: date, budgetID: rule.budgetID, tags: rule.tags)
    }
}

/// A rule with the name of its budget, its next due and last paid occurrence, as lists show it.
public struct RecurringRuleSummary: Hashable, Sendable {
    public var rule: RecurringRule
    public var budgetName: String
    /// The first occurrence neither paid nor skipped (overdue included).
    public var next: Day?
    public var lastPaid: Day?

    public init(rule: RecurringRule, budgetName: String, next: Day?, lastPaid: Day?) {
        self.rule = rule
        self.budgetName = budgetName
        self.next = next
        self.lastPaid = lastPaid
    }
}

/// What `recurring post` did, or would do, with one due occurrence.
public struct RecurringPost: Hashable, Sendable {
    public enum Outcome: Hashable, Sendable {
        /// A new expense was recorded; its id is `nil` on a dry run.
        case posted(Expense)
        /// An expense already recorded pays it.
        case matched(Expense)
        /// Not posted: its budget is a once budget that takes no expense of that day
        /// (``Budget/checkAccepts(_:)``); these are its days. It stays unpaid.
        case outsideBudget(DayInterval)
    }

    public var occurrence: RecurringOccurrence
    public var outcome: Outcome

    public init(occurrence: RecurringOccurrence, outcome: Outcome) {
        self.occurrence = occurrence
        self.outcome = outcome
    }
}

/// Which occurrences are due, paid or coming, and which recorded expense pays which: the rules
/// every store and `upcoming` follow.
public enum RecurringSchedule {
    /// An expense within this many days of an occurrence may pay it.
    public static let matchDays = 3

    /// Each rule's paid occurrence days.
    public static func paidDays(_ payments: [RecurringPayment]) -> [Int64: Set<Day>] {
        var paid: [Int64: Set<Day>] = [:]
        for payment in payments { paid[payment.ruleID, default: []].insert(payment.date) }
        return paid
    }

    /// Every occurrence through `last` that is neither paid nor skipped, oldest first, ties by rule id.
    public static func unpaid(_ rules: [RecurringRule], payments: [RecurringPayment], through last: Day) -> [RecurringOccurrence] {
        let paid = paidDays(payments)
        var due: [RecurringOccurrence] = []
        for rule in rules {
            let ruleID = rule.id ?? 0
            for day in rule.occurrences(from: rule.start, through: last) where !(paid[ruleID]?.contains(day) ?? false) {
                due.append(RecurringOccurrence(rule: rule, date: day))
            }
        }
        return due.sorted { ($0.date, $0.rule.id ?? 0) < ($1.date, $1.rule.id ?? 0) }
    }

    /// What `upcoming` lists: the overdue occurrences (before `today`, unpaid, not skipped) first,
    /// then the unpaid ones from `today` through `days − 1` days later, each group by date.
    /// An occurrence whose budget does not take its day (``Budget/accepts(_:)``) is never due.
    public static func upcoming(
        _ rules: [RecurringRule], payments: [RecurringPayment], today: Day, days: Int, budgets: [Budget]
    ) -> [RecurringOccurrence] {
        let last = Day(ordinal: today.ordinal + max(days, 1) - 1) ?? today
        var byID: [Int64: Budget] = [:]
        for budget in budgets { byID[budget.id ?? 0] = budget }
        let due = unpaid(rules, payments: payments, through: last).filter { byID[$0.rule.budgetID]?.accepts($0.date) ?? true }
        return due.map { occurrence in
            var occurrence = occurrence
            occurrence.overdue = occurrence.date < today
            return occurrence
        }
    }

    /// Whether `expense` may pay `occurrence`: the same budget, at most ``matchDays`` apart, and a
    /// total within 10 % of the occurrence's (exactly: |difference| × 10 ≤ the occurrence's total).
    public static func pays(_ expense: Expense, _ occurrence: RecurringOccurrence) -> Bool {
        guard expense.budgetID == occurrence.rule.budgetID,
            abs(expense.date.ordinal - occurrence.date.ordinal) <= matchDays,
            let expected = try? occurrence.total, let actual = try? expense.total()
        else { return false }
        let (difference, overflow) = actual.cents.subtractingReportingOverflow(expected.cents)
        guard !overflow else { return false }
        let (tenTimes, tooLarge) = difference.magnitude.multipliedReportingOverflow(by: 10)
        return !tooLarge && tenTimes <= expected.cents.magnitude
    }

    /// Decides, oldest occurrence first, which due occurrences an expense already recorded pays
    /// and which need a new expense. `candidates(budgetID, days)` lists the recorded expenses of a
    /// budget within some days; those in `linked` already pay an occurrence, and each expense
    /// pays at most one. The closest day wins, then the closest total, then the lowest id.
    public static func plan(
        _ due: [RecurringOccurrence], linked: Set<Int64>,
        candidates: (_ budgetID: Int64, _ days: DayInterval) throws(TallyError) -> [Expense]
    ) throws(TallyError) -> [RecurringPost] {
        var used = linked
        var posts: [RecurringPost] = []
        // One read per budget covering every window of its occurrences.
        var byBudget: [Int64: [Expense]] = [:]
        for (budgetID, occurrences) in Dictionary(grouping: due, by: \.rule.budgetID) {
            let first = occurrences.map(\.date).min() ?? occurrences[0].date
            let last = occurrences.map(\.date).max() ?? occurrences[0].date
            let window = DayInterval(
                first: Day(ordinal: first.ordinal - matchDays) ?? first, last: Day(ordinal: last.ordinal + matchDays) ?? last)
            byBudget[budgetID] = try candidates(budgetID, window)
        }
        for occurrence in due {
            let total = try occurrence.total
            let match = (byBudget[occurrence.rule.budgetID] ?? [])
                .filter { expense in !used.contains(expense.id ?? -1) && pays(expense, occurrence) }
                .min { a, b in
                    let distance = (abs(a.date.ordinal - occurrence.date.ordinal), abs(b.date.ordinal - occurrence.date.ordinal))
                    if distance.0 != distance.1 { return distance.0 < distance.1 }
                    let gap = (centsApart(a, total), centsApart(b, total))
                    if gap.0 != gap.1 { return gap.0 < gap.1 }
                    return (a.id ?? 0) < (b.id ?? 0)
                }
            if let match {
                used.insert(match.id ?? -1)
                posts.append(RecurringPost(occurrence: occurrence, outcome: .matched(match)))
            } else {
                posts.append(RecurringPost(occurrence: occurrence, outcome: .posted(occurrence.expense())))
            }
        }
        return posts
    }

    private static func centsApart(_ expense: Expense, _ total: Money) -> UInt64 {
        guard let actual = try? expense.total() else { return .max }
        let (difference, overflow) = actual.cents.subtractingReportingOverflow(total.cents)
        return overflow ? .max : difference.magnitude
    }

    /// A rule's last paid occurrence.
    public static func lastPaid(_ rule: RecurringRule, payments: [RecurringPayment]) -> Day? {
        payments.filter { $0.ruleID == rule.id }.map(\.date).max()
    }

    /// A rule's next due occurrence: the first one neither paid nor skipped, overdue included,
    /// that its budget takes (``Budget/accepts(_:)``: a once budget's days only).
    public static func next(_ rule: RecurringRule, payments: [RecurringPayment], budget: Budget?) -> Day? {
        let paid = Set(payments.filter { $0.ruleID == rule.id }.map(\.date))
        let from = budget?.range.map { max(rule.start, $0.first) } ?? rule.start
        guard let day = rule.firstDue(onOrAfter: from, excluding: paid) else { return nil }
        return budget?.accepts(day) ?? true ? day : nil
    }
}
