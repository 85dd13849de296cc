import TallyCore

extension CSVImportOptions {
    /// The options a profile's settings describe, read as `--columns`, `--date-format`,
    /// `--expense-sign`, `--delimiter`, `--skip` and `--budget`/`--uncategorized` read them; unset ones
    /// keep their defaults, and a saved profile also keeps the row keys of its imports.
    public init(_ profile: ImportProfile) throws(TallyError) {
        self.init()
        if let columns = profile.columns { self.columns = try ColumnMapping(parsing: columns) }
        if let dateFormat = profile.dateFormat { self.dateFormat = try DateFormat(pattern: dateFormat) }
        if let sign = profile.expenseSign {
            guard let parsed = ExpenseSign(rawValue: sign) else {
                throw .invalidImportOption(.expenseSign, value: sign, reason: "use positive or negative")
            }
            expenseSign = parsed
        }
        if let delimiter = profile.delimiter { self.delimiter = try CSVReader.Delimiter(name: delimiter) }
        var currency: String?
        if let code = profile.currency {
            do { currency = try Currency(code: code).code } catch { throw .invalidImportOption(.currency, value: code, reason: error.errorDescription ?? "unknown currency") }
        }
        amountFormat = AmountFormat(decimalComma: profile.decimalComma ?? false, currency: currency)
        if let name = profile.encoding { encoding = try TextEncoding(name: name) }
        if let skip = profile.skip { skipLines = try HeaderSearch.validatedSkip(skip) }
        defaultBudget = profile.fallbackBudget
        tagsFallbackUncategorized = profile.fallbackBudget != nil && profile.uncategorized
        if !profile.name.isEmpty { dedupeScope = profile.nameKey }
    }
}

extension CSVReader.Delimiter {
    /// `,`, `;` or `tab` (also `\t` itself), as `--delimiter` and profiles name them.
    public init(name: String) throws(TallyError) {
        switch name.lowercased() {
        case ",", "comma": self = .comma
        case ";", "semicolon": self = .semicolon
        case "tab", "\t": self = .tab
        default: throw .invalidImportOption(.delimiter, value: name, reason: "use ',', ';' or tab")
        }
    }

    /// The name profiles keep.
    public var name: String {
        switch self {
        case .comma: ","
        case .semicolon: ";"
        case .tab: "tab"
        }
    }

    /// The delimiter a header line uses: whichever of `,`, `;` and tab it holds most of outside
    /// quotes (a comma on a tie, and for a header of one column).
    public static func detect(header bytes: some Sequence<UInt8>) -> CSVReader.Delimiter {
        var counts: [CSVReader.Delimiter: Int] = [:]
        var quoted = false
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted, byte == 0x0A || byte == 0x0D { break }
            if !quoted, let delimiter = CSVReader.Delimiter(rawValue: byte) { counts[delimiter, default: 0] += 1 }
        }
        let comma = counts[.comma] ?? 0
        let best = [CSVReader.Delimiter.semicolon, .tab].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? .comma
        return (counts[best] ?? 0) > comma ? best : .comma
    }
}
