import Foundation
import GRDB
import TallyCore

/// A `budget` row. The models stay free of GRDB; these records translate at the boundary.
struct BudgetRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "budget"

    var id: Int64?
    var name: String
    var nameKey: String
    var limitCents: Int64
    var period: String
    var rollover: String
    var capCents: Int64?
    /// `YYYYMM` of an explicit first period.
    var startMonth: Int64?
    /// `YYYYMMDD` of a once budget's first and last day.
    var fromDate: Int64?
    var toDate: Int64?
    /// The warning level, percent (`Schema.v6`).
    var warnPercent: Int
    /// The target (`Schema.v18BudgetGoals`): its amount, `YYYYMM` of its date, its account.
    var targetCents: Int64?
    var targetBy: Int64?
    var targetAccountId: Int64?
    /// The budget's own currency (`Schema.v22BudgetCurrency`); `nil` is the ledger's.
    var currency: String?
    var createdAt: Int64
    var updatedAt: Int64

    init(_ budget: Budget) {
        id = budget.id
        name = budget.name
        nameKey = budget.nameKey
        limitCents = budget.limit.cents
        period = budget.period.rawValue
        rollover = budget.rollover.rawValue
        capCents = budget.cap?.cents
        startMonth = budget.start?.storedNumber
        fromDate = budget.range?.first.storedNumber
        toDate = budget.range?.last.storedNumber
        warnPercent = budget.warn
        targetCents = budget.target?.amount.cents
        targetBy = budget.target?.by?.storedNumber
        targetAccountId = budget.target?.accountID
        currency = budget.currency?.code
        createdAt = Milliseconds.since1970(budget.createdAt)
        updatedAt = Milliseconds.since1970(budget.updatedAt)
    }

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        nameKey = row["nameKey"]
        limitCents = row["limitCents"]
        period = row["period"]
        rollover = row["rollover"]
        capCents = row["capCents"]
        startMonth = row["startMonth"]
        fromDate = row["fromDate"]
        toDate = row["toDate"]
        warnPercent = row["warnPercent"]
        targetCents = row["targetCents"]
        targetBy = row["targetBy"]
        targetAccountId = row["targetAccountId"]
        currency = row["currency"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["nameKey"] = nameKey
        container["limitCents"] = limitCents
        container["period"] = period
        container["rollover"] = rollover
        container["capCents"] = capCents
        container["startMonth"] = startMonth
        container["fromDate"] = fromDate
        container["toDate"] = toDate
        container["warnPercent"] = warnPercent
        container["targetCents"] = targetCents
        container["targetBy"] = targetBy
        container["targetAccountId"] = targetAccountId
        container["currency"] = currency
        container["createdAt"] = createdAt
        container["updatedAt"] = updatedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The budget, with `limitChanges` read from `budgetLimit`.
    func model(limitChanges: [LimitChange] = []) throws(TallyError) -> Budget {
        guard let period = BudgetPeriod(rawValue: period) else {
            throw .storage("budget \(quoted(name)) has an unknown period \(quoted(period))")
        }
        guard let rollover = RolloverPolicy(rawValue: rollover) else {
            throw .storage("budget \(quoted(name)) has an unknown rollover \(quoted(rollover))")
        }
        var range: DayInterval?
        if let fromDate, let toDate {
            guard let first = Day(storedNumber: fromDate), let last = Day(storedNumber: toDate) else {
                throw .storage("budget \(quoted(name)) has an invalid range \(fromDate) to \(toDate)")
            }
            range = DayInterval(first: first, last: last)
        }
        let target = try targetCents.map { (cents: Int64) throws(TallyError) in
            BudgetTarget(amount: Money(cents: cents), by: try targetBy.map(Month.init(storedNumber:)), accountID: targetAccountId)
        }
        return Budget(
            id: id, name: name, limit: Money(cents: limitCents), period: period, rollover: rollover,
            cap: capCents.map(Money.init(cents:)), start: try startMonth.map(Month.init(storedNumber:)), range: range,
            limitChanges: limitChanges, warn: warnPercent, target: target, currency: currency.map(Currency.init(storedCode:)),
            createdAt: Milliseconds.date(createdAt),
            updatedAt: Milliseconds.date(updatedAt))
    }
}

