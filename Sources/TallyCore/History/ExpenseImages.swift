import Foundation

/// Expenses as a change set keeps them: one column per field instead of one object per expense,
/// each column encoded as one string (``PackedColumn``), so the history of removing a budget with
/// thousands of expenses, or of undoing an import of a million, is cheap to encode: JSONEncoder
/// does generic work for every value it writes, so a million rows of ten values as JSON arrays
/// would take most of an undo's time. Timestamps in milliseconds, days as `YYYYMMDD`, tags joined
/// by `;` (which tags cannot contain).
public struct ExpenseImages: Hashable, Sendable, Codable {
    public private(set) var ids: [Int64] = []
    private var names: [String] = []
    private var cents: [Int64] = []
    private var quantities: [Int64] = []
    private var days: [Int32] = []
    public private(set) var budgetIDs: [Int64] = []
    private var tags: [String] = []
    private var spentBy: [String] = []
    /// 0 for none; packed only when some expense names an account, so older change sets read
    /// the same and write the same.
    private var accounts: [Int64] = []
    /// `minor;CUR;rate;source` for an expense in another currency, empty for none; packed only
    /// when some expense has one, like ``accounts``.
    private var foreign: [String] = []
    /// ``ExpenseDetail``'s text of a split or a refund, empty for neither; packed only when some
    /// expense has one, like ``accounts``.
    private var details: [String] = []
    private var created: [Int64] = []
    private var updated: [Int64] = []

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case count, ids, names, cents, quantities, days, budgetIDs, tags, by, accounts, foreign, details, created, updated
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let count = try container.decode(Int.self, forKey: .count)
        guard count > 0 else { return }
        func numbers<T: FixedWidthInteger>(_ key: CodingKeys) throws -> [T] {
            try PackedColumn.numbers(try container.decode(String.self, forKey: key), count: count, key)
        }
        func texts(_ key: CodingKeys) throws -> [String] {
            try PackedColumn.texts(try container.decode(String.self, forKey: key), count: count, key)
        }
        ids = try numbers(.ids)
        names = try texts(.names)
        cents = try numbers(.cents)
        quantities = try numbers(.quantities)
        days = try numbers(.days)
        budgetIDs = try numbers(.budgetIDs)
        tags = try texts(.tags)
        spentBy = try texts(.by)
        accounts = container.contains(.accounts) ? try numbers(.accounts) : Array(repeating: 0, count: count)
        foreign = container.contains(.foreign) ? try texts(.foreign) : Array(repeating: "", count: count)
        details = container.contains(.details) ? try texts(.details) : Array(repeating: "", count: count)
        created = try numbers(.created)
        updated = try numbers(.updated)
    }

    /// Each column as its key and packed string, for both ways of writing them; none when empty.
    private var packedColumns: [(CodingKeys, String)] {
        guard !ids.isEmpty else { return [] }
        let accountColumn = accounts.contains { $0 != 0 } ? [(CodingKeys.accounts, PackedColumn.pack(accounts))] : []
        let foreignColumn = foreign.contains { !$0.isEmpty } ? [(CodingKeys.foreign, PackedColumn.pack(foreign))] : []
        let detailColumn = details.contains { !$0.isEmpty } ? [(CodingKeys.details, PackedColumn.pack(details))] : []
        return [
            (.ids, PackedColumn.pack(ids)), (.names, PackedColumn.pack(names)), (.cents, PackedColumn.pack(cents)),
            (.quantities, PackedColumn.pack(quantities)), (.days, PackedColumn.pack(days)), (.budgetIDs, PackedColumn.pack(budgetIDs)),
            (.tags, PackedColumn.pack(tags)), (.by, PackedColumn.pack(spentBy)),
        ] + accountColumn + foreignColumn + detailColumn + [(.created, PackedColumn.pack(created)), (.updated, PackedColumn.pack(updated))]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ids.count, forKey: .count)
        for (key, column) in packedColumns { try container.encode(column, forKey: key) }
    }

    /// What `encode(to:)` makes through JSONEncoder, written directly (`ChangeContentCoding.encode`).
    func writeJSON(into json: inout JSONText) {
        json.raw("{\"count\":")
        json.number(ids.count)
        for (key, column) in packedColumns {
            json.raw(",")
            json.string(key.stringValue)
            json.raw(":")
            json.string(column)
        }
        json.raw("}")
    }

    public init(_ expenses: some Sequence<Expense>) {
        for expense in expenses { append(expense) }
    }

    public var isEmpty: Bool { ids.isEmpty }
    /// The accounts the expenses name.
    public var accountIDs: Set<Int64> { Set(accounts.filter { $0 != 0 }) }
    public var count: Int { ids.count }
    /// The budgets split expenses' lines count in, beside ``budgetIDs``.
    public var lineBudgetIDs: Set<Int64> {
        var ids = Set<Int64>()
        for detail in details where !detail.isEmpty && !detail.hasPrefix("R") {
            for line in (try? ExpenseDetail.unpackLines(detail)) ?? [] { ids.insert(line.budgetID) }
        }
        return ids
    }

    public mutating func append(_ expense: Expense) {
        ids.append(expense.id ?? 0)
        names.append(expense.name)
        cents.append(expense.amount.cents)
        quantities.append(expense.quantity)
        days.append(Int32(expense.date.year * 10_000 + expense.date.month * 100 + expense.date.day))
        budgetIDs.append(expense.budgetID)
        tags.append(expense.tags.joined(separator: ";"))
        spentBy.append(expense.by)
        accounts.append(expense.accountID ?? 0)
        foreign.append(expense.foreign.map(ExpenseImages.pack) ?? "")
        details.append(ExpenseDetail.pack(expense))
        created.append(Milliseconds.since1970(expense.createdAt))
        updated.append(Milliseconds.since1970(expense.updatedAt))
    }

    public mutating func append(contentsOf other: ExpenseImages) {
        ids += other.ids
        names += other.names
        cents += other.cents
        quantities += other.quantities
        days += other.days
        budgetIDs += other.budgetIDs
        tags += other.tags
        spentBy += other.spentBy
        accounts += other.accounts
        foreign += other.foreign
        details += other.details
        created += other.created
        updated += other.updated
    }

    /// The expenses, in the order they were appended. Throws on a history row that does not
    /// decode to valid values (a damaged database), never traps.
    public func expenses() throws(TallyError) -> [Expense] {
        guard [names.count, cents.count, quantities.count, days.count, budgetIDs.count, tags.count, spentBy.count, accounts.count, foreign.count, details.count, created.count, updated.count]
            .allSatisfy({ $0 == ids.count })
        else { throw .storage("a change set's expenses are damaged") }
        var result: [Expense] = []
        result.reserveCapacity(ids.count)
        for index in ids.indices {
            let number = Int(days[index])
            let day = try Day(year: number / 10_000, month: number / 100 % 100, day: number % 100)
            var expense = Expense(
                name: names[index], amount: Money(cents: cents[index]), quantity: quantities[index], date: day,
                budgetID: budgetIDs[index], tags: tags[index].isEmpty ? [] : tags[index].split(separator: ";").map(String.init),
                by: spentBy[index], accountID: accounts[index] == 0 ? nil : accounts[index])
            expense.id = ids[index]
            if !foreign[index].isEmpty { expense.foreign = try ExpenseImages.unpack(foreign[index]) }
            if !details[index].isEmpty { try ExpenseDetail.unpack(details[index], into: &expense) }
            expense.createdAt = Milliseconds.date(created[index])
            expense.updatedAt = Milliseconds.date(updated[index])
            result.append(expense)
        }
        return result
    }
}

