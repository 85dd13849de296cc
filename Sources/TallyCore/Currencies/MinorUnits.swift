/// How many decimals an ISO 4217 currency's minor unit has (JPY 0, EUR 2, BHD 3, CLF 4).
///
/// Tally keeps its own table: ICU's (`NumberFormatter`, CLDR) gives the digits people are shown,
/// which differ from ISO 4217 for several currencies (CLDR gives IQD, LAK or ALL 0 decimals), and
/// Foundation's `Locale.Currency` gives none on Linux. Codes missing here have 2, the common case;
/// codes without a minor unit (gold, special drawing rights, the test code) cannot hold an amount.
public enum MinorUnits {
    /// ISO 4217 (List One, 2024): the currencies whose minor unit is not hundredths.
    static let exceptions: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
        "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]
    /// ISO 4217's "N.A.": funds and metals that are no money to spend.
    static let withoutMinorUnit: Set<String> = [
        "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX",
    ]

    /// The minor unit's decimals of `currency`, or ``TallyError/foreignMoney(_:)`` when it has none.
    public static func digits(of currency: Currency) throws(TallyError) -> Int {
        if let digits = exceptions[currency.code] { return digits }
        guard !withoutMinorUnit.contains(currency.code) else { throw .foreignMoney(.noMinorUnit(currency.code)) }
        return 2
    }

    /// 10^`digits` for `digits` in 0...18.
    static func power(_ digits: Int) -> UInt64 {
        var value: UInt64 = 1
        for _ in 0..<digits { value *= 10 }
        return value
    }
}
