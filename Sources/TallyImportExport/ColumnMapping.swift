import TallyCore

/// The expense fields an import fills, named as in the default header.
public enum ImportField: String, CaseIterable, Hashable, Sendable {
    case date, budget, name, amount, quantity, tags, by
    /// The row's ISO 4217 code (its amount is in that currency) and the rate charged.
    case currency, rate

    /// The default header, which is also what `tally export` writes. `by` is who spent it.
    public static let defaultHeader: [ImportField] = [.date, .budget, .name, .amount, .quantity, .tags, .by]
    /// Every field a mapping may name, in the order columns are looked up.
    static let mappable: [ImportField] = defaultHeader + [.currency, .rate]
}

/// Which header column holds each field.
///
/// Without `--columns` the default header names are used, and `budget`, `quantity`, `tags`, `by`,
/// `currency` and `rate` may be missing from the file. A `currency` column found so is read as a
/// mapped one: ignored, its rows' foreign amounts would pass for the ledger's, 1:1. A `rate`
/// column is read only beside a `currency` one. With `--columns`, exactly the listed fields are
/// read: `date`, `name` and `amount` must be listed, and every listed column must be in the header.
public struct ColumnMapping: Hashable, Sendable {
    public let columns: [ImportField: String]
    /// Whether the mapping came from `--columns` rather than the default header.
    public let isExplicit: Bool

    public static let required: [ImportField] = [.date, .name, .amount]

    public static let `default` = ColumnMapping(
        columns: Dictionary(uniqueKeysWithValues: ImportField.mappable.map { ($0, $0.rawValue) }), isExplicit: false)

    private init(columns: [ImportField: String], isExplicit: Bool) {
        self.columns = columns
        self.isExplicit = isExplicit
    }

    /// Reads `date=COL,name=COL,amount=COL[,budget=COL][,quantity=COL][,tags=COL][,by=COL][,currency=COL][,rate=COL]`.
    public init(parsing text: String) throws(TallyError) {
        func invalid(_ reason: String) -> TallyError {
            .invalidImportOption(.columnMapping, value: text, reason: reason)
        }
        var columns: [ImportField: String] = [:]
        for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = pair.firstIndex(of: "=") else {
                throw invalid("\(quoted(String(pair))) is not KEY=COLUMN")
            }
            let key = pair[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let column = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard let field = ImportField(rawValue: key) else {
                throw invalid("unknown key \(quoted(key)); use \(ImportField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard !column.isEmpty else { throw invalid("no column given for \(key)") }
            guard columns[field] == nil else { throw invalid("\(key) is given twice") }
            columns[field] = column
        }
        let missing = ColumnMapping.required.filter { columns[$0] == nil }
        guard missing.isEmpty else {
            throw invalid("missing \(missing.map(\.rawValue).joined(separator: ", "))")
        }
        // A rate is of a row's currency into the ledger's: without the currency it means nothing.
        guard columns[.rate] == nil || columns[.currency] != nil else { throw invalid("rate needs a currency column") }
        self.init(columns: columns, isExplicit: true)
    }

    /// Finds each mapped column in `header`, ignoring case and surrounding spaces.
    func resolve(header: [String], line: Int) throws(TallyError) -> [ImportField: Int] {
        var positions: [String: [Int]] = [:]
        for (index, name) in header.enumerated() {
            positions[ColumnMapping.key(name), default: []].append(index)
        }
        var resolved: [ImportField: Int] = [:]
        for field in ImportField.mappable {
            guard let column = columns[field] else { continue }
            let found = positions[ColumnMapping.key(column)] ?? []
            if found.count > 1 {
                throw .importFile(line: line, reason: "the header has more than one column \(quoted(column))")
            }
            if let index = found.first {
                resolved[field] = index
            } else if isExplicit || ColumnMapping.required.contains(field) {
                throw .importFile(
                    line: line,
                    reason: "the header has no column \(quoted(column)) for \(field.rawValue) (columns: \(ColumnMapping.listed(header)))")
            }
        }
        // A rate is of a row's currency into the ledger's: without the currency it means nothing.
        if !isExplicit, resolved[.currency] == nil { resolved[.rate] = nil }
        return resolved
    }

    /// The header's names for a message, shortened: a file's first line may be a megabyte long.
    static func listed(_ header: [String]) -> String {
        var names = header.prefix(12).map { $0.count > 40 ? $0.prefix(40) + "…" : $0 }
        if header.count > names.count { names.append("… (\(header.count) columns)") }
        return names.joined(separator: ", ")
    }

    static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
