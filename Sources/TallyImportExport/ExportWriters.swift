import Foundation
import TallyCore

/// Writes an export one expense at a time, whatever its format.
///
/// Call ``begin(budgets:settings:)`` once, ``write(_:budgetName:)`` for each expense, then
/// ``finish()``.
public protocol ExportWriter: AnyObject {
    /// Starts the document; a format that holds budgets, settings, recurring rules, import rules
    /// and profiles writes them here. `recordsPeople`: some expense to be written records who spent it.
    /// `accounts`: the accounts with the incomes, transfers and assertions to write.
    func begin(
        budgets: [Budget], settings: LedgerSettings, recurring: [DeclaredRecurringRule], rules: [ImportRule], profiles: [ImportProfile],
        recordsPeople: Bool, accounts: DeclaredAccounts
    ) throws(TallyError)
    /// `accountName`: the account the expense was paid from, if any.
    func write(_ expense: Expense, budgetName: String, accountName: String?) throws(TallyError)
    func finish() throws(TallyError)
}

extension ExportWriter {
    public func write(_ expense: Expense, budgetName: String) throws(TallyError) {
        try write(expense, budgetName: budgetName, accountName: nil)
    }
}

extension ImportFormat {
    /// The writer of an export in this format.
    public func exportWriter(to sink: any ByteSink) -> any ExportWriter {
        switch self {
        case .csv: CSVExportWriter(sink: sink)
        case .json: JSONExportWriter(sink: sink)
        }
    }
}
