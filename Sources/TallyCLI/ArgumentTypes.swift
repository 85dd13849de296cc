import ArgumentParser
import TallyCore

/// Amounts, days and months arrive as text and go through Tally's own parsers, so that a bad
/// value fails with Tally's message (`invalid amount '12,50': …`) as a usage error (exit 64)
/// rather than ArgumentParser's generic "The value is invalid".
enum ArgumentValue {
    /// An amount, with the locale's decimal sign accepted as well as `.` (``Preferences/amount(_:)``).
    static func money(_ text: String) throws(ValidationError) -> Money {
        try parse(text) { (text: String) throws(TallyError) in try Preferences.current.amount(text) }
    }

    /// A day as people say it (`yesterday`, `-3d`, `last fri`, `nov 20`, `2026-11-20`), against today's local date.
    /// An ISO day is read without asking the clock.
    static func day(_ text: String) throws(ValidationError) -> Day {
        if let day = try? Day(parsing: text) { return day }
        return try parse(text) { (text: String) throws(TallyError) in try Day(phrase: text, today: Day.today()) }
    }

    /// A month as people say it (`this`, `last`, `-2`, `nov`, `2026-11`), against today's local month.
    static func month(_ text: String) throws(ValidationError) -> Month {
        if let month = try? Month(parsing: text) { return month }
        return try parse(text) { (text: String) throws(TallyError) in try Month(phrase: text, current: Day.today().monthValue) }
    }

    /// A period as people name it: `this`, `last`, `-2` and `nov` count from the ledger's current
    /// period, which its month start decides, so they are resolved once the ledger is open.
    static func period(_ text: String) throws(ValidationError) -> PeriodChoice {
        if let month = try? Month(parsing: text) { return .month(month) }
        return try parse(text) { (text: String) throws(TallyError) in try PeriodChoice(phrase: text, today: Day.today()) }
    }

    /// A balance, which may be below zero (`-12.50`): an overdrawn account, a card in credit.
    static func balance(_ text: String) throws(ValidationError) -> Money {
        let trimmed = NameKey.trimmed(text)
        guard trimmed.hasPrefix("-") || trimmed.hasPrefix("\u{2212}") else { return try money(trimmed) }
        let magnitude = try money(String(trimmed.dropFirst()))
        return Money(cents: -magnitude.cents)
    }

    /// A budget's `--currency`: an ISO 4217 code with a minor unit, or `none` (`nil`: the ledger's).
    static func budgetCurrency(_ text: String) throws(ValidationError) -> Currency? {
        guard text.lowercased() != "none" else { return nil }
        return try parse(text) { (text: String) throws(TallyError) in
            let currency = try Currency(code: text)
            _ = try MinorUnits.digits(of: currency)
            return currency
        }
    }

    /// Amounts of a budget in `currency` have at most its decimals (``BudgetCurrency/checkAmounts(of:in:)``).
    static func check(_ amounts: [Money], in currency: Currency?) throws(ValidationError) {
        guard let currency else { return }
        for amount in amounts {
            try parse(Budget(name: "-", limit: amount)) { (budget: Budget) throws(TallyError) in try BudgetCurrency.checkAmounts(of: budget, in: currency) }
        }
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

    /// Who spent it (`--by`), trimmed; empty records no one.
    static func by(_ name: String) throws(ValidationError) -> String {
        try parse(name, Expense.validatedBy)
    }

    /// `input` as a rule of a lower layer checks it: its message, as a usage error.
    @discardableResult
    static func check<Input, Value>(_ input: Input, _ rule: (Input) throws(TallyError) -> Value) throws(ValidationError) -> Value {
        try parse(input, rule)
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

/// How the help shows a day and a month option. Their values are read unconditionally
/// (`parsing: .unconditional`), so that `--date -3d` and `--month -2` are values rather than
/// unknown options.
enum PhraseHelp {
    /// What a day option's help ends with.
    static let days = "like today, yesterday, -3d, 3d ago, mon, last fri, 20, nov 20, 11-20 or 2026-11-20"
    /// What a month option's help ends with.
    static let months = "like this, last, -2, nov or 2026-11"
}

extension TallyError {
    /// The one-line message shown after `tally: error:`.
    var message: String { errorDescription ?? "unknown error" }
}
