import Foundation

/// How amounts look to a person: a locale's digits, decimal sign and grouping, and where the
/// currency goes. JSON and CSV never use it; they keep ``Money/plainString``.
///
/// ICU knows every locale's conventions, but formats through a `Decimal` per call and is slow
/// to load them, which a `tally add` cannot afford twice. So the conventions are read once, by
/// formatting probe amounts with ICU (``init(locale:currency:)``) and noting where each part
/// landed; amounts are then formatted here, digit by digit from exact minor units. A test
/// holds the result to ICU's own formatting in every locale ICU has.
public struct MoneyFormat: Hashable, Sendable {
    /// The ten digits, zero first: Latin in most locales, Arabic-Indic in `ar_EG`.
    public var digits: [Character]
    public var decimalSeparator: String
    public var groupingSeparator: String
    /// Digits in the group nearest the decimal sign (3); 0 when the locale does not group.
    public var primaryGroup: Int
    /// Digits in each group further left: 3, or 2 in Indian lakh grouping (`12,34,567.00`).
    public var secondaryGroup: Int
    /// Integer digits a number needs before it is grouped at all: 2 in `es_ES`, where 1234 stays whole.
    public var minimumGroupingDigits: Int
    public var positivePrefix: String
    public var positiveSuffix: String
    public var negativePrefix: String
    public var negativeSuffix: String
    /// Leave out a zero fraction: set for a currency without decimals (``inCurrency(_:)``).
    public var dropsZeroFraction = false

    /// `1,234.50` and `-1,234.50`: what Tally showed before locales, and still shows without one.
    public static let plain = MoneyFormat(
        digits: Array("0123456789"), decimalSeparator: ".", groupingSeparator: ",", primaryGroup: 3, secondaryGroup: 3,
        minimumGroupingDigits: 1, positivePrefix: "", positiveSuffix: "", negativePrefix: "-", negativeSuffix: "")

    public init(
        digits: [Character], decimalSeparator: String, groupingSeparator: String, primaryGroup: Int, secondaryGroup: Int,
        minimumGroupingDigits: Int, positivePrefix: String, positiveSuffix: String, negativePrefix: String, negativeSuffix: String
    ) {
        self.digits = digits
        self.decimalSeparator = decimalSeparator
        self.groupingSeparator = groupingSeparator
        self.primaryGroup = primaryGroup
        self.secondaryGroup = secondaryGroup
        self.minimumGroupingDigits = minimumGroupingDigits
        self.positivePrefix = positivePrefix
        self.positiveSuffix = positiveSuffix
        self.negativePrefix = negativePrefix
        self.negativeSuffix = negativeSuffix
    }

    /// `amount` as the locale writes it, always with two decimals.
    public func string(_ amount: Money) -> String {
        // magnitude avoids the overflow of negating Int64.min.
        let magnitude = amount.cents.magnitude
        let units = Array(String(magnitude / 100).utf8)
        var text = amount.cents < 0 ? negativePrefix : positivePrefix
        let grouped = primaryGroup > 0 && units.count >= primaryGroup + minimumGroupingDigits
        for (index, byte) in units.enumerated() {
            let left = units.count - index
            if grouped, index > 0, left >= primaryGroup,
                left == primaryGroup || (left - primaryGroup) % max(secondaryGroup, 1) == 0
            {
                text += groupingSeparator
            }
            text.append(digits[Int(byte - UInt8(ascii: "0"))])
        }
        let fraction = Int(magnitude % 100)
        guard !dropsZeroFraction || fraction != 0 else { return text + (amount.cents < 0 ? negativeSuffix : positiveSuffix) }
        text += decimalSeparator
        text.append(digits[fraction / 10])
        text.append(digits[fraction % 10])
        text += amount.cents < 0 ? negativeSuffix : positiveSuffix
        return text
    }

    /// `amount` with the sign of a change: `+1,234.50`, `-3.00`, `0.00`.
    public func signed(_ amount: Money) -> String {
        (amount.cents > 0 ? "+" : "") + string(amount)
    }

    /// Reads an amount typed on the command line: ``Money/init(parsing:)``, with the locale's
    /// decimal sign accepted as well as `.` (`12,50` in `de_DE`). Grouping is refused as before:
    /// `1.234` in German is one thousand, and reading it as 1.234 would be a silent mistake.
    public func parse(_ text: String) throws(TallyError) -> Money {
        guard decimalSeparator != ".", text.contains(decimalSeparator) else { return try Money(parsing: text) }
        let pieces = text.components(separatedBy: decimalSeparator)
        guard pieces.count == 2, !pieces[0].contains("."), !pieces[1].contains(".") else { throw .invalidAmount(text) }
        do {
            return try Money(parsing: pieces[0] + "." + pieces[1])
        } catch .amountOutOfRange {
            throw .amountOutOfRange(text)
        } catch {
            throw .invalidAmount(text)
        }
    }
}

extension MoneyFormat {
    /// Amounts in `currency` rather than the ledger's (a budget's own, ``Budget/currency``): this
    /// format's digits and grouping, the code after the number (`300,000 JPY`, `12.50 USD`), and
    /// no decimals for a currency that has none unless the amount has a fraction (never rounded).
    public func inCurrency(_ currency: Currency) -> MoneyFormat {
        var format = self
        format.positivePrefix = ""
        format.negativePrefix = "-"
        format.positiveSuffix = " \(currency.code)"
        format.negativeSuffix = " \(currency.code)"
        format.dropsZeroFraction = ((try? MinorUnits.digits(of: currency)) ?? 2) == 0
        return format
    }

