import TallyCore

/// Realistic sample budgets and expenses, the same for the same seed and current day.
struct DemoData {
    struct Item {
        let name: String
        /// Price range in cents.
        let cents: ClosedRange<Int64>
        let tags: [String]
    }

    struct Plan {
        let name: String
        let limit: Money
        /// How many expenses a typical month has.
        let perMonth: Int
        let items: [Item]
    }

    static let plans: [Plan] = [
        Plan(name: "Groceries", limit: Money(cents: 450_00), perMonth: 9, items: [
            Item(name: "Supermarket", cents: 25_00...95_00, tags: ["food"]),
            Item(name: "Farmers market", cents: 8_00...35_00, tags: ["food", "local"]),
            Item(name: "Bakery", cents: 3_20...12_50, tags: ["food"]),
            Item(name: "Fruit & vegetables", cents: 6_00...22_00, tags: ["food", "local"]),
        ]),
        Plan(name: "Rent", limit: Money(cents: 1_250_00), perMonth: 1, items: [
            Item(name: "Rent", cents: 1_200_00...1_200_00, tags: ["home", "fixed"]),
        ]),
        Plan(name: "Transport", limit: Money(cents: 250_00), perMonth: 8, items: [
            Item(name: "Bus ticket", cents: 2_40...2_40, tags: ["commute"]),
            Item(name: "Train ticket", cents: 9_80...34_50, tags: ["commute", "travel"]),
            Item(name: "Fuel", cents: 40_00...68_00, tags: ["car"]),
            Item(name: "Bike repair", cents: 12_00...45_00, tags: ["bike"]),
        ]),
        Plan(name: "Eating Out", limit: Money(cents: 180_00), perMonth: 5, items: [
            Item(name: "Pizzeria", cents: 14_50...32_00, tags: ["restaurant"]),
            Item(name: "Sushi bar", cents: 18_00...45_00, tags: ["restaurant"]),
            Item(name: "Crème brûlée", cents: 6_50...8_90, tags: ["dessert"]),
            Item(name: "Lunch with colleagues", cents: 11_00...19_50, tags: ["work", "restaurant"]),
        ]),
        Plan(name: "Utilities", limit: Money(cents: 220_00), perMonth: 3, items: [
            Item(name: "Electricity", cents: 48_00...95_00, tags: ["home", "fixed"]),
            Item(name: "Water", cents: 18_00...32_00, tags: ["home", "fixed"]),
            Item(name: "Internet", cents: 39_99...39_99, tags: ["home", "fixed"]),
        ]),
        Plan(name: "Entertainment", limit: Money(cents: 100_00), perMonth: 3, items: [
            Item(name: "Cinema", cents: 11_50...14_00, tags: ["fun"]),
            Item(name: "Concert ticket", cents: 28_00...65_00, tags: ["fun", "music"]),
            Item(name: "Streaming subscription", cents: 12_99...12_99, tags: ["fun", "fixed"]),
            Item(name: "Board game", cents: 19_00...49_00, tags: ["fun"]),
        ]),
        Plan(name: "Health", limit: Money(cents: 120_00), perMonth: 2, items: [
            Item(name: "Pharmacy", cents: 4_50...28_00, tags: ["health"]),
            Item(name: "Gym membership", cents: 29_00...29_00, tags: ["health", "fixed"]),
            Item(name: "Dentist", cents: 45_00...120_00, tags: ["health"]),
        ]),
        Plan(name: "Café & Coffee", limit: Money(cents: 45_00), perMonth: 12, items: [
            Item(name: "Flat white", cents: 3_40...4_20, tags: ["coffee"]),
            Item(name: "Café au lait", cents: 3_10...3_90, tags: ["coffee"]),
            Item(name: "Croissant", cents: 1_90...2_60, tags: ["coffee", "food"]),
            Item(name: "Coffee beans", cents: 12_00...18_50, tags: ["coffee", "home"]),
        ]),
    ]

    /// Budgets added for large data sets, so they spread over twelve budgets.
    static let extraPlans: [Plan] = [
        Plan(name: "Clothing", limit: Money(cents: 100_00), perMonth: 2, items: [
            Item(name: "T-shirt", cents: 9_00...25_00, tags: ["clothes"]),
            Item(name: "Shoes", cents: 45_00...130_00, tags: ["clothes"]),
        ]),
        Plan(name: "Gifts", limit: Money(cents: 60_00), perMonth: 1, items: [
            Item(name: "Birthday present", cents: 15_00...60_00, tags: ["gift"]),
            Item(name: "Flowers", cents: 12_00...30_00, tags: ["gift"]),
        ]),
        Plan(name: "Travel", limit: Money(cents: 300_00), perMonth: 1, items: [
            Item(name: "Hotel night", cents: 70_00...160_00, tags: ["travel"]),
            Item(name: "Museum entry", cents: 8_00...22_00, tags: ["travel", "fun"]),
        ]),
        Plan(name: "Books", limit: Money(cents: 40_00), perMonth: 2, items: [
            Item(name: "Paperback", cents: 9_90...16_00, tags: ["books"]),
            Item(name: "E-book", cents: 4_99...12_99, tags: ["books"]),
        ]),
    ]

