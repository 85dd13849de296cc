import Foundation

/// Every failure Tally reports to a user, each carrying the offending input.
///
/// Messages are one line: values are quoted with control characters escaped and very long
/// text shortened, so hostile input cannot break a terminal or a log.
public enum TallyError: Error, LocalizedError, Equatable, Sendable {
    /// Amount text is not digits with an optional `.` and at most two decimals.
    case invalidAmount(String)
    /// Amount text is well formed but above 1,000,000,000.00.
    case amountOutOfRange(String)
    /// An expense amount is zero.
    case amountNotPositive(Money)
    /// A budget limit is zero or negative.
    case limitNotPositive(Money)
    /// A quantity is below 1 or above ``Expense/maximumQuantity``.
    case invalidQuantity(Int64)
    /// Date text is not an existing `YYYY-MM-DD` day.
    case invalidDate(String)
    /// Month text is not `YYYY-MM`.
    case invalidMonth(String)
    /// A date or month phrase (`yesterday`, `nov 20`, `last`) is none of the forms Tally reads,
    /// names a day that does not exist, or lands outside the years 1 to 9999.
    case invalidPhrase(PhraseKind, String, PhraseProblem)
    /// A name is empty or blank after trimming; the associated value says what was named.
    case emptyName(NameKind)
    /// A name is longer than its maximum length.
    case nameTooLong(NameKind, String, maximum: Int)
    /// A name holds a line break or another control character.
    case nameHasControlCharacters(NameKind, String)
    /// A tag is empty, too long, or holds a separator or control character.
    case invalidTag(String)
    /// Another budget already has this name, ignoring case and diacritics.
    case duplicateBudget(String)
    /// No budget has this name.
    case budgetNotFound(String)
    /// No expense has this id.
    case expenseNotFound(Int64)
    /// A budget still has expenses and removing it was not confirmed.
    case budgetNotEmpty(String, expenseCount: Int)
    /// A budget's cap is zero or negative.
    case capNotPositive(Money)
    /// A `once` budget was given no range of days.
    case onceBudgetNeedsRange
    /// A range of days was given to a budget that is not `once`.
    case rangeNeedsOncePeriod
    /// A range of days ends before it starts.
    case rangeEndsBeforeItStarts(DayInterval)
    /// A once budget cannot roll over.
    case rolloverNeedsRenewingPeriod
    /// A budget's target is zero or negative.
    case targetNotPositive(Money)
    /// A target was given to a once budget: its limit is its target.
    case targetNeedsRenewingPeriod
    /// A sinking fund's date is before the budget's first period.
    case targetBeforeStart(by: Month, start: Month)
    /// A per-period target names a cadence other than its budget's period.
    case targetCadenceMismatch(budget: String, period: BudgetPeriod)
    /// An account was linked to a budget that has no target.
    case targetAccountNeedsTarget(String)
    /// A date or cadence was given to a budget that has no target, without an amount.
    case targetNeedsAmount(String)
    /// A new target was given neither a date nor a cadence.
    case targetNeedsSchedule(String)
    /// A limit change is not after the budget's first period and its earlier changes.
    case limitChangesOutOfOrder(Month)
    /// A limit change would start before the budget's first period.
    case limitChangeBeforeStart(from: Month, first: Month)
    /// An expense of a once budget is dated outside its range.
    case expenseOutsideRange(budget: String, day: Day, range: DayInterval)
    /// A month-start day outside 1...28.
    case invalidMonthStart(Int)
    /// Not an ISO 4217 currency code.
    case invalidCurrency(String)
    /// An amount in another currency, a rate or a conversion is wrong (``ForeignMoneyProblem``).
    case foreignMoney(ForeignMoneyProblem)
    /// A split expense's lines break a rule of ``ExpenseLines``.
    case split(SplitProblem)
    /// Not a locale ICU knows.
    case invalidLocale(String)
    /// A sum or product of amounts does not fit in 64 bits.
    case arithmeticOverflow
    /// A range of periods whose first comes after its last.
    case periodRangeReversed(from: Month, to: Month)
    /// A range of more periods than ``PeriodRange/maximumCount``.
    case periodRangeTooLong(from: Month, to: Month, count: Int)
    /// The database was written by a newer Tally; this build does not know its migrations.
    case databaseTooNew(path: String, unknownMigrations: [String])
    /// The file is not a Tally database that can be read.
    case notADatabase(path: String, reason: String)
    /// The database could not be opened, created, read or written.
    case storage(String)
    /// An output file (an export, a report) could not be written; `path` is `nil` for a stream.
    case cannotWrite(path: String?, reason: String)
    /// A row of an imported file holds a value that cannot become an expense; `hint` names the
    /// import setting that could read it, when one could.
    case importRow(line: Int, column: String, value: String, reason: String, hint: ImportHint? = nil)
    /// An imported file cannot be read as its format: bad CSV syntax, a header without a needed
    /// column, or a JSON document Tally does not know. `line` is `nil` when no line applies;
    /// `hint` names the import setting that could read the file, when one could.
    case importFile(line: Int?, reason: String, hint: ImportHint? = nil)
    /// An import setting, such as the column mapping or the date format, is malformed.
    case invalidImportOption(ImportSetting, value: String, reason: String)
    /// The same file (by content) was imported before; importing it again must be forced.
    case alreadyImported(file: String, importedAt: Date, expenseCount: Int)
    /// Imported rows name budgets that do not exist.
    case unknownBudgets([String])
    /// A warning level is not a whole percent from 1 to 100.
    case invalidWarnLevel(Int)
    /// A recurring rule's interval is below 1 or above ``RecurringRule/maximumInterval``.
    case invalidInterval(Int)
    /// A recurring rule's day is no day of the month (monthly) or weekday (weekly).
    case invalidRecurringDay(String, RecurringFrequency)
    /// A day was given to a daily or yearly rule, which has none.
    case recurringDayNotApplicable(RecurringFrequency)
    /// A recurring rule ends before it starts.
    case untilBeforeStart(start: Day, until: Day)
    /// No recurring rule has this id.
    case recurringRuleNotFound(Int64)
    /// A recurring rule is not scheduled on the day an occurrence was named by.
    case notAnOccurrence(ruleID: Int64, day: Day)
    /// A rule's pattern is empty, too long, not a regular expression, or one that could take too long.
    case invalidRulePattern(String, reason: String)
    /// A rule's priority is outside ``ImportRule/priorities``.
    case invalidRulePriority(Int)
    /// No rule has this id.
    case ruleNotFound(Int64)
    /// No import profile has this name, ignoring case and diacritics.
    case profileNotFound(String)
    /// No snapshot of the ledger has this id (``LedgerSnapshot/id``).
    case snapshotNotFound(String)
    /// A number of snapshots to keep outside ``SnapshotLimit/range``.
    case invalidSnapshotLimit(Int)
    /// Rows of an import have no budget cell, no rule matches them and no fallback was given:
    /// how many, and the names of the first few.
    case rowsWithoutBudget(count: Int, names: [String])
    /// `undo` found no change set left to revert.
    case nothingToUndo
    /// No change set in the history has this id (it never existed or was pruned).
    case changeSetNotFound(Int64)
    /// The change set was reverted already, by the given undo.
    case changeSetAlreadyUndone(Int64, by: Int64)
    /// Later change sets touched the same rows, so reverting this one alone would undo part of theirs.
    case undoBlocked(Int64, by: [Int64])
    /// Undoing the change set would remove a budget that rows added since still need.
    case undoNeedsBudget(Int64, budget: String)
    /// A history length in days outside ``LedgerSettings/historyDaysRange``.
    case invalidHistoryDays(Int)
    /// Another account already has this name, ignoring case and diacritics.
    case duplicateAccount(String)
    /// No account has this name.
    case accountNotFound(String)
    /// Not an IBAN or account number: letters and digits, spaces, dashes, dots or slashes.
    case invalidAccountNumber(String)
    /// A rule names both a budget (or tags) and an account to transfer to.
    case transferRuleWithBudget
    /// Another account already has this IBAN or account number.
    case duplicateAccountNumber(String, account: String)
    /// Removing the account would remove the entries that name it.
    case accountInUse(String, entries: Int, assertions: Int, expenses: Int)
    /// A transfer names one account twice.
    case transferToSameAccount
    case incomeNotFound(Int64)
    case transferNotFound(Int64)
    /// An entry dated before its account's opening day.
    case entryBeforeOpening(account: String, day: Day, opening: Day)
    /// An entry on or before the day an account was reconciled through changes only when forced.
    case entryReconciled(account: String, through: Day)

