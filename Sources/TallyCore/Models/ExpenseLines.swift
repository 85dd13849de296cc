import Foundation

/// How one line of a split expense takes its part of the total: a fixed amount, a percentage of
/// the total, or what is left (`rest`). Kept with the line, so a new total keeps each
/// percentage line's share (``ExpenseLines/reallocated(_:toTotal:)``).
public enum LineShare: Hashable, Sendable {
    /// Exactly this amount.
    case amount(Money)
    /// Hundredths of a percent of the total: `60%` is 6000, `12.5%` is 1250.
    case percent(Int64)
    /// What the other lines leave of the total; at most one line.
    case rest

    /// `80`, `12.50`, `60%`, `12.5%` or `rest`.
    public init(parsing text: String) throws(TallyError) {
        if text.lowercased() == "rest" {
            self = .rest
        } else if text.hasSuffix("%") {
            // A percentage is read as money is, to two decimals: hundredths of a percent.
            guard let number = try? Money(parsing: String(text.dropLast())), number.cents > 0 else {
                throw .split(.invalidShare(text))
            }
            guard number.cents <= 10_000 else { throw .split(.sharesOverWhole(number.cents)) }
            self = .percent(number.cents)
        } else {
            guard let amount = try? Money(parsing: text) else { throw .split(.invalidShare(text)) }
            try Expense.checkAmount(amount)
            self = .amount(amount)
        }
    }

    /// The text ``init(parsing:)`` reads back: what exports and lists write.
    public var text: String {
        switch self {
        case .amount(let amount): amount.plainString
        case .percent(let hundredths): Money(cents: hundredths).plainString.replacingOccurrences(of: ".00", with: "") + "%"
        case .rest: "rest"
        }
    }
}

/// One line of a split expense: its part of the receipt in one budget. A line without a name or
/// tags of its own counts under its expense's (``Expense/portions``).
public struct ExpenseLine: Hashable, Sendable {
    public var budgetID: Int64
    /// The line's part of the expense's total, exact to the cent; set by ``ExpenseLines/allocate(_:total:)``.
    public var amount: Money
    public var share: LineShare
    /// Empty: the expense's name.
    public var name: String
    /// Empty: the expense's tags.
    public var tags: [String]

    public init(budgetID: Int64, share: LineShare, amount: Money = .zero, name: String = "", tags: [String] = []) {
        self.budgetID = budgetID
        self.share = share
        self.amount = amount
        self.name = name
        self.tags = tags
    }
}

extension Expense {
    /// The expense with its split's lines fitted to its total again, after its amount or
    /// quantity changed (``ExpenseLines/reallocated(_:toTotal:)``); unsplit, as it is.
    public func withLinesFitted() throws(TallyError) -> Expense {
        guard !lines.isEmpty else { return self }
        var fitted = self
        fitted.lines = try ExpenseLines.reallocated(lines, toTotal: try total())
        return fitted
    }
}

/// The rules of a split: its lines sum exactly to the expense's total (`amount × quantity`).
///
/// Rounding rule (the one place it is decided): each percentage line is its share of the total
/// rounded half up to the cent. A `rest` line then takes what the other lines leave. Without a
/// `rest`, the lines must cover the total exactly before rounding (fixed amounts plus
/// percentages of it); the cents rounding gained or lost go to the largest line, the first of
/// equals in the order given. Every line ends above zero.
public enum ExpenseLines {
    /// A split has at least two lines and at most this many.
    public static let maximumLines = 100

