import Foundation

/// The currency a ledger's amounts are in: an ISO 4217 code such as `EUR`.
///
/// Only how figures look depends on it. Amounts stay hundredths whatever the currency, so a
/// currency with other minor units (JPY has none, KWD three) still shows two decimals: Tally
/// never rounds a figure it shows.
public struct Currency: Hashable, Sendable, Codable {
    public let code: String

    /// A code ICU knows as an ISO 4217 currency, in capitals; lowercase input is accepted.
    public init(code text: String) throws(TallyError) {
        let code = text.uppercased()
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }),
            Locale.Currency.isoCurrencies.contains(Locale.Currency(code))
        else { throw .invalidCurrency(text) }
        self.code = code
    }

    /// A code read back from storage, where it was validated when it was saved.
    public init(storedCode: String) {
        code = storedCode
    }
}
