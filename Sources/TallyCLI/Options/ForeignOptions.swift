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
