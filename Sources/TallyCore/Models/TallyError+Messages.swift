import Foundation

// The one-line message of each error: what is wrong, in this layer's terms, with the value.
extension TallyError {
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
