import ArgumentParser
import TallyCore

/// `--currency` and `--rate`, for a command that takes an amount in another currency than the
/// ledger's (`add`, `refund`): one declaration, so their help and checks cannot drift apart.
struct ForeignOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The currency the amount is in, when not the ledger's (an ISO 4217 code such as JPY).", valueName: "code"))
    var currency: String?

    @Option(
        help: ArgumentHelp(
            "The rate actually charged: ledger units per one unit of the amount's currency (default: the rate table's on the day).",
            valueName: "rate"))
    var rate: String?

    /// `amount` as typed with these options; a rate needs an amount in another currency.
    func typed(_ amount: String) throws(ValidationError) -> TypedAmount { try Self.typed(amount, currency: currency, rate: rate) }

    /// The amount as typed (``TypedAmount/parts``) and the rate given, if any.
    func parts(_ amount: String) throws(ValidationError) -> (ledger: Money, original: CurrencyAmount?, rate: ExchangeRate?) {
        try Self.parts(amount, currency: currency, rate: rate)
    }

    static func typed(_ amount: String, currency: String?, rate: String?) throws(ValidationError) -> TypedAmount {
        let typed = try ArgumentValue.typedAmount(amount, currency: currency)
        if let rate {
            _ = try ArgumentValue.rate(rate)
            guard case .foreign = typed else { throw ValidationError(TallyError.foreignMoney(.rateWithoutCurrency).message) }
        }
        return typed
    }

    static func parts(_ amount: String, currency: String?, rate: String?) throws(ValidationError) -> (ledger: Money, original: CurrencyAmount?, rate: ExchangeRate?) {
        let (ledger, original) = try typed(amount, currency: currency, rate: rate).parts
        return (ledger, original, try rate.map { (text: String) throws(ValidationError) in try ArgumentValue.rate(text) })
    }
}

/// `--currency` and `--rate` of an edit (`expense edit`, `income edit`): the currency of a new
/// `--amount`, and a new rate, which may be `table` to take the rate table's again.
struct EditForeignOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The currency --amount is in, when not the ledger's.", valueName: "code"))
    var currency: String?

    @Option(help: ArgumentHelp("The rate charged (ledger units per one unit of the amount's currency), or 'table'.", valueName: "rate"))
    var rate: String?

    /// A new amount as typed, in the ledger's currency or `currency`; `--currency` needs one.
    func typed(_ amount: String?) throws(ValidationError) -> TypedAmount? {
        guard let amount else {
            guard currency == nil else { throw ValidationError("--currency needs --amount") }
            return nil
        }
        return try ArgumentValue.typedAmount(amount, currency: currency)
    }

    /// The new amount split into a ledger amount or an original one.
    func parts(_ amount: String?) throws(ValidationError) -> (ledger: Money?, original: CurrencyAmount?) {
        switch try typed(amount) {
        case .ledger(let money): (money, nil)
        case .foreign(let foreign): (nil, foreign)
        case nil: (nil, nil)
        }
    }

    func rateChoice() throws(ValidationError) -> RateChoice? {
        guard let rate else { return nil }
        return rate == "table" ? .table : .given(try ArgumentValue.rate(rate))
    }
}