/// An `expense` row; its tags are those of its tag set, loaded separately.
struct ExpenseRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "expense"

    var id: Int64?
    var budgetId: Int64
    var name: String
    var nameKey: String
    var amountCents: Int64
    var quantity: Int64
    var date: Int64
    var tagSetId: Int64?
    /// `Expense.by` (`Schema.v8ExpenseBy`).
    var spentBy: String
    /// `Expense.accountID` (`Schema.v15ExpenseAccounts`).
    var accountId: Int64?
    /// `Expense.foreign` (`Schema.v20ForeignAmounts`): all four set or all `NULL`.
    var originalMinor: Int64?
    var originalCurrency: String?
    var rate: String?
    var rateSource: String?
    /// `Expense.lines`, `isRefund` and `refundOf` as ``ExpenseDetail``'s text (`Schema.v21ExpenseLines`).
    var detail: String
    var createdAt: Int64
    var updatedAt: Int64

    /// Every column in one order, for statements that name them all: the upsert that puts rows
    /// back, and moving rows beside a change set and back (`Schema.v11RemovedRows`).
    static let positionalColumns = "id, budgetId, name, nameKey, amountCents, quantity, date, tagSetId, createdAt, updatedAt, spentBy, accountId, originalMinor, originalCurrency, rate, rateSource, detail"

    init(_ expense: Expense, nameKey: String? = nil, tagSetId: Int64?) {
        id = expense.id
        budgetId = expense.budgetID
        name = expense.name
        self.nameKey = nameKey ?? expense.nameKey
        amountCents = expense.amount.cents
        quantity = expense.quantity
        date = expense.date.storedNumber
        self.tagSetId = tagSetId
        spentBy = expense.by
        accountId = expense.accountID
        originalMinor = expense.foreign?.original.minorUnits
        originalCurrency = expense.foreign?.original.currency.code
        rate = expense.foreign?.rate.plainString
        rateSource = expense.foreign?.source.rawValue
        detail = ExpenseDetail.pack(expense)
        createdAt = Milliseconds.since1970(expense.createdAt)
        updatedAt = Milliseconds.since1970(expense.updatedAt)
    }

    init(row: Row) throws {
        id = row["id"]
        budgetId = row["budgetId"]
        name = row["name"]
        nameKey = row["nameKey"]
        amountCents = row["amountCents"]
        quantity = row["quantity"]
        date = row["date"]
        tagSetId = row["tagSetId"]
        spentBy = row["spentBy"]
        accountId = row["accountId"]
        originalMinor = row["originalMinor"]
        originalCurrency = row["originalCurrency"]
        rate = row["rate"]
        rateSource = row["rateSource"]
        detail = row["detail"] ?? ""
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
    }

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["budgetId"] = budgetId
        container["name"] = name
        container["nameKey"] = nameKey
        container["amountCents"] = amountCents
        container["quantity"] = quantity
        container["date"] = date
        container["tagSetId"] = tagSetId
        container["spentBy"] = spentBy
        container["accountId"] = accountId
        container["originalMinor"] = originalMinor
        container["originalCurrency"] = originalCurrency
        container["rate"] = rate
        container["rateSource"] = rateSource
        container["detail"] = detail
        container["createdAt"] = createdAt
        container["updatedAt"] = updatedAt
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Inserts `rows` new expenses at once, fifteen arguments each in this order: budgetId, name,
    /// nameKey, amountCents, quantity, date, tagSetId, createdAt, updatedAt, spentBy, accountId,
    /// originalMinor, originalCurrency, rate, rateSource.
    static func insertSQL(rows: Int) -> String {
        let values = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
        return """
            INSERT INTO expense (budgetId, name, nameKey, amountCents, quantity, date, tagSetId, createdAt, updatedAt, spentBy, accountId, \
            originalMinor, originalCurrency, rate, rateSource) VALUES \(values)
            """
    }

    /// The expense's ``ForeignCharge`` from its four columns; a damaged row is a storage error.
    func foreign() throws(TallyError) -> ForeignCharge? {
        try ForeignColumns.charge(originalMinor, originalCurrency, rate, rateSource, of: "expense #\(id ?? 0)")
    }

    func model(tags: [String]) throws(TallyError) -> Expense {
        guard let day = Day(storedNumber: date) else {
            throw .storage("expense #\(id ?? 0) has an invalid date \(date)")
        }
        var expense = Expense(
            id: id, name: name, amount: Money(cents: amountCents), quantity: quantity, date: day,
            budgetID: budgetId, tags: tags.sorted(), by: spentBy, accountID: accountId, foreign: try foreign(), createdAt: Milliseconds.date(createdAt),
            updatedAt: Milliseconds.date(updatedAt))
        if !detail.isEmpty { try ExpenseDetail.unpack(detail, into: &expense) }
        return expense
    }
}

