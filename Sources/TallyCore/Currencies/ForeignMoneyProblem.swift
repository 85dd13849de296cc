/// What is wrong with an amount in another currency, a rate, or a conversion
/// (``TallyError/foreignMoney(_:)``): one case of ``TallyError`` keeps that enum short.
public enum ForeignMoneyProblem: Hashable, Sendable {
    /// The amount text is not digits with at most the currency's decimals.
    case invalidAmount(String, currency: String, digits: Int)
    /// The currency has no minor unit (gold, XDR, XXX): no amount can be in it.
    case noMinorUnit(String)
    /// Rate text is not a positive decimal with at most 12 fractional digits.
    case invalidRate(String)
    /// A rate typed by hand above ``ExchangeRate/maximumTyped``.
    case typedRateTooLarge(String)
    /// No rate from `from` to `to` on or before `day`, directly, inverted or through a third currency.
    case missingRate(from: String, to: String, day: Day)
    /// The converted amount does not fit (or a derived rate would have more than 18 digits).
    case conversionOverflow(String)
    /// A rate was given for an expense in the ledger's own currency.
    case rateWithoutCurrency
    /// An amount named a currency twice, differently (`4500 JPY --currency USD`).
    case conflictingCurrencies(String, String)
    /// An amount written with a sign several currencies use (`$12.50`): the amount and the sign.
    case sharedSign(String, sign: String)
    /// A rate from a currency to itself.
    case ratePairOfOne(String)
    /// The ledger names no currency, so nothing can be converted into it.
    case noLedgerCurrency
    /// A rate file's line could not be read.
    case rateFile(line: Int, String)
    /// The ledger's currency cannot go while a budget has its own (``Budget/currency``).
    case budgetInOwnCurrency(String, currency: String)
    /// Rates missing for the expenses of an import, every pair with its days.
    case missingRates([MissingRates.Pair])
    /// An imported row's currency, rate or amount in its currency cannot be read.
    case importCell(line: Int, column: String, value: String, reason: String)
    /// A bank statement's currency or rate field cannot be read (`field` as the format names it:
    /// `CURRATE`, `InstdAmt/Amt Ccy`); `line` is `nil` where the format has no lines.
    case statementField(line: Int?, field: String, value: String, reason: String)

    public var message: String {
        switch self {
        case .invalidAmount(let text, let currency, let digits):
            digits == 0
                ? "invalid amount \(quoted(text)) in \(currency): \(currency) has no decimals, use whole units like 4500"
                : "invalid amount \(quoted(text)) in \(currency): use digits with at most \(digits) decimals"
        case .noMinorUnit(let code):
            "currency \(code) has no minor unit: amounts cannot be kept in it"
        case .invalidRate(let text):
            "invalid rate \(quoted(text)): use a positive decimal with at most 12 decimals, like 0.0061"
        case .typedRateTooLarge(let text):
            "rate \(quoted(text)) is too large: a rate typed by hand is at most 1,000,000"
        case .missingRate(let from, let to, let day):
            "no rate from \(from) to \(to) on or before \(day.isoString)"
        case .conversionOverflow(let what):
            "\(what) is too large to convert exactly"
        case .rateWithoutCurrency:
            "a rate needs an amount in another currency than the ledger's"
        case .conflictingCurrencies(let first, let second):
            "the amount is in \(first) but the currency given is \(second)"
        case .sharedSign(let text, let sign):
            "amount \(quoted(text)) names no one currency: \(quoted(sign)) is the sign of several; write the code instead, like 12.50 USD"
        case .ratePairOfOne(let code):
            "a rate needs two different currencies, not \(code) twice"
        case .noLedgerCurrency:
            "the ledger has no currency set: amounts in other currencies need one to be converted into"
        case .rateFile(let line, let problem):
            "line \(line): \(problem)"
        case .budgetInOwnCurrency(let name, let currency):
            "budget \(quoted(name)) is in \(currency): a ledger with budgets in their own currencies needs a currency of its own"
        case .missingRates(let pairs):
            MissingRates.describe(pairs)
        case .importCell(let line, let column, let value, let reason):
            "line \(line), column \(quoted(column)), value \(quoted(value)): \(reason)"
        case .statementField(let line, let field, let value, let reason):
            (line.map { "line \($0): " } ?? "") + "\(field) \(quoted(value)): \(reason)"
        }
    }
}