    /// The lines with their amounts set from their shares of `total`, or the broken rule.
    public static func allocate(_ lines: [ExpenseLine], total: Money) throws(TallyError) -> [ExpenseLine] {
        guard lines.count >= 2 else { throw .split(.tooFewLines) }
        guard lines.count <= maximumLines else { throw .split(.tooManyLines(lines.count)) }
        guard total.cents > 0 else { throw .amountNotPositive(total) }
        var result = lines
        var fixed = Money.zero
        var hundredths: Int64 = 0
        var restIndex: Int?
        for (index, line) in lines.enumerated() {
            switch line.share {
            case .amount(let amount):
                try Expense.checkAmount(amount)
                fixed = try fixed + amount
                result[index].amount = amount
            case .percent(let share):
                guard share > 0 else { throw .split(.invalidShare(line.share.text)) }
                hundredths += share
                guard hundredths <= 10_000 else { throw .split(.sharesOverWhole(hundredths)) }
                result[index].amount = percentage(share, of: total)
            case .rest:
                guard restIndex == nil else { throw .split(.twoRests) }
                restIndex = index
            }
        }
        let allocated = try Money.sum(result.enumerated().filter { $0.offset != restIndex }.map(\.element.amount))
        if let restIndex {
            let left = try total - allocated
            guard left.cents > 0 else { throw .split(.linesExceedTotal(lines: allocated, total: total)) }
            result[restIndex].amount = left
        } else {
            guard covers(total, fixed: fixed, hundredths: hundredths) else {
                throw .split(.linesDoNotSum(lines: allocated, total: total))
            }
            let difference = try total - allocated
            if difference != .zero, let largest = result.indices.max(by: { result[$0].amount < result[$1].amount || (result[$0].amount == result[$1].amount && $0 > $1) }) {
                result[largest].amount = try result[largest].amount + difference
            }
        }
        guard result.allSatisfy({ $0.amount.cents > 0 }) else { throw .split(.emptyLine) }
        return result
    }

    /// The lines of an expense whose total became `total`: percentage lines keep their shares,
    /// fixed lines their amounts; throws when the fixed lines no longer fit.
    public static func reallocated(_ lines: [ExpenseLine], toTotal total: Money) throws(TallyError) -> [ExpenseLine] {
        do {
            return try allocate(lines, total: total)
        } catch .split(.linesExceedTotal(let sum, _)), .split(.linesDoNotSum(let sum, _)) {
            throw .split(.linesNoLongerFit(lines: sum, total: total))
        }
    }

    /// `share` hundredths of a percent of `total`, rounded half up to the cent; exact for any
    /// total, since the product is taken at full width.
    static func percentage(_ share: Int64, of total: Money) -> Money {
        let product = total.cents.multipliedFullWidth(by: share)
        let (quotient, remainder) = Int64(10_000).dividingFullWidth(product)
        return Money(cents: remainder * 2 >= 10_000 ? quotient + 1 : quotient)
    }

    /// Whether `fixed` plus `hundredths` of `total` is exactly `total`, before any rounding.
    static func covers(_ total: Money, fixed: Money, hundredths: Int64) -> Bool {
        // fixed × 10000 + total × hundredths == total × 10000, compared at full width.
        guard fixed <= total else { return false }
        let left = (total.cents - fixed.cents).multipliedFullWidth(by: 10_000)
        let right = total.cents.multipliedFullWidth(by: hundredths)
        return left.high == right.high && left.low == right.low
    }
}

/// What is wrong with a split's lines (``TallyError/split(_:)``): one case of ``TallyError``.
public enum SplitProblem: Hashable, Sendable {
    /// A share is not an amount, a percentage or `rest`.
    case invalidShare(String)
    /// More than one line takes the rest.
    case twoRests
    /// The percentages add up to more than 100 % (in hundredths of a percent).
    case sharesOverWhole(Int64)
    /// Without a `rest` line, the lines do not add up to the total.
    case linesDoNotSum(lines: Money, total: Money)
    /// The fixed lines alone reach or pass the total: nothing is left for the rest.
    case linesExceedTotal(lines: Money, total: Money)
    /// A new total no longer holds the fixed lines.
    case linesNoLongerFit(lines: Money, total: Money)
    /// ``linesDoNotSum(lines:total:)`` or, with `rest`, ``linesExceedTotal(lines:total:)`` of a
    /// split typed against an amount in another currency: the amounts as that currency writes them.
    case foreignLinesDoNotFit(lines: String, total: String, rest: Bool)
    /// A line would be zero once rounded.
    case emptyLine
    case tooFewLines
    case tooManyLines(Int)
    /// The expense is not split.
    case notSplit(Int64)
    /// A refund cannot be split.
    case refundSplit
    /// The expense is split: it has no one budget to move.
    case isSplit(Int64)
    /// An import rule's lines do not fit every amount: no `rest` line, and percentages that do
    /// not add up to 100 % or fixed amounts.
    case ruleNotWhole

