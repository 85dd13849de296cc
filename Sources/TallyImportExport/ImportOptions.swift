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
    /// The fallback: the budget for rows without a budget column, or with an empty budget cell,
    /// that no rule matches.
    public var defaultBudget: String?
    /// Rows that go to `defaultBudget` are also tagged ``uncategorizedTag``, to sort later.
    public var tagsFallbackUncategorized: Bool
    /// The ledger's import rules, for rows without a budget cell; the first match by
    /// ``ImportRule/ordered(_:)`` decides.
    public var rules: [ImportRule]
    public var expenseSign: ExpenseSign
    public var delimiter: CSVReader.Delimiter
    /// What row keys are kept under (``ImportRowKey``): a saved profile's name; `nil` keeps them
    /// under the file's column layout, its header.
    public var dedupeScope: String?
    /// Decimal comma, thousands separators and a currency (``AmountFormat``).
    public var amountFormat = AmountFormat()
    /// The file's character encoding.
    public var encoding = TextEncoding.utf8
    /// Lines above the header skipped exactly (``ImportProfile/maximumSkip`` at most); `nil`
    /// takes the first of ``HeaderSearch/maximumPreambleLines`` lines that holds every mapped column.
    public var skipLines: Int?
    /// Who spent the rows whose file names no one (no `by` column, or an empty cell), validated
    /// (``Expense/validatedBy(_:)``); empty records no one.
    public var by = ""
    /// The ledger's currency: a row of a mapped currency column in another one is read in that
    /// currency and left for the use case to convert (``ImportedExpense/foreign``).
    public var ledgerCurrency: Currency?

    public static let uncategorizedTag = "uncategorized"

    public init(
        columns: ColumnMapping = .default, dateFormat: DateFormat = .iso, defaultBudget: String? = nil,
        tagsFallbackUncategorized: Bool = false, rules: [ImportRule] = [],
        expenseSign: ExpenseSign = .positive, delimiter: CSVReader.Delimiter = .comma
    ) {
        self.columns = columns
        self.dateFormat = dateFormat
        self.defaultBudget = defaultBudget
        self.tagsFallbackUncategorized = tagsFallbackUncategorized
        self.rules = rules
        self.expenseSign = expenseSign
        self.delimiter = delimiter
    }
}

/// Where an imported row's budget came from.
public enum BudgetSource: Hashable, Sendable {
    /// The row's own budget cell (and every row of a JSON document).
    case cell
    /// The rule with this id.
    case rule(Int64)
    /// The fallback budget.
    case fallback
    /// The fallback budget, tagged `uncategorized`.
    case uncategorized
}

/// How the rows of a file found their budgets, and how many names were folded onto one line.
public struct ImportAssignments: Hashable, Sendable {
    /// Rows per rule id.
    public var byRule: [Int64: Int] = [:]
    public var fallback = 0
    public var uncategorized = 0
    /// Rows whose name held line breaks or tabs, folded to single spaces.
    public var foldedNames = 0

    public init() {}

    public mutating func add(_ expense: ImportedExpense) {
        switch expense.source {
        case .cell: break
        case .rule(let id): byRule[id, default: 0] += 1
        case .fallback: fallback += 1
        case .uncategorized: uncategorized += 1
        }
        if expense.foldedName { foldedNames += 1 }
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
    public var source: BudgetSource
    /// Whether the name held line breaks or tabs, folded to single spaces.
    public var foldedName: Bool
    /// The row's dedupe key (``ImportRowKey``); `nil` for rows of a JSON document.
    public var rowKey: Int64?
    /// A row in another currency than the ledger's: its amount as the file gives it and the rate
    /// of its rate cell, if any. ``expense`` then holds a stand-in amount of 0.01 until the use
    /// case converts it (``TallyCore/Expense/converted(from:given:into:tableRate:)``).
    public var foreign: ForeignRow?
    /// A row of a split expense in Tally's own export (``CSVLedgerColumns``): its line, until
    /// ``LineGroups`` puts the expense's rows back together.
    var pendingLine: ExpenseLine?

    public init(
        line: Int, budgetName: String, expense: Expense, source: BudgetSource = .cell, foldedName: Bool = false, rowKey: Int64? = nil
    ) {
        self.rowKey = rowKey
        self.line = line
        self.budgetName = budgetName
        self.expense = expense
        self.source = source
        self.foldedName = foldedName
    }
}

/// What an imported row in another currency carries until it is converted.
public struct ForeignRow: Hashable, Sendable {
    public var original: CurrencyAmount
    /// The rate the file gives (the rate charged); `nil` takes the table's on the row's day.
    public var given: ExchangeRate?
}

/// What one row of a file turned into.
public enum RowOutcome: Hashable, Sendable {
    case expense(ImportedExpense)
    /// Left out, with the line it starts on.
    case skipped(SkipReason, line: Int)
    /// A row without a budget cell that no rule matches, with no fallback: the import fails
    /// once the file is read, listing how many and the first names.
    case withoutBudget(line: Int, name: String)
}

extension ImportedExpense {
    /// The budgets the row names: its one budget, or each line's of a split rule's row, whose
    /// ``budgetName`` joins them by ``ImportResolution/lineSeparator``.
    public var budgetNames: [String] {
        guard budgetName.contains(ImportResolution.lineSeparator) else { return [budgetName] }
        return budgetName.split(separator: ImportResolution.lineSeparator).map(String.init)
    }

    /// ``budgetNames`` for people: `Groceries, Household`.
    public var budgetLabel: String { budgetNames.joined(separator: ", ") }
}
