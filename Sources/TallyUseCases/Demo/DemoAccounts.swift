import TallyCore

/// The demo's accounts and the money that moves between them: a pay cheque and small incomes
/// into checking, savings and card payments out of it, and expenses paid from checking, the card
/// and cash.
extension DemoData {
    struct AccountPlan {
        let name: String
        let kind: AccountKind
        let opening: Money
    }

    /// The first `count` of these are made, in this order.
    static let accountPlans: [AccountPlan] = [
        AccountPlan(name: "Checking", kind: .checking, opening: Money(cents: 2_400_00)),
        AccountPlan(name: "Visa", kind: .credit, opening: Money(cents: 180_00)),
        AccountPlan(name: "Savings", kind: .savings, opening: Money(cents: 8_000_00)),
        AccountPlan(name: "Cash", kind: .cash, opening: Money(cents: 60_00)),
        AccountPlan(name: "Car loan", kind: .loan, opening: Money(cents: 9_500_00)),
    ]

    static let incomeNames = ["Salary", "Freelance", "Interest", "Refund", "Gift"]

    /// Who pays what: expenses from checking, the card or cash, whichever exist.
    static func spendingAccounts(_ accounts: [Account]) -> [Int64] {
        accounts.filter { $0.kind != .savings && $0.kind != .loan }.compactMap(\.id)
    }

    /// One of `accounts`, at random.
    mutating func account(of accounts: [Int64]) -> Int64? {
        accounts.isEmpty ? nil : accounts[random.next(below: accounts.count)]
    }

    /// `count` incomes into `account` over `months` months ending with `today`'s: a salary on the
    /// first of each month, the rest small amounts on random days.
    mutating func incomes(count: Int, into account: Int64, months: Int, today: Day) -> [Income] {
        var incomes: [Income] = []
        incomes.reserveCapacity(count)
        for index in 0..<count {
            // The first of each month's share is its salary, on the first.
            let salary = index * months % max(count, 1) < months
            let date = day(index, of: count, months: months, today: today, first: salary)
            let cents: Int64 = salary ? 3_200_00 : Int64(5_00 + random.next(below: 400_00))
            let name = salary ? "Salary" : Self.incomeNames[1 + random.next(below: Self.incomeNames.count - 1)]
            incomes.append(Income(name: name, amount: Money(cents: cents), date: date, accountID: account, tags: salary ? ["pay"] : []))
        }
        return incomes
    }

    /// `count` transfers out of `from` into one of `to` over `months` months ending with `today`'s.
    mutating func transfers(count: Int, from: Int64, to: [Int64], months: Int, today: Day) -> [Transfer] {
        guard !to.isEmpty else { return [] }
        var transfers: [Transfer] = []
        transfers.reserveCapacity(count)
        for index in 0..<count {
            let date = day(index, of: count, months: months, today: today)
            let target = to[random.next(below: to.count)]
            transfers.append(Transfer(amount: Money(cents: Int64(20_00 + random.next(below: 300_00))), date: date, from: from, to: target))
        }
        return transfers
    }

    /// The day of entry `index` of `count` spread evenly over `months` months ending with
    /// `today`'s: the month's first day, or a random one up to today.
    private mutating func day(_ index: Int, of count: Int, months: Int, today: Day, first: Bool = false) -> Day {
        let month = today.monthValue.adding(months: 1 - months + index * months / max(count, 1))
        let lastDay = month == today.monthValue ? today.day : month.numberOfDays
        let day = first ? 1 : 1 + random.next(below: lastDay)
        return (try? Day(year: month.year, month: month.month, day: day)) ?? month.firstDay
    }
}
