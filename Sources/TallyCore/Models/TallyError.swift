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

    public var errorDescription: String? {
        switch self {
        case .invalidAmount(let text):
            "invalid amount \(quoted(text)): use digits with an optional '.' and at most two decimals, like 12.50"
        case .amountOutOfRange(let text):
            "amount \(quoted(text)) is out of range: the maximum is 1,000,000,000.00"
        case .amountNotPositive(let amount):
            "amount \(amount.plainString) must be greater than 0"
        case .limitNotPositive(let amount):
            "budget limit \(amount.plainString) must be greater than 0"
        case .invalidQuantity(let quantity):
            "invalid quantity \(quantity): use a whole number from 1 to \(Expense.maximumQuantity)"
        case .invalidDate(let text):
            "invalid date \(quoted(text)): use an existing day as YYYY-MM-DD"
        case .invalidMonth(let text):
            "invalid month \(quoted(text)): use YYYY-MM"
        case .invalidPhrase(let kind, let text, let problem):
            switch problem {
            case .unknownForm:
                "invalid \(kind.rawValue) \(quoted(text)): use \(kind == .date ? Day.phraseForms : Month.phraseForms)"
            case .noSuchDay(let year):
                "invalid \(kind.rawValue) \(quoted(text)): there is no such day\(year.map { " in \($0)" } ?? "")"
            case .outOfRange:
                "invalid \(kind.rawValue) \(quoted(text)): it falls outside the years 1 to 9999"
            }
        case .emptyName(let kind):
            "\(kind.rawValue) name must not be empty"
        case .nameTooLong(let kind, let name, let maximum):
            "\(kind.rawValue) name \(quoted(name)) is longer than \(maximum) characters"
        case .nameHasControlCharacters(let kind, let name):
            "\(kind.rawValue) name \(quoted(name)) must not contain line breaks or control characters"
        case .invalidTag(let tag):
            "invalid tag \(quoted(tag)): use 1 to \(Expense.maximumTagLength) characters without ';', ',' or control characters"
        case .duplicateBudget(let name):
            "a budget named \(quoted(name)) already exists"
        case .budgetNotFound(let name):
            "no budget named \(quoted(name))"
        case .expenseNotFound(let id):
            "no expense with id \(id)"
        case .budgetNotEmpty(let name, let count):
            "budget \(quoted(name)) has \(count) expense\(count == 1 ? "" : "s"); removing it deletes them too"
        case .capNotPositive(let cap):
            "budget cap \(cap.plainString) must be greater than 0"
        case .onceBudgetNeedsRange:
            "a once budget needs the first and last day it covers"
        case .rangeNeedsOncePeriod:
            "only a once budget covers a range of days"
        case .rangeEndsBeforeItStarts(let range):
            "the range \(range.first.isoString) to \(range.last.isoString) ends before it starts"
        case .rolloverNeedsRenewingPeriod:
            "only monthly and yearly budgets roll over"
        case .targetNotPositive(let amount):
            "budget target \(amount.plainString) must be greater than 0"
        case .targetNeedsRenewingPeriod:
            "only monthly and yearly budgets have a target: a once budget's limit is its target"
        case .targetBeforeStart(let by, let start):
            "the budget begins in \(start.isoString); its target cannot be due by \(by.isoString)"
        case .targetCadenceMismatch(let budget, let period):
            "budget \(quoted(budget)) renews \(period.rawValue): a per-period target is set aside every \(period == .yearly ? "year" : "month")"
        case .targetAccountNeedsTarget(let budget):
            "budget \(quoted(budget)) has no target: an account shows where a target's money sits"
        case .targetNeedsAmount(let budget):
            "budget \(quoted(budget)) has no target yet: give its amount too"
        case .targetNeedsSchedule(let budget):
            "budget \(quoted(budget)) has no target yet: say by which month it is due, or that it is set aside every period"
        case .limitChangesOutOfOrder(let from):
            "a limit change from \(from.isoString) is not after the budget's first period and its earlier changes"
        case .limitChangeBeforeStart(let from, let first):
            "the budget begins in \(first.isoString); its limit cannot change from \(from.isoString)"
        case .expenseOutsideRange(let budget, let day, let range):
            "budget \(quoted(budget)) covers \(range.first.isoString) to \(range.last.isoString); \(day.isoString) is outside it"
        case .invalidMonthStart(let day):
            "invalid month start \(day): use a day from 1 to 28"
        case .invalidCurrency(let code):
            "unknown currency \(quoted(code)): use an ISO 4217 code such as EUR, USD or GBP"
        case .foreignMoney(let problem): problem.message
        case .split(let problem): problem.message
        case .invalidLocale(let identifier):
            "unknown locale \(quoted(identifier)): use a name such as de_DE, fr_FR or en_IE"
        case .arithmeticOverflow:
            "the total is too large to compute exactly"
        case .periodRangeReversed(let from, let to):
            "the range starts in \(from.isoString), after it ends in \(to.isoString)"
        case .periodRangeTooLong(let from, let to, let count):
            "the range \(from.isoString) to \(to.isoString) has \(count) periods; at most \(PeriodRange.maximumCount) fit in a report"
        case .databaseTooNew(let path, let migrations):
            "database \(quoted(path)) was written by a newer version of Tally (unknown migrations: \(migrations.joined(separator: ", "))); upgrade Tally to open it"
        case .notADatabase(let path, let reason):
            "\(quoted(path)) is not a Tally database that can be read: \(reason)"
        case .storage(let message):
            oneLine(message)
        case .cannotWrite(let path, let reason):
            "cannot write \(path.map { quoted($0) } ?? "the output"): \(oneLine(reason))"
        case .importRow(let line, let column, let value, let reason, _):
            "line \(line), column \(quoted(column)), value \(quoted(value)): \(oneLine(reason))"
        case .importFile(let line, let reason, _):
            line.map { "line \($0): \(oneLine(reason))" } ?? oneLine(reason)
        case .invalidImportOption(let option, let value, let reason):
            "invalid \(option.rawValue) \(quoted(value)): \(oneLine(reason))"
        case .alreadyImported(let file, let date, let count):
            "\(quoted(file)) was already imported on \(timestamp(date)) (\(count) expense\(count == 1 ? "" : "s"))"
        case .invalidWarnLevel(let percent):
            "invalid warning level \(percent): use a whole percent from 1 to 100"
        case .invalidInterval(let interval):
            "invalid interval \(interval): use a whole number from 1 to \(RecurringRule.maximumInterval)"
        case .invalidRecurringDay(let text, let every):
            every == .week
                ? "invalid day \(quoted(text)) for a weekly rule: use a weekday, mon to sun"
                : "invalid day \(quoted(text)) for a monthly rule: use a day of the month from 1 to 31"
        case .recurringDayNotApplicable(let every):
            "a rule repeating every \(every.rawValue) takes no day: only monthly and weekly rules do"
        case .untilBeforeStart(let start, let until):
            "the rule ends on \(until.isoString), before it starts on \(start.isoString)"
        case .recurringRuleNotFound(let id):
            "no recurring rule with id \(id)"
        case .notAnOccurrence(let ruleID, let day):
            "recurring rule \(ruleID) is not due on \(day.isoString)"
        case .unknownBudgets(let names):
            "the file names \(names.count) budget\(names.count == 1 ? "" : "s") that do\(names.count == 1 ? "es" : "") not exist: \(listed(names))"
        case .invalidRulePattern(let pattern, let reason):
            "invalid rule pattern \(quoted(pattern)): \(oneLine(reason))"
        case .invalidRulePriority(let priority):
            "invalid rule priority \(priority): use a whole number from \(ImportRule.priorities.lowerBound) to \(ImportRule.priorities.upperBound)"
        case .ruleNotFound(let id):
            "no rule with id \(id)"
        case .profileNotFound(let name):
            "no import profile named \(quoted(name))"
        case .duplicateAccount(let name):
            "an account named \(quoted(name)) already exists"
        case .accountNotFound(let name):
            "no account named \(quoted(name))"
        case .invalidAccountNumber(let number):
            "invalid account number \(quoted(number)): use an IBAN or account number of 1 to \(Account.maximumNumberLength) letters and digits"
        case .transferRuleWithBudget:
            "a transfer rule sends entries to an account: it takes no budget and no tags"
        case .duplicateAccountNumber(let number, let account):
            "account \(quoted(account)) already has the number \(quoted(number))"
        case .accountInUse(let name, let entries, let assertions, let expenses):
            "account \(quoted(name)) has "
                + [
                    entries > 0 ? "\(entries) income\(entries == 1 ? "" : "s") or transfer\(entries == 1 ? "" : "s")" : nil,
                    assertions > 0 ? "\(assertions) balance assertion\(assertions == 1 ? "" : "s")" : nil,
                    expenses > 0 ? "\(expenses) expense\(expenses == 1 ? "" : "s")" : nil,
                ].compactMap { $0 }.joined(separator: ", ")
                + "; removing it deletes \(expenses > 0 ? "all but the expenses, which stay without an account" : "them too")"
        case .transferToSameAccount:
            "a transfer needs two different accounts"
        case .incomeNotFound(let id):
            "no income with id \(id)"
        case .transferNotFound(let id):
            "no transfer with id \(id)"
        case .entryBeforeOpening(let account, let day, let opening):
            "account \(quoted(account)) opens on \(opening.isoString); \(day.isoString) is before it"
        case .entryReconciled(let account, let through):
            "account \(quoted(account)) is reconciled through \(through.isoString); changing an entry up to that day needs forcing"
        case .nothingToUndo:
            "nothing to undo"
        case .changeSetNotFound(let id):
            "no change set with id \(id)"
        case .changeSetAlreadyUndone(let id, let by):
            "change set \(id) is already undone (by change set \(by))"
        case .undoBlocked(let id, let by):
            "change set \(id) cannot be undone alone: later change set\(by.count == 1 ? "" : "s") \(by.prefix(10).map(String.init).joined(separator: ", "))\(by.count > 10 ? " and \(by.count - 10) more" : "") changed the same rows; undo \(by.count == 1 ? "it" : "them") first"
        case .undoNeedsBudget(let id, let budget):
            "change set \(id) cannot be undone: budget \(quoted(budget)) has expenses or rules added since; undo or remove those first"
        case .invalidHistoryDays(let days):
            "invalid history length \(days): use a whole number of days from \(LedgerSettings.historyDaysRange.lowerBound) to \(LedgerSettings.historyDaysRange.upperBound)"
        case .snapshotNotFound(let id):
            "no snapshot with id \(quoted(id))"
        case .invalidSnapshotLimit(let limit):
            "invalid number of snapshots \(limit): use a whole number from \(SnapshotLimit.range.lowerBound) to \(SnapshotLimit.range.upperBound)"
        case .rowsWithoutBudget(let count, let names):
            "\(count) row\(count == 1 ? " has" : "s have") no budget and no rule matches \(count == 1 ? "it" : "them"): \(listed(names))\(count > names.count ? " and \(count - names.count) more" : "")"
        }
    }
}

/// Quotes a user value for a one-line message: control characters escaped, long text shortened.
public func quoted(_ value: String, maximumLength: Int = 60) -> String {
    var shortened = value
    if value.count > maximumLength {
        shortened = String(value.prefix(maximumLength)) + "… (\(value.count) characters)"
    }
    return "'\(oneLine(shortened))'"
}

/// At most ten quoted names, then how many more.
private func listed(_ names: [String]) -> String {
    let shown = names.prefix(10).map { quoted($0) }.joined(separator: ", ")
    return names.count > 10 ? shown + " and \(names.count - 10) more" : shown
}

/// A local time to the minute with its UTC offset, such as `2026-03-10 14:05 +01:00`.
private func timestamp(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.dateFormat = "yyyy-MM-dd HH:mm xxx"
    return formatter.string(from: date)
}

/// `text` with control characters and line separators escaped, for a one-line message.
public func oneLine(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
            result += scalar.escaped(asASCII: true)
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}