    /// The budget that the demo pushes over its limit this month, so the mark shows.
    static let overspentBudget = "Café & Coffee"
    /// The showcase's rollover budget and its recurring bill (``FillDemo/showcase``).
    static let rolloverBudget = "Groceries"
    static let recurringBill = (name: "Rent", budget: "Rent", amount: Money(cents: 1_200_00))
    static let people = ["Alex", "Sam"]

    /// One of ``people``, at random.
    mutating func person() -> String { Self.people[random.next(below: Self.people.count)] }

    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// A month's worth of expenses per plan for `months` months ending on `today`, and
    /// `overspentBudget` over its limit in `today`'s month.
    mutating func typicalExpenses(plans: [(plan: Plan, budgetID: Int64)], months: Int, today: Day) -> [Expense] {
        var expenses: [Expense] = []
        let current = today.monthValue
        for offset in stride(from: months - 1, through: 0, by: -1) {
            let month = current.adding(months: -offset)
            let lastDay = month == current ? today.day : month.numberOfDays
            for (plan, budgetID) in plans {
                // The current month has only had `today.day` days to fill.
                let typical = plan.perMonth == 1 ? 1 : plan.perMonth - 1 + random.next(below: 3)
                let count = plan.perMonth == 1 ? 1 : (typical * lastDay + month.numberOfDays - 1) / month.numberOfDays
                for _ in 0..<count {
                    let day = plan.perMonth == 1 ? 1 : 1 + random.next(below: lastDay)
                    expenses.append(expense(from: plan, budgetID: budgetID, on: month, day: day))
                }
            }
        }
        if let (plan, budgetID) = plans.first(where: { $0.plan.name == Self.overspentBudget }) {
            var spent = expenses.filter { $0.budgetID == budgetID && $0.date.monthValue == current }
                .reduce(Int64(0)) { $0 + $1.amount.cents * $1.quantity }
            while spent <= plan.limit.cents {
                let extra = expense(from: plan, budgetID: budgetID, on: current, day: 1 + random.next(below: today.day))
                spent += extra.amount.cents * extra.quantity
                expenses.append(extra)
            }
        }
        return expenses.sorted { $0.date < $1.date }
    }

    /// `count` expenses at random in `month` (up to `today` in the current month), in date order
    /// as people record them, so ids grow with dates as in a real database.
    mutating func expenses(count: Int, plans: [(plan: Plan, budgetID: Int64)], in month: Month, today: Day) -> [Expense] {
        let weights = plans.map(\.plan.perMonth)
        let totalWeight = weights.reduce(0, +)
        let lastDay = month == today.monthValue ? today.day : month.numberOfDays
        var expenses: [Expense] = []
        expenses.reserveCapacity(count)
        for _ in 0..<count {
            var pick = random.next(below: totalWeight)
            var index = 0
            while pick >= weights[index] {
                pick -= weights[index]
                index += 1
            }
            expenses.append(expense(from: plans[index].plan, budgetID: plans[index].budgetID, on: month, day: 1 + random.next(below: lastDay)))
        }
        expenses.sort { $0.date < $1.date }
        return expenses
    }

    private mutating func expense(from plan: Plan, budgetID: Int64, on month: Month, day: Int) -> Expense {
        let item = plan.items[random.next(below: plan.items.count)]
        let spread = item.cents.upperBound - item.cents.lowerBound
        var cents = item.cents.lowerBound + (spread > 0 ? Int64(random.next(below: Int(spread) + 1)) : 0)
        // Round most prices to 10 cents, as shops do, and keep the others exact.
        if random.next(below: 4) > 0, cents >= 100 { cents -= cents % 10 }
        // Only small things come by the handful.
        let quantity: Int64 = cents < 10_00 && random.next(below: 5) == 0 ? Int64(2 + random.next(below: 2)) : 1
        let date = (try? Day(year: month.year, month: month.month, day: day)) ?? month.firstDay
        return Expense(name: item.name, amount: Money(cents: cents), quantity: quantity, date: date, budgetID: budgetID, tags: item.tags)
    }
}
