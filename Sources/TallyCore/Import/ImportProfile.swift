import Foundation

/// A saved way of reading one bank's exports: its column mapping, date format, expense sign,
/// delimiter, number format (decimal comma, currency), encoding, lines to skip and fallback, kept
/// as the user gave them (the import layer reads them); `nil` means the default. Its name also keeps the row keys of its imports (``ImportRowKey``).
public struct ImportProfile: Hashable, Sendable, Codable {
    public static let maximumNameLength = 100
    /// The most lines `skip` may skip above a header: a bank's account details, not a file's rows.
    public static let maximumSkip = 1000

    public var name: String
    public var columns: String?
    public var dateFormat: String?
    /// `positive` or `negative`.
    public var expenseSign: String?
    /// `,`, `;` or `tab`.
    public var delimiter: String?
    public var fallbackBudget: String?
    /// Rows that take the fallback are tagged `uncategorized`.
    public var uncategorized: Bool
    /// Amounts use a decimal comma; `nil` when not set.
    public var decimalComma: Bool?
    /// The ISO 4217 code whose sign or code amounts may carry.
    public var currency: String?
    /// `utf-8`, `windows-1252` or `latin1`.
    public var encoding: String?
    /// The lines above the header, skipped exactly; `nil` finds the header itself.
    public var skip: Int?

    public init(
        name: String = "", columns: String? = nil, dateFormat: String? = nil, expenseSign: String? = nil, delimiter: String? = nil,
        fallbackBudget: String? = nil, uncategorized: Bool = false, decimalComma: Bool? = nil, currency: String? = nil,
        encoding: String? = nil, skip: Int? = nil
    ) {
        self.skip = skip
        self.encoding = encoding
        self.decimalComma = decimalComma
        self.currency = currency
        self.name = name
        self.columns = columns
        self.dateFormat = dateFormat
        self.expenseSign = expenseSign
        self.delimiter = delimiter
        self.fallbackBudget = fallbackBudget
        self.uncategorized = uncategorized
    }

    public var nameKey: String { NameKey.make(name) }

    /// The profile with its name trimmed and checked like a budget's.
    public func validated() throws(TallyError) -> ImportProfile {
        var profile = self
        profile.name = try NameKey.validated(name, kind: .profile, maximumLength: Self.maximumNameLength)
        return profile
    }

    /// This profile with every setting `explicit` gives in its place: flags typed on the command
    /// line win over a saved profile. The name stays this one's.
    public func overridden(by explicit: ImportProfile) -> ImportProfile {
        var merged = self
        if let columns = explicit.columns { merged.columns = columns }
        if let dateFormat = explicit.dateFormat { merged.dateFormat = dateFormat }
        if let expenseSign = explicit.expenseSign { merged.expenseSign = expenseSign }
        if let delimiter = explicit.delimiter { merged.delimiter = delimiter }
        if let decimalComma = explicit.decimalComma { merged.decimalComma = decimalComma }
        if let currency = explicit.currency { merged.currency = currency }
        if let encoding = explicit.encoding { merged.encoding = encoding }
        if let skip = explicit.skip { merged.skip = skip }
        if let fallbackBudget = explicit.fallbackBudget {
            merged.fallbackBudget = fallbackBudget
            merged.uncategorized = explicit.uncategorized
        }
        return merged
    }
}
