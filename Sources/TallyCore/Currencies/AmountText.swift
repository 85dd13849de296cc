/// An amount as typed with its currency: `4500 JPY`, `JPY 4500`, `4500JPY`, `¥4500`, `€12,50`.
/// Splits the currency from the number; the number is read by the caller, which knows the
/// locale's decimal sign and the currency's minor unit.
public enum AmountText {
    /// Signs that name one currency only; `$`, `kr` and the like name several and are not read.
    static let signs: [String: String] = [
        "€": "EUR", "¥": "JPY", "£": "GBP", "₩": "KRW", "₹": "INR", "₽": "RUB", "₺": "TRY", "₪": "ILS", "₫": "VND",
        "฿": "THB", "₱": "PHP", "₴": "UAH", "₦": "NGN", "US$": "USD", "CA$": "CAD", "A$": "AUD", "NZ$": "NZD", "HK$": "HKD",
    ]

    /// Signs that name several currencies, which an amount may not be written with.
    static let sharedSigns = ["$", "kr"]

    /// The sign `text` is written with when it names several currencies (`$12.50`, `12 kr`):
    /// such an amount is refused with what to write instead, not read as a bare number.
    public static func sharedSign(in text: String) -> String? {
        let trimmed = NameKey.trimmed(text)
        return sharedSigns.first { sign in
            let rest = trimmed.hasPrefix(sign) ? trimmed.dropFirst(sign.count) : trimmed.hasSuffix(sign) ? trimmed.dropLast(sign.count) : nil
            guard let rest else { return false }
            let number = NameKey.trimmed(String(rest))
            return !number.isEmpty && number.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || $0 == "." || $0 == "," }
        }
    }

    /// The currency code (capitals, not yet checked against ISO 4217) and the number's text; no
    /// code when `text` names none. Letters other than a leading or trailing code stay in the
    /// number, whose parser refuses them.
    public static func split(_ text: String) -> (code: String?, number: String) {
        let trimmed = NameKey.trimmed(text)
        // Only a number is left beside a code or sign: other text is no amount (and its
        // parser, not a currency lookup, says so).
        func numeric(_ part: some StringProtocol) -> String? {
            let number = NameKey.trimmed(String(part))
            let allowed = number.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || $0 == "." || $0 == "," }
            return !number.isEmpty && allowed ? number : nil
        }
        for (sign, code) in signs.sorted(by: { $0.key.count > $1.key.count }) {
            if trimmed.hasPrefix(sign), let number = numeric(trimmed.dropFirst(sign.count)) { return (code, number) }
            if trimmed.hasSuffix(sign), let number = numeric(trimmed.dropLast(sign.count)) { return (code, number) }
        }
        let letters = { (part: Substring) in part.count == 3 && part.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) } }
        if trimmed.count > 3, letters(trimmed.suffix(3)), let number = numeric(trimmed.dropLast(3)) {
            return (trimmed.suffix(3).uppercased(), number)
        }
        if trimmed.count > 3, letters(trimmed.prefix(3)), let number = numeric(trimmed.dropFirst(3)) {
            return (trimmed.prefix(3).uppercased(), number)
        }
        return (nil, text)
    }
}
