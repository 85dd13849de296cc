import Foundation
import PostgresNIO
import TallyCore

// Rows to models and back, with the SQLite file's conventions (see `PostgresSchema`).

enum Columns {
    static let budget = "id, name, limitCents, period, rollover, capCents, startMonth, fromDate, toDate, warnPercent, createdAt, updatedAt, targetCents, targetBy, targetAccountId, currency"
    /// What `Budget.binds` fills, after the id.
    static let budgetInsert =
        "id, name, nameKey, limitCents, period, rollover, capCents, startMonth, fromDate, toDate, warnPercent, createdAt, updatedAt, targetCents, targetBy, targetAccountId, currency"
    static let expense = "id, budgetId, name, amountCents, quantity, date, tags, createdAt, updatedAt, spentBy, accountId, originalMinor, originalCurrency, rate, rateSource, detail"
    /// `columns`, each named by the table's `alias`.
    static func qualified(_ columns: String, as alias: String) -> String {
        columns.split(separator: ",").map { "\(alias).\($0.trimmingCharacters(in: .whitespaces))" }.joined(separator: ", ")
    }
    static let rule = "id, name, budgetId, amountCents, quantity, tags, every, intervalCount, day, start, until, skips"
}

extension Budget {
    init(row: PostgresRow, limitChanges: [LimitChange]) throws(TallyError) {
        let row = row.makeRandomAccess()
        let name = try row.string(1)
        let periodText = try row.string(3)
        let rolloverText = try row.string(4)
        guard let period = BudgetPeriod(rawValue: periodText) else { throw .storage("budget \(quoted(name)) has an unknown period \(quoted(periodText))") }
        guard let rollover = RolloverPolicy(rawValue: rolloverText) else {
            throw .storage("budget \(quoted(name)) has an unknown rollover \(quoted(rolloverText))")
        }
        var range: DayInterval?
        if let from = try row.optionalInt(7), let to = try row.optionalInt(8) {
            range = DayInterval(first: try Day(stored: from), last: try Day(stored: to))
        }
        var target: BudgetTarget?
        if let cents = try row.optionalInt(12) {
            target = BudgetTarget(
                amount: Money(cents: cents), by: try row.optionalInt(13).map { (number: Int64) throws(TallyError) in try Month(stored: number) },
                accountID: try row.optionalInt(14))
        }
        self.init(
            id: try row.int(0), name: name, limit: Money(cents: try row.int(2)), period: period, rollover: rollover,
            cap: try row.optionalInt(5).map(Money.init(cents:)), start: try row.optionalInt(6).map { (number: Int64) throws(TallyError) in try Month(stored: number) },
            range: range, limitChanges: limitChanges, warn: Int(try row.int(9)), target: target, createdAt: Milliseconds.date(try row.int(10)),
            updatedAt: Milliseconds.date(try row.int(11)))
        currency = try row.optionalString(15).map(Currency.init(storedCode:))
    }

    /// Binds in the order of `Columns.budget` without the id.
    var binds: [SQLValue] {
        [
            .text(name), .text(nameKey), .int(limit.cents), .text(period.rawValue), .text(rollover.rawValue), .int(cap?.cents),
            .int(start?.stored), .int(range?.first.stored), .int(range?.last.stored), .int(Int64(warn)), .int(Milliseconds.since1970(createdAt)),
            .int(Milliseconds.since1970(updatedAt)), .int(target?.amount.cents), .int(target?.by?.stored), .int(target?.accountID),
            .text(currency?.code),
        ]
    }
}

extension Expense {
    init(row: PostgresRow) throws(TallyError) {
        let row = row.makeRandomAccess()
        self.init(
            id: try row.int(0), name: try row.string(2), amount: Money(cents: try row.int(3)), quantity: try row.int(4),
            date: try Day(stored: try row.int(5)), budgetID: try row.int(1), tags: try row.strings(6).sorted(),
            by: try row.string(9), accountID: try row.optionalInt(10), foreign: try ForeignCharge.stored(row, at: 11, of: "an expense"),
            createdAt: Milliseconds.date(try row.int(7)), updatedAt: Milliseconds.date(try row.int(8)))
        let detail = try row.string(15)
        if !detail.isEmpty { try ExpenseDetail.unpack(detail, into: &self) }
    }

