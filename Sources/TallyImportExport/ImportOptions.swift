import TallyCore

/// Which sign an expense has in the file; rows with the other sign are incoming money, which is
/// skipped and counted rather than imported.
///
/// Tally's own files and most spreadsheets list expenses as positive amounts. Most bank exports
/// use one signed column in which money going out is negative: import those with `.negative`.
public enum ExpenseSign: String, CaseIterable, Hashable, Sendable {
    case positive, negative
}

/// How to read a CSV file into expenses.
public struct CSVImportOptions: Hashable, Sendable {
    public var columns: ColumnMapping
    public var dateFormat: DateFormat
    /// The budget for rows without a budget column, or with an empty budget cell.
    public var defaultBudget: String?
    public var expenseSign: ExpenseSign
    public var delimiter: CSVReader.Delimiter

    public init(
        columns: ColumnMapping = .default, dateFormat: DateFormat = .iso, defaultBudget: String? = nil,
        expenseSign: ExpenseSign = .positive, delimiter: CSVReader.Delimiter = .comma
    ) {
        self.columns = columns
        self.dateFormat = dateFormat
        self.defaultBudget = defaultBudget
        self.expenseSign = expenseSign
        self.delimiter = delimiter
    }
}

/// Why a row was left out of an import. Skipped rows are counted, never silently dropped.
public enum SkipReason: String, CaseIterable, Hashable, Comparable, Sendable {
    /// Money coming in: the amount has the sign opposite to expenses.
    case incoming = "incoming money"
    /// An amount of exactly zero, which bank exports use for notes and holds.
    case zeroAmount = "zero amount"
    /// An empty line.
    case blankLine = "blank line"

    public static func < (lhs: SkipReason, rhs: SkipReason) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// One row ready for the store: a validated expense whose budget is still a name.
public struct ImportedExpense: Hashable, Sendable {
    /// The CSV line the row starts on, or the 1-based position in a JSON document's expenses.
    public var line: Int
    /// Trimmed and valid as a budget name; the store resolves it ignoring case and diacritics.
    public var budgetName: String
    /// Validated; `budgetID` is 0 and `id` is `nil` or the exported id until the store assigns its own.
    public var expense: Expense

    public init(line: Int, budgetName: String, expense: Expense) {
        self.line = line
        self.budgetName = budgetName
        self.expense = expense
    }
}

/// What one row of a file turned into.
public enum RowOutcome: Hashable, Sendable {
    case expense(ImportedExpense)
    case skipped(SkipReason)
}