    public enum NameKind: String, Sendable {
        case budget, expense, profile, person, account, income, transfer
    }

    /// What a phrase names: a day or a month.
    public enum PhraseKind: String, Sendable {
        case date, month
    }

    /// Why a date or month phrase cannot be read.
    public enum PhraseProblem: Equatable, Sendable {
        /// None of the accepted forms.
        case unknownForm
        /// A day no month has (`32`, `feb 30`), or one the year it falls in lacks (`feb 29` in 2027).
        case noSuchDay(year: Int?)
        /// The day or month it resolves to is before year 1 or after year 9999.
        case outOfRange
    }

    /// The settings of an import, as this layer names them; the CLI names its flags.
    public enum ImportSetting: String, Sendable {
        case columnMapping = "column mapping"
        case dateFormat = "date format"
        case defaultBudget = "default budget"
        case expenseSign = "expense sign"
        case delimiter = "delimiter"
        case currency = "currency"
        case encoding = "encoding"
        case skip = "number of lines to skip"
    }

    /// An import setting that could read what an import refused, and how; the message says what
    /// is wrong, the CLI words the hint with its flag.
    public enum ImportHint: Hashable, Sendable {
        /// The text is not UTF-8: naming the encoding reads Windows-1252 and Latin-1 files.
        case encoding
        /// The amount reads differently with a decimal point and a decimal comma: the number
        /// format says which.
        case decimalComma
        /// The amount is in a currency other than the import's: only the import's currency is read.
        case currencyGiven
        /// The amount carries a currency sign or code while no currency was named: naming it reads the sign.
        case currencyUnnamed
        /// The dates read either way (a QIF file's `03/04/2026`): the date format says which.
        case dateOrder
        /// Debits match no rule: a budget for them, or rules, place them.
        case debitsWithoutBudget
        /// A statement names no account and the ledger has no default: the account is to be named.
        case accountUnnamed
        /// A statement's account number (an IBAN or not) is on no account: name the account, or
        /// give one the number.
        case accountUnknown(number: String, isIBAN: Bool)
    }

    /// Whether it is ``accountInUse(_:entries:assertions:expenses:)``.
    public var isAccountInUse: Bool {
        if case .accountInUse = self { true } else { false }
    }
}
