import Foundation

/// One purchase: an amount times a quantity, on a day, in one budget, or split into
/// ``lines`` across several (``ExpenseLines``); or a refund, money coming back into a budget.
public struct Expense: Identifiable, Hashable, Sendable, Codable {
    public static let maximumNameLength = 200
    public static let maximumQuantity: Int64 = 1_000_000
    public static let maximumTagLength = 50
    /// Who spent it: a person's name is short, like a login name or a first name.
    public static let maximumByLength = 100

    /// Assigned by the store; `nil` until the expense is saved.
    public var id: Int64?
    public var name: String
    public var amount: Money
    public var quantity: Int64
    public var date: Day
    public var budgetID: Int64
    /// Lowercased, unique and sorted once validated.
    public var tags: [String]
    /// Who added it (`--by`, `$TALLY_USER`, the login name, or an imported file's `by` column);
    /// empty for expenses saved before Tally recorded it. Trimmed once validated.
    public var by: String
    /// The account it was paid from (``Account``), or `nil`: expenses need not name one.
    public var accountID: Int64?
    /// An expense in another currency than the ledger's: its original amount and the rate that
    /// made ``amount``; `nil` for an expense in the ledger's currency.
    public var foreign: ForeignCharge?
    /// A split receipt's parts, each in its own budget, summing exactly to ``total()``; empty
    /// for an expense wholly in ``budgetID`` (a split's ``budgetID`` is its first line's).
    public var lines: [ExpenseLine] = []
    /// Money back into ``budgetID``: its total lowers the period's spending (``portions``).
    public var isRefund = false
    /// The expense a refund returns, when it names one.
    public var refundOf: Int64?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: Int64? = nil, name: String, amount: Money, quantity: Int64 = 1, date: Day,
        budgetID: Int64, tags: [String] = [], by: String = "", accountID: Int64? = nil, foreign: ForeignCharge? = nil,
        createdAt: Date = Date(), updatedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.amount = amount
        self.quantity = quantity
        self.date = date
        self.budgetID = budgetID
        self.tags = tags
        self.by = by
        self.accountID = accountID
        self.foreign = foreign
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// `amount × quantity`, exact or a typed overflow error.
    public func total() throws(TallyError) -> Money {
        try amount.multiplied(by: quantity)
    }

    /// Returns the expense with its name trimmed and tags normalized, or throws the first broken rule.
    public func validated() throws(TallyError) -> Expense {
        var expense = self
        expense.name = try NameKey.validated(name, kind: .expense, maximumLength: Expense.maximumNameLength)
        try Expense.checkAmount(amount)
        try Expense.checkQuantity(quantity)
        expense.tags = try Expense.normalizedTags(tags)
        if !by.isEmpty { expense.by = try Expense.validatedBy(by) }
        if !lines.isEmpty {
            guard !isRefund else { throw .split(.refundSplit) }
            for index in expense.lines.indices {
                let line = expense.lines[index]
                if !line.name.isEmpty {
                    expense.lines[index].name = try NameKey.validated(line.name, kind: .expense, maximumLength: Expense.maximumNameLength)
                }
                expense.lines[index].tags = try Expense.normalizedTags(line.tags)
            }
            expense.lines = try ExpenseLines.allocate(expense.lines, total: try total())
            expense.budgetID = expense.lines[0].budgetID
        }
        if !isRefund { expense.refundOf = nil }
        return expense
    }

    /// What the expense counts in each budget, the one rule every figure follows: the whole total
    /// in ``budgetID``, or each line in its own budget under its own name and tags (else the
    /// expense's); a refund counts its total below zero.
    public var portions: [Portion] {
        get throws(TallyError) {
            if lines.isEmpty {
                let total = try total()
                return [Portion(budgetID: budgetID, amount: isRefund ? try Money.zero - total : total, name: name, tags: tags)]
            }
            return lines.map { line in
                Portion(budgetID: line.budgetID, amount: line.amount, name: line.name.isEmpty ? name : line.name, tags: line.name.isEmpty && line.tags.isEmpty ? tags : line.tags)
            }
        }
    }

    /// Whether the expense counts (wholly or by a line) in budget `id`.
    public func counts(in id: Int64?) -> Bool {
        lines.isEmpty ? budgetID == id : lines.contains { $0.budgetID == id }
    }

    /// The budgets the expense counts in.
    public var budgetIDs: [Int64] { lines.isEmpty ? [budgetID] : lines.map(\.budgetID) }