extension ExpenseImages {
    static func pack(_ charge: ForeignCharge) -> String {
        "\(charge.original.minorUnits);\(charge.original.currency.code);\(charge.rate.plainString);\(charge.source.rawValue)"
    }

    static func unpack(_ text: String) throws(TallyError) -> ForeignCharge {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let minor = Int64(parts[0]), let source = RateSource(rawValue: parts[3])
        else { throw .storage("a change set's expenses are damaged") }
        let rate = try ExchangeRate(parsing: parts[2])
        return ForeignCharge(original: CurrencyAmount(minorUnits: minor, currency: Currency(storedCode: parts[1])), rate: rate, source: source)
    }
}

/// A column of a change set as one string: numbers in decimal joined by `,`; texts joined by
/// U+001F (unit separator), which names, tags and who spent it cannot hold (``NameKey`` refuses
/// control characters). A column whose length differs from the row count is damaged.
public enum PackedColumn {
    static let separator: Character = "\u{1F}"

    public static func pack<T: FixedWidthInteger>(_ numbers: [T]) -> String {
        var text = ""
        text.reserveCapacity(numbers.count * 8)
        for (index, number) in numbers.enumerated() {
            if index > 0 { text.append(",") }
            text += String(number)
        }
        return text
    }

    static func pack(_ texts: [String]) -> String {
        texts.joined(separator: String(separator))
    }

    static func numbers<T: FixedWidthInteger>(_ text: String, count: Int, _ key: some CodingKey) throws -> [T] {
        var numbers: [T] = []
        numbers.reserveCapacity(count)
        for part in text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            guard let number = T(Substring(part)) else { throw damaged(key) }
            numbers.append(number)
        }
        guard numbers.count == count else { throw damaged(key) }
        return numbers
    }

    static func texts(_ text: String, count: Int, _ key: some CodingKey) throws -> [String] {
        let texts = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        guard texts.count == count else { throw damaged(key) }
        return texts
    }

    private static func damaged(_ key: some CodingKey) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [key], debugDescription: "the column does not hold one value a row"))
    }
}
