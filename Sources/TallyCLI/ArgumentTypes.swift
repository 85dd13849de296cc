import ArgumentParser
import TallyCore

/// Amounts, days and months arrive as text and go through Tally's own parsers, so that a bad
/// value fails with Tally's message (`invalid amount '12,50': …`) as a usage error (exit 64)
/// rather than ArgumentParser's generic "The value is invalid".
enum ArgumentValue {
    static func money(_ text: String) throws(ValidationError) -> Money {
        try parse(text, Money.init(parsing:))
    }

    static func day(_ text: String) throws(ValidationError) -> Day {
        try parse(text, Day.init(parsing:))
    }

    static func month(_ text: String) throws(ValidationError) -> Month {
        try parse(text, Month.init(parsing:))
    }

    /// A budget limit: a well-formed amount that obeys ``Budget/checkLimit(_:)``.
    static func limit(_ text: String) throws(ValidationError) -> Money {
        let limit = try money(text)
        try parse(limit, Budget.checkLimit)
        return limit
    }

    /// An expense amount: a well-formed amount that obeys ``Expense/checkAmount(_:)``.
    static func amount(_ text: String) throws(ValidationError) -> Money {
        let amount = try money(text)
        try parse(amount, Expense.checkAmount)
        return amount
    }

    static func quantity(_ value: Int64) throws(ValidationError) -> Int64 {
        try parse(value, Expense.checkQuantity)
        return value
    }

    static func tags(_ tags: [String]) throws(ValidationError) -> [String] {
        try parse(tags, Expense.normalizedTags)
    }

    private static func parse<Input, Value>(
        _ input: Input, _ parser: (Input) throws(TallyError) -> Value
    ) throws(ValidationError) -> Value {
        do {
            return try parser(input)
        } catch {
            throw ValidationError(error.message)
        }
    }
}

extension TallyError {
    /// The one-line message shown after `tally: error:`.
    var message: String { errorDescription ?? "unknown error" }
}
