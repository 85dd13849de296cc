import ArgumentParser
import TallyCore
import TallyReports

/// Turns the errors of the layers below into what a person at a terminal reads: each layer says
/// what is wrong in its own terms, and only here are flag names, hints and exit codes added.
enum Failures {
    /// The one-line message and exit code for an error of a layer below; `nil` for ArgumentParser's own.
    static func describe(_ error: any Error) -> (message: String, code: ExitCode)? {
        if let error = error as? TallyError { return (message(for: error), exitCode(for: error)) }
        // EX_CONFIG: the configuration, not the command line, is what to fix.
        if let error = error as? ConfigError { return (error.message, ExitCode(78)) }
        if let error = error as? ReportError { return (error.errorDescription ?? "the report failed", ExitCode(1)) }
        return nil
    }

    /// The layer's message with the flag that answers it.
    static func message(for error: TallyError) -> String {
        switch error {
        case .budgetNotEmpty, .accountInUse:
            return error.message + " (use --yes)"
        case .entryReconciled:
            return error.message + " (use --force)"
        case .alreadyImported:
            return error.message + "; use --force to import it again"
        case .unknownBudgets(let names):
            return error.message + "; add \(names.count == 1 ? "it" : "them") first or use --create-budgets --limit AMOUNT"
        case .rowsWithoutBudget:
            return error.message + "; use --budget BUDGET or --uncategorized BUDGET for them, or add rules with 'tally rule add'"
        case .invalidImportOption(let setting, let value, let reason):
            return "invalid \(flag(for: setting)) \(quoted(value)): \(reason)"
        case .foreignMoney(.missingRate):
            return error.message + "; add rates with 'tally rates import FILE' or 'tally rates set DAY FROM TO RATE', or give one with --rate"
        case .foreignMoney(.missingRates):
            return error.message + " (add them with 'tally rates import FILE' or 'tally rates set DAY FROM TO RATE', or give a rate column)"
        case .foreignMoney(.noLedgerCurrency):
            return error.message + "; set it with 'tally settings set currency CODE'"
        case .split(.linesNoLongerFit):
            return error.message + "; change its lines first with 'tally expense split ID --split BUDGET=SHARE …' or give a larger amount"
        case .split(.isSplit(let id)):
            return error.message + "; use 'tally expense unsplit \(id) --budget BUDGET' or 'tally expense split \(id) --split …' instead"
        case .importRow(_, _, _, _, let hint?), .importFile(_, _, let hint?):
            // A statement's missing account or budget reads as what to give; a misread file as a way to read it.
            switch hint {
            case .debitsWithoutBudget, .accountUnnamed, .accountUnknown: return error.message + ": " + advice(for: hint)
            default: return error.message + "; " + advice(for: hint)
            }
        default:
            return error.message
        }
    }

    /// Bad arguments exit 64 like every other usage error; a name the user typed that breaks a
    /// rule is such an argument.
    static func exitCode(for error: TallyError) -> ExitCode {
        switch error {
        case .emptyName, .nameTooLong, .nameHasControlCharacters, .invalidImportOption, .capNotPositive, .onceBudgetNeedsRange,
            .rangeNeedsOncePeriod, .rangeEndsBeforeItStarts, .rolloverNeedsRenewingPeriod, .limitChangesOutOfOrder,
            .limitChangeBeforeStart, .invalidMonthStart, .invalidPhrase, .invalidCurrency, .invalidLocale, .invalidInterval,
            .invalidRecurringDay, .recurringDayNotApplicable, .untilBeforeStart, .recurringRuleNotFound, .notAnOccurrence,
            .invalidWarnLevel, .periodRangeReversed, .periodRangeTooLong,
            .invalidRulePattern, .invalidRulePriority, .profileNotFound, .changeSetNotFound, .invalidHistoryDays, .snapshotNotFound, .invalidSnapshotLimit, .transferToSameAccount,
            .foreignMoney(.invalidAmount), .foreignMoney(.invalidRate), .foreignMoney(.typedRateTooLarge), .foreignMoney(.sharedSign), .foreignMoney(.rateWithoutCurrency),
            .foreignMoney(.conflictingCurrencies), .foreignMoney(.noMinorUnit), .foreignMoney(.importCell), .foreignMoney(.statementField),
            .split:
            ExitCode(64)
        default: ExitCode(1)
        }
    }

    /// What to type to read what an import refused.
    private static func advice(for hint: TallyError.ImportHint) -> String {
        switch hint {
        case .encoding: "a file in Windows-1252 or Latin-1 reads with --encoding windows-1252 or latin1"
        case .decimalComma: "say which with --decimal-comma if ',' is the decimal sign"
        case .currencyGiven: "only amounts in the --currency given can be read"
        case .currencyUnnamed: "name the currency with --currency"
        case .dateOrder: "say which with --date-format MM/dd/yyyy or --date-format dd/MM/yyyy"
        case .debitsWithoutBudget: "give --budget NAME, --uncategorized, or add rules with 'tally rule add'"
        case .accountUnnamed: "give --account NAME"
        case .accountUnknown(let number, let isIBAN): "give --account NAME, or 'tally account edit NAME --\(isIBAN ? "iban" : "number") \(number)'"
        }
    }

    private static func flag(for setting: TallyError.ImportSetting) -> String {
        switch setting {
        case .columnMapping: "--columns"
        case .dateFormat: "--date-format"
        case .defaultBudget: "--budget"
        case .expenseSign: "--expense-sign"
        case .delimiter: "--delimiter"
        case .currency: "--currency"
        case .encoding: "--encoding"
        case .skip: "--skip"
        }
    }
}