    /// The format of `status`'s figures: this one, or in the budget's own currency.
    public func figures(of budget: Budget) -> MoneyFormat {
        budget.currency.map(inCurrency) ?? self
    }

    /// The conventions of `locale` (an ICU identifier such as `de_DE`, already checked by
    /// ``LocaleName``) with `currency`'s symbol where the locale puts it. Without a currency
    /// the amounts are bare numbers in the locale's style.
    public init(locale: LocaleName, currency: Currency?) {
        let icuLocale = Locale(identifier: locale.identifier)
        func format(_ text: String) -> String {
            // Decimal is base ten, so the probes reach ICU exactly.
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
            if let currency {
                return value.formatted(.currency(code: currency.code).precision(.fractionLength(2)).locale(icuLocale))
            }
            return value.formatted(.number.precision(.fractionLength(2)).locale(icuLocale))
        }
        // Every digit appears in the integer part, and the groups show both sizes.
        let probe = Probe(format("1234567890.12"))
        let negative = Probe(format("-1234567890.12"))
        guard let probe, let negative, probe.digits.count == 10 else {
            self = .plain
            return
        }
        // Most locales group from four digits on, `es_ES` from five, `ee` from six.
        let smallest = ["1234.50", "12345.50", "123456.50"].firstIndex { (Probe(format($0))?.groupCount ?? 0) > 1 }
        self.init(
            digits: probe.digits, decimalSeparator: probe.decimalSeparator, groupingSeparator: probe.groupingSeparator,
            primaryGroup: probe.primaryGroup, secondaryGroup: probe.secondaryGroup,
            minimumGroupingDigits: (smallest ?? 0) + 1, positivePrefix: probe.prefix, positiveSuffix: probe.suffix,
            negativePrefix: negative.prefix, negativeSuffix: negative.suffix)
    }

    /// Where the parts of one formatted probe landed.
    private struct Probe {
        var prefix = ""
        var suffix = ""
        var digits: [Character] = []
        var decimalSeparator = ""
        var groupingSeparator = ""
        var primaryGroup = 0
        var secondaryGroup = 0
        var groupCount = 0

        /// `nil` when the text is not digit runs between a prefix and a suffix, ending in two decimals.
        init?(_ text: String) {
            let characters = Array(text)
            guard let first = characters.firstIndex(where: Self.isDigit), let last = characters.lastIndex(where: Self.isDigit) else {
                return nil
            }
            prefix = String(characters[..<first])
            suffix = String(characters[(last + 1)...])
            var runs: [[Character]] = [[]]
            var separators: [String] = []
            for character in characters[first...last] {
                if Self.isDigit(character) {
                    runs[runs.count - 1].append(character)
                } else if runs[runs.count - 1].isEmpty {
                    separators[separators.count - 1].append(character)
                } else {
                    separators.append(String(character))
                    runs.append([])
                }
            }
            guard runs.count >= 2, let fraction = runs.last, fraction.count == 2, let decimal = separators.last else { return nil }
            let groups = runs.dropLast()
            let grouping = Set(separators.dropLast())
            guard grouping.count <= 1 else { return nil }
            decimalSeparator = decimal
            groupingSeparator = grouping.first ?? ""
            groupCount = groups.count
            primaryGroup = groups.count > 1 ? groups[groups.endIndex - 1].count : 0
            secondaryGroup = groups.count > 2 ? groups[groups.endIndex - 2].count : primaryGroup
            digits = groups.flatMap { $0 }
            // The integer part of the long probe is 1234567890: its digits, in order, are 1 to 9 then 0.
            if digits.count == 10 { digits = [digits[9]] + digits[0..<9] }
        }

        private static func isDigit(_ character: Character) -> Bool {
            character.unicodeScalars.count == 1 && character.unicodeScalars.first?.properties.numericType == .decimal
        }
    }
}

/// A locale name Tally can format for: an ICU identifier (`de_DE`), read from `de_DE.UTF-8`,
/// `de-DE` or `de_DE@euro` as `LANG` and people write it. `C` and `POSIX` mean no locale.
public struct LocaleName: Hashable, Sendable {
    public let identifier: String

    /// `nil` for `C`, `POSIX` and the empty name: today's plain figures.
    public static func parse(_ text: String) throws(TallyError) -> LocaleName? {
        guard let identifier = normalized(text) else { return nil }
        guard Locale.availableIdentifiers.contains(identifier) else { throw .invalidLocale(text) }
        return LocaleName(identifier: identifier)
    }

    /// The ICU spelling of `text`, not yet checked; `nil` for `C`, `POSIX` and the empty name.
    public static func normalized(_ text: String) -> String? {
        // Plain character work: Foundation's `replacingOccurrences` is costly on every run, even
        // for a `LANG` of `C.UTF-8`, where this only looks at a few characters.
        let name = text.prefix { $0 != "." && $0 != "@" }
        if name.isEmpty || name == "C" || name == "POSIX" { return nil }
        return String(name.map { $0 == "-" ? "_" : $0 })
    }

    /// An identifier ``parse(_:)`` accepted before, as a cache of its conventions remembers:
    /// checking it again would load ICU's list of locales, which the cache is there to avoid.
    public init(knownIdentifier: String) {
        identifier = knownIdentifier
    }

    private init(identifier: String) {
        self.identifier = identifier
    }

    /// English with no region, for a ledger that has a currency and a user who named no locale:
    /// `€1,234.50`, the same digits as before, with the symbol.
    public static let neutral = LocaleName(identifier: "en")
}