    /// The expense's total as spending: below zero for a refund.
    public func spending() throws(TallyError) -> Money {
        let total = try total()
        return isRefund ? try Money.zero - total : total
    }

    /// One budget's part of an expense (``portions``).
    public struct Portion: Hashable, Sendable {
        public var budgetID: Int64
        /// Below zero for a refund.
        public var amount: Money
        public var name: String
        public var tags: [String]
        public var nameKey: String { NameKey.make(name) }
    }

    /// Who spent it, trimmed: empty (unknown) or a name of at most ``maximumByLength`` characters
    /// without control characters, as names are checked.
    public static func validatedBy(_ by: String) throws(TallyError) -> String {
        do {
            // `length(spentBy) <= 100` in the schema counts scalars, not characters.
            let name = try NameKey.validated(by, kind: .person, maximumLength: maximumByLength, maximumScalars: maximumByLength)
            // Stores group and match it byte by byte; Swift compares by canonical equivalence.
            return name.utf8.allSatisfy { $0 < 0x80 } ? name : name.precomposedStringWithCanonicalMapping
        } catch .emptyName {
            return ""
        }
    }

    /// An amount is above zero and at most ``Money/maximumInput``.
    public static func checkAmount(_ amount: Money) throws(TallyError) {
        guard amount.cents > 0 else { throw .amountNotPositive(amount) }
        guard amount <= Money.maximumInput else { throw .amountOutOfRange(amount.plainString) }
    }

    /// A quantity is a whole number from 1 to ``maximumQuantity``.
    public static func checkQuantity(_ quantity: Int64) throws(TallyError) {
        guard (1...Expense.maximumQuantity).contains(quantity) else { throw .invalidQuantity(quantity) }
    }

    /// Every expense of a batch validated, or the first broken rule: a batch is all or nothing.
    public static func validated(_ expenses: [Expense]) throws(TallyError) -> [Expense] {
        var validated: [Expense] = []
        validated.reserveCapacity(expenses.count)
        for expense in expenses { validated.append(try expense.validated()) }
        return validated
    }

    public func validate() throws(TallyError) {
        _ = try validated()
    }

    /// Tags are shared between expenses, so `Food` and `food ` must be one tag.
    public static func normalizedTag(_ tag: String) throws(TallyError) -> String {
        if let normalized = PrintableASCII.trimmed(tag, lowercased: true) {
            guard !normalized.isEmpty, normalized.utf8.count <= maximumTagLength,
                !normalized.utf8.contains(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") })
            else { throw .invalidTag(tag) }
            return normalized
        }
        let normalized = NameKey.trimmed(tag).lowercased()
        guard !normalized.isEmpty, normalized.count <= maximumTagLength, normalized.unicodeScalars.count <= maximumTagLength * 10,
            !normalized.unicodeScalars.contains(where: { $0 == ";" || $0 == "," || $0.isControlOrLineBreak })
        else { throw .invalidTag(tag) }
        return normalized
    }

    public static func normalizedTags(_ tags: [String]) throws(TallyError) -> [String] {
        var result: [String] = []
        result.reserveCapacity(tags.count)
        for tag in tags { result.append(try normalizedTag(tag)) }
        // Most lists arrive sorted without duplicates (every list this function returns does),
        // and a million-row import checks each row twice: no set for those.
        if zip(result, result.dropFirst()).allSatisfy({ $0 < $1 }) { return result }
        return Set(result).sorted()
    }

    /// The key used to search expense names ignoring case and diacritics.
    public var nameKey: String { NameKey.make(name) }

    /// An expense belongs to `budget`, the saved budget its ``budgetID`` names (`nil` when there
    /// is none), and a once budget's expense falls within its range.
    public func checkBudget(_ budget: Budget?) throws(TallyError) {
        try checkBudgets { $0 == budgetID ? budget : nil }
    }

    /// Every budget the expense counts in exists (`budget` answers it by id) and accepts its day.
    public func checkBudgets(_ budget: (Int64) -> Budget?) throws(TallyError) {
        for id in budgetIDs {
            let found = budget(id)
            guard found != nil else { throw .budgetNotFound("#\(id)") }
            try found?.checkAccepts(date)
        }
    }


    /// An expense belongs to a saved budget: throws ``TallyError/budgetNotFound(_:)``, naming
    /// the budget by `#` and its id, unless a budget with the id ``budgetID`` `exists`.
    @inlinable
    public func checkBudget(exists: Bool) throws(TallyError) {
        guard exists else { throw .budgetNotFound("#\(budgetID)") }
    }
}