extension Day {
    /// The day as the database stores it: the integer `YYYYMMDD`, which sorts as days do.
    var storedNumber: Int64 { Int64(year * 10_000 + month * 100 + day) }

    /// The day stored as `number`; nil if it is not one.
    init?(storedNumber number: Int64) {
        guard (10_101...99_991_231).contains(number) else { return nil }
        guard let day = try? Day(year: Int(number / 10_000), month: Int(number / 100 % 100), day: Int(number % 100))
        else { return nil }
        self = day
    }
}

/// The canonical key of a tag set, `tagSet.tags`: composed names, sorted, joined by `;`.
enum TagSetKey {
    static func make(_ composedTags: [String]) -> String {
        composedTags.sorted().joined(separator: ";")
    }

    static func tags(_ key: String?) -> [String] {
        guard let key, !key.isEmpty else { return [] }
        return key.split(separator: ";").map(String.init)
    }
}

extension String {
    /// Tags are compared by canonical equivalence in Swift but by bytes in SQLite; storing
    /// them composed makes both agree.
    var composedTag: String { precomposedStringWithCanonicalMapping }
}

extension Month {
    /// `YYYYMM`, as the schema stores months.
    var storedNumber: Int64 { Int64(year) * 100 + Int64(month) }

    init(storedNumber: Int64) throws(TallyError) {
        do {
            try self.init(year: Int(storedNumber / 100), month: Int(storedNumber % 100))
        } catch {
            throw .storage("a stored month \(storedNumber) does not exist")
        }
    }
}

/// The four columns that keep an entry's ``ForeignCharge`` (an expense's, an income's): all set
/// or all `NULL`.
enum ForeignColumns {
    static let names = "originalMinor, originalCurrency, rate, rateSource"

    /// The charge the columns keep; a damaged row is a storage error naming `entry`.
    static func charge(_ minor: Int64?, _ currency: String?, _ rate: String?, _ source: String?, of entry: String) throws(TallyError) -> ForeignCharge? {
        guard let minor, let currency, let rate, let source else { return nil }
        guard let rateSource = RateSource(rawValue: source), let exact = try? ExchangeRate(parsing: rate) else {
            throw .storage("\(entry) has an invalid rate \(rate) (\(source))")
        }
        return ForeignCharge(original: CurrencyAmount(minorUnits: minor, currency: Currency(storedCode: currency)), rate: exact, source: rateSource)
    }

    /// The columns' values, in the order of ``names``.
    static func values(_ charge: ForeignCharge?) -> [(any DatabaseValueConvertible)?] {
        [charge?.original.minorUnits, charge?.original.currency.code, charge?.rate.plainString, charge?.source.rawValue]
    }
}