    public var message: String {
        switch self {
        case .invalidShare(let text):
            "invalid share \(quoted(text)): use an amount like 80, a percentage like 60% or rest"
        case .twoRests:
            "only one line can take the rest"
        case .sharesOverWhole(let hundredths):
            "the shares add up to \(LineShare.percent(hundredths).text), over 100%"
        case .linesDoNotSum(let lines, let total):
            "the lines add up to \(lines.plainString), not the total \(total.plainString): give one line the rest"
        case .linesExceedTotal(let lines, let total):
            "the lines add up to \(lines.plainString), leaving nothing of the total \(total.plainString) for the rest"
        case .foreignLinesDoNotFit(let lines, let total, false):
            "the lines add up to \(lines), not the total \(total): give one line the rest"
        case .foreignLinesDoNotFit(let lines, let total, true):
            "the lines add up to \(lines), leaving nothing of the total \(total) for the rest"
        case .linesNoLongerFit(let lines, let total):
            "the split's fixed lines add up to \(lines.plainString), which the new total \(total.plainString) cannot hold"
        case .emptyLine:
            "a line of the split would be zero"
        case .tooFewLines:
            "a split needs at least two lines"
        case .tooManyLines(let count):
            "a split has at most \(ExpenseLines.maximumLines) lines, not \(count)"
        case .notSplit(let id):
            "expense #\(id) is not split"
        case .refundSplit:
            "a refund cannot be split"
        case .isSplit(let id):
            "expense #\(id) is split across budgets"
        case .ruleNotWhole:
            "a rule's split must fit any amount: give one line the rest, or use percentages that add up to 100%"
        }
    }
}

extension LineShare: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try LineShare(parsing: text) } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.errorDescription ?? text))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension ExpenseLine: Codable {}

/// An expense's lines and refund as one text, for stores and change sets that keep them beside
/// the expense's other columns: empty for a plain expense; `R` and the refunded id for a refund;
/// else each line's budget id, cents, share, name and `;`-joined tags, fields split by U+001D
/// and lines by U+001E, which names and tags cannot hold (``NameKey`` refuses control characters).
public enum ExpenseDetail {
    static let field: Character = "\u{1D}"
    static let line: Character = "\u{1E}"
    private static let fieldByte = UInt8(0x1D)
    private static let lineByte = UInt8(0x1E)

    public static func pack(_ expense: Expense) -> String {
        if expense.isRefund { return "R" + (expense.refundOf.map(String.init) ?? "") }
        return pack(expense.lines)
    }

    /// The lines alone (empty for none).
    public static func pack(_ lines: [ExpenseLine]) -> String {
        lines.map { line in
            [String(line.budgetID), String(line.amount.cents), line.share.text, line.name, line.tags.joined(separator: ";")]
                .joined(separator: String(field))
        }.joined(separator: String(line))
    }

    /// Sets `expense`'s lines and refund from `text` (``pack(_:)-swift.type.method``).
    public static func unpack(_ text: String, into expense: inout Expense) throws(TallyError) {
        expense.lines = []
        expense.isRefund = false
        expense.refundOf = nil
        guard !text.isEmpty else { return }
        if text.hasPrefix("R") {
            expense.isRefund = true
            let id = text.dropFirst()
            if !id.isEmpty {
                guard let number = Int64(id) else { throw .storage("an expense's refund is damaged") }
                expense.refundOf = number
            }
            return
        }
        expense.lines = try unpackLines(text)
    }

    public static func unpackLines(_ text: String) throws(TallyError) -> [ExpenseLine] {
        var lines: [ExpenseLine] = []
        // Split by bytes: each separator, a control character, is a character of its own, so
        // this is the split by characters without finding each character's bounds.
        for part in text.utf8.split(separator: lineByte, omittingEmptySubsequences: false) {
            let fields = part.split(separator: fieldByte, omittingEmptySubsequences: false).map(Substring.init)
            guard fields.count == 5, let budgetID = Int64(fields[0]), let cents = Int64(fields[1]),
                let share = try? LineShare(parsing: String(fields[2]))
            else { throw .storage("an expense's lines are damaged") }
            lines.append(ExpenseLine(
                budgetID: budgetID, share: share, amount: Money(cents: cents), name: String(fields[3]),
                tags: fields[4].isEmpty ? [] : fields[4].split(separator: ";").map(String.init)))
        }
        return lines
    }
}
