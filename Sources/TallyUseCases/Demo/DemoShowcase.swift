import TallyCore

/// What the showcase adds to the typical months, so the demo shows every kind of budget: a
/// sinking fund saved into a savings account, a yearly budget paid once, and a subscription as a
/// recurring bill beside the rent.
struct DemoShowcase {
    static let fund = (name: "Holiday", limit: Money(cents: 150_00), target: Money(cents: 1_200_00), monthsLeft: 6)
    static let yearly = (name: "Insurance", limit: Money(cents: 540_00), bill: "Home insurance", amount: Money(cents: 486_00))
    static let subscription = (name: "Music streaming", budget: "Entertainment", amount: Money(cents: 10_99))

    let opened: Day
    let today: Day

    /// Adds the budgets, the savings account with its monthly transfers from `checking`, the yearly
    /// bill, and the subscription paid by `card` with its rule (posted with the rent's): how many
    /// budgets, accounts and entries it added.
    func add(to store: any DataAccess, checking: Account?, card: Account?, budgets: [String: Int64]) throws(TallyError) -> (budgets: Int, accounts: Int, entries: Int) {
        let start = opened.monthValue
        var savings: Account?
        if let plan = DemoData.accountPlans.first(where: { $0.kind == .savings }) {
            savings = try store.addAccount(Account(name: plan.name, kind: plan.kind, opening: plan.opening, openingDate: opened))
        }
        _ = try store.addBudget(Budget(
            name: Self.fund.name, limit: Self.fund.limit, rollover: .surplus, start: start,
            target: BudgetTarget(amount: Self.fund.target, by: today.monthValue.adding(months: Self.fund.monthsLeft), accountID: savings?.id)))
        let insurance = try store.addBudget(Budget(name: Self.yearly.name, limit: Self.yearly.limit, period: .yearly, start: start))
        _ = try store.addExpense(Expense(
            name: Self.yearly.bill, amount: Self.yearly.amount, date: (try? Day(year: start.year, month: start.month, day: 5)) ?? opened,
            budgetID: insurance.id ?? 0, tags: ["home", "fixed"], by: DemoData.people[0], accountID: checking?.id))
        var entries = 0
        if let from = checking?.id, let to = savings?.id {
            // What the fund sets aside each month moves to savings on the 2nd.
            let transfers = monthly(onDay: 2).map { Transfer(amount: Self.fund.limit, date: $0, from: from, to: to, name: "Holiday savings") }
            entries = try store.addEntries(incomes: [], transfers: transfers)
        }
        if let entertainment = budgets[Self.subscription.budget] {
            // Its months paid on the 15th, by card: `recurring post` matches each to its expense,
            // as it does the rent's, so none is posted twice and each records who paid it.
            _ = try store.addExpenses(monthly(onDay: 15).map { day in
                Expense(
                    name: Self.subscription.name, amount: Self.subscription.amount, date: day, budgetID: entertainment,
                    tags: ["fun", "fixed"], by: DemoData.people[1], accountID: card?.id)
            })
            _ = try store.addRecurringRule(RecurringRule(
                name: Self.subscription.name, budgetID: entertainment, amount: Self.subscription.amount, tags: ["fun", "fixed"],
                every: .month, day: 15, start: opened))
        }
        return (2, savings == nil ? 0 : 1, entries)
    }

    /// Day `day` of each month from `opened` through `today`.
    private func monthly(onDay day: Int) -> [Day] {
        var days: [Day] = []
        var month = opened.monthValue
        while month <= today.monthValue {
            if let date = try? Day(year: month.year, month: month.month, day: day), date >= opened, date <= today { days.append(date) }
            month = month.adding(months: 1)
        }
        return days
    }
}
