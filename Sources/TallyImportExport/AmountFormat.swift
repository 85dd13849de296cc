import TallyCore

/// How a file writes amounts beyond Tally's own `-12.50`: the decimal sign, thousands
/// separators, and a currency sign or code.
///
/// Read only when the fast path (`CSVRowMapper.signedCents`) declines a cell, so plain files
/// cost nothing more. Thousands separators (`,` `.` `'`, space, U+00A0, U+202F) are accepted
/// where they group by three; a value that reads differently under the two decimal conventions
/// without `decimalComma` saying which (`1,234`), or that fits neither (`1.23,45`, `1.2.3`), is
/// refused with a reason.
public struct AmountFormat: Hashable, Sendable {
    /// `,` is the decimal sign and `.` groups thousands (`-1.234,56`).
    public var decimalComma: Bool
    /// The currency whose sign or code a cell may carry (`€12.50`, `12.50 EUR`); `nil` allows none.
    public var currency: String?

    public init(decimalComma: Bool = false, currency: String? = nil) {
        self.decimalComma = decimalComma
        self.currency = currency
    }

    /// Signs and codes of the currencies a bank file is likely to carry, to tell "another
    /// currency" from "not a number".
    static let signs: [String: [String]] = [
        "EUR": ["€", "EUR"], "USD": ["$", "US$", "USD"], "GBP": ["£", "GBP"], "CHF": ["CHF", "Fr."], "JPY": ["¥", "JPY"],
        "SEK": ["kr", "SEK"], "NOK": ["NOK"], "DKK": ["DKK"], "PLN": ["zł", "PLN"], "CAD": ["CA$", "CAD"], "AUD": ["A$", "AUD"],
        "INR": ["₹", "INR"],
    ]

    /// Cents with their sign, or why the cell is not an amount in this format.
    public func signedCents(_ cell: String) -> Result<Int64, AmountProblem> {
        signedMinorUnits(cell, digits: nil)
    }

    /// The amount in minor units of `digits` decimals (the row's currency's), or cents when `nil`.
    /// More decimals than that are ``AmountProblem/tooManyDecimals(_:)`` unless the value could
    /// be a whole number grouped by three (`1.234`), which is ambiguous as for cents.
    public func signedMinorUnits(_ cell: String, digits: Int?) -> Result<Int64, AmountProblem> {
        var text = Substring(cell.trimmingCharacters(in: .whitespaces))
        var negative = false
        func takeSign() {
            if let first = text.first, first == "-" || first == "+" || first == "\u{2212}" {
                negative = first != "+"
                text = text.dropFirst().drop { $0 == " " }
            } else if let last = text.last, last == "-" || last == "+" {
                negative = last == "-"
                text = text.dropLast()
            }
        }
        takeSign()
        // A currency sign or code before or after the number, the sign on either side of it.
        for (code, marks) in Self.signs {
            for mark in marks.sorted(by: { $0.count > $1.count }) {
                let found: Bool
                if text.hasPrefix(mark) {
                    text = text.dropFirst(mark.count)
                    found = true
                } else if text.hasSuffix(mark) {
                    text = text.dropLast(mark.count)
                    found = true
                } else {
                    found = false
                }
                guard found else { continue }
                guard code == currency else {
                    guard currency == nil else { return .failure(.otherCurrency(code)) }
                    return .failure(.currency(code == "USD" ? nil : code))
                }
                text = Substring(text.trimmingCharacters(in: .whitespaces.union(["\u{A0}", "\u{202F}"])))
                if !negative { takeSign() }
                return number(text, negative: negative, digits: digits)
            }
        }
        return number(text, negative: negative, digits: digits)
    }