    /// `detail` and `lineKeys` (`v14-expense-lines`): the lines' tags as the `tags` column keeps
    /// tags, and each line's name key, empty for a line under the expense's name.
    var storedDetail: (detail: String, lineKeys: String) {
        guard !lines.isEmpty else { return (ExpenseDetail.pack(self), "") }
        var stored = lines
        for index in stored.indices { stored[index].tags = stored[index].tags.map(\.precomposedStringWithCanonicalMapping).sorted() }
        return (ExpenseDetail.pack(stored), lines.map { $0.name.isEmpty ? "" : NameKey.make($0.name) }.joined(separator: "\u{1E}"))
    }

    /// Binds in the order of `Columns.expense` without the id.
    var binds: [SQLValue] {
        [
            .int(budgetID), .text(name), .text(nameKey), .int(amount.cents), .int(quantity), .int(date.stored),
            .texts(tags.map(\.precomposedStringWithCanonicalMapping).sorted()), .int(Milliseconds.since1970(createdAt)),
            .int(Milliseconds.since1970(updatedAt)), .text(by), .int(accountID)]
            + ForeignCharge.binds(foreign) + [.text(storedDetail.detail), .text(storedDetail.lineKeys),
        ]
    }
}

extension RecurringRule {
    init(row: PostgresRow) throws(TallyError) {
        let row = row.makeRandomAccess()
        let everyText = try row.string(6)
        guard let every = RecurringFrequency(rawValue: everyText) else { throw .storage("a recurring rule has an unknown frequency \(quoted(everyText))") }
        var skips: [Day] = []
        for number in try row.ints(11) { skips.append(try Day(stored: number)) }
        self.init(
            id: try row.int(0), name: try row.string(1), budgetID: try row.int(2), amount: Money(cents: try row.int(3)),
            quantity: try row.int(4), tags: try row.strings(5).sorted(), every: every, interval: Int(try row.int(7)),
            day: try row.optionalInt(8).map { Int($0) }, start: try Day(stored: try row.int(9)),
            until: try row.optionalInt(10).map { (number: Int64) throws(TallyError) in try Day(stored: number) }, skips: skips.sorted())
    }

    /// Binds in the order of `Columns.rule` without the id.
    var binds: [SQLValue] {
        [
            .text(name), .int(budgetID), .int(amount.cents), .int(quantity), .texts(tags.map(\.precomposedStringWithCanonicalMapping).sorted()),
            .text(every.rawValue), .int(Int64(interval)), .int(day.map(Int64.init)), .int(start.stored), .int(until?.stored),
            .ints(skips.map(\.stored).sorted()),
        ]
    }
}

extension Day {
    /// `YYYYMMDD`, as both stores keep days.
    var stored: Int64 { Int64(year * 10_000 + month * 100 + day) }

    init(stored number: Int64) throws(TallyError) {
        guard (10_101...99_991_231).contains(number),
            let day = try? Day(year: Int(number / 10_000), month: Int(number / 100 % 100), day: Int(number % 100))
        else { throw .storage("a stored day \(number) does not exist") }
        self = day
    }
}

extension Month {
    /// `YYYYMM`.
    var stored: Int64 { Int64(year) * 100 + Int64(month) }

    init(stored number: Int64) throws(TallyError) {
        do {
            try self.init(year: Int(number / 100), month: Int(number % 100))
        } catch {
            throw .storage("a stored month \(number) does not exist")
        }
    }
}

extension ForeignCharge {
    /// The columns that keep an entry's charge (an expense's, an income's), in this order.
    static let columns = "originalMinor, originalCurrency, rate, rateSource"

    /// The charge kept in the four ``columns`` from `index` on: all four set, or none.
    static func stored(_ row: PostgresRandomAccessRow, at index: Int, of entry: String) throws(TallyError) -> ForeignCharge? {
        guard let minor = try row.optionalInt(index), let currency = try row.optionalString(index + 1),
            let rate = try row.optionalString(index + 2), let sourceText = try row.optionalString(index + 3)
        else { return nil }
        guard let source = RateSource(rawValue: sourceText) else { throw .storage("\(entry) has an unknown rate source \(quoted(sourceText))") }
        return ForeignCharge(
            original: CurrencyAmount(minorUnits: minor, currency: Currency(storedCode: currency)), rate: try ExchangeRate(parsing: rate),
            source: source)
    }

    /// Binds for the four ``columns``.
    static func binds(_ charge: ForeignCharge?) -> [SQLValue] {
        [.int(charge?.original.minorUnits), .text(charge?.original.currency.code), .text(charge?.rate.plainString), .text(charge?.source.rawValue)]
    }
}