    private func number(_ text: Substring, negative: Bool, digits minorDigits: Int?) -> Result<Int64, AmountProblem> {
        let decimal: Character = decimalComma ? "," : "."
        let grouping: Set<Character> = decimalComma ? [".", " ", "\u{A0}", "\u{202F}", "'"] : [",", " ", "\u{A0}", "\u{202F}", "'"]
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber || $0 == decimal || grouping.contains($0) || $0 == "," || $0 == "." }) else {
            return .failure(.notANumber)
        }
        // Split off the decimals at the last decimal sign.
        var whole = text
        var fraction: Substring = ""
        if let index = text.lastIndex(of: decimal) {
            whole = text[..<index]
            fraction = text[text.index(after: index)...]
            guard fraction.allSatisfy(\.isNumber) else { return .failure(.fitsNeither) }
        }
        guard !whole.contains(decimal) else { return .failure(.fitsNeither) }
        // Groups: the first 1 to 3 digits, every later one exactly 3, one separator kind.
        let separators = Set(whole.filter { !$0.isNumber })
        guard separators.count <= 1 else { return .failure(.fitsNeither) }
        let groups = whole.split(omittingEmptySubsequences: false, whereSeparator: { !$0.isNumber })
        if groups.count > 1 {
            guard let first = groups.first, (1...3).contains(first.count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
                return .failure(.fitsNeither)
            }
            // `1,234` with a point decimal sign could be 1.234 under the other convention.
            if !decimalComma, fraction.isEmpty, !text.contains("."), separators == [","] { return .failure(.ambiguous) }
        }
        let places = minorDigits ?? 2
        guard fraction.count <= places else {
            let grouped = !decimalComma && !text.contains(",") && fraction.count == 3
            guard let minorDigits, !grouped else {
                return .failure(decimalComma ? .fitsNeither : (text.contains(",") ? .fitsNeither : .ambiguous))
            }
            return .failure(.tooManyDecimals(minorDigits))
        }
        let wholeDigits: String = groups.joined()
        let digits: String = wholeDigits + String(fraction) + String(repeating: "0", count: places - fraction.count)
        // Cents as Money bounds them; another currency's units as CurrencyAmount does.
        let (maximumDigits, maximum): (Int, Int64) =
            minorDigits == nil ? (14, 100_000_000_000) : (18, CurrencyAmount.maximumUnits * Int64(pow10(places)))
        guard !wholeDigits.isEmpty, digits.count <= maximumDigits, let units = Int64(digits), units <= maximum else {
            return .failure(.notANumber)
        }
        return .success(negative ? -units : units)
    }
}

private func pow10(_ digits: Int) -> Int {
    (0..<digits).reduce(1) { value, _ in value * 10 }
}

/// Why a cell is not an amount.
public enum AmountProblem: Error, Hashable, Sendable {
    /// More decimals than the row's currency has (this many).
    case tooManyDecimals(Int)
    case notANumber
    /// Reads differently under the two decimal conventions.
    case ambiguous
    /// Fits neither convention (`1.23,45`, `1.2.3`).
    case fitsNeither
    /// Carries a currency's sign or code while the import named none (`nil`: a sign several
    /// currencies use, such as `$`).
    case currency(String?)
    /// Carries the sign or code of a currency other than the one the import named.
    case otherCurrency(String)

    /// What is wrong with the cell; ``hint`` says which setting could read it.
    public func reason(decimalComma: Bool) -> String {
        switch self {
        case .notANumber: "use an amount like 12.50, optionally signed, at most 1,000,000,000.00"
        case .ambiguous: "it reads differently with a decimal point and a decimal comma"
        case .fitsNeither: decimalComma ? "it is not a number written as 1.234,56" : "it is not a number written as 1,234.56"
        case .currency(let code?), .otherCurrency(let code): "it is in \(code)"
        case .currency(nil): "it carries a currency sign"
        case .tooManyDecimals(0): "its currency has no decimals"
        case .tooManyDecimals(let digits): "its currency has at most \(digits) decimal\(digits == 1 ? "" : "s")"
        }
    }

    /// The import setting that could read the cell, for the CLI to name as its flag.
    public var hint: TallyError.ImportHint? {
        switch self {
        case .notANumber, .fitsNeither, .tooManyDecimals: nil
        case .ambiguous: .decimalComma
        case .otherCurrency: .currencyGiven
        case .currency: .currencyUnnamed
        }
    }
}
