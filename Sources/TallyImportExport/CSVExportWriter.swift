import Foundation
import TallyCore

/// Writes expenses as CSV with the default import header, so an export imports back unchanged.
///
/// A ledger with incomes or transfers adds three columns, `account`, `to` and `kind` (`expense`,
/// `income` or `transfer`, last), and their rows after the expenses: an income fills `date`,
/// `name`, `amount`, `tags`, `by` and `account`; a transfer `date`, `name`, `amount`, `account`
/// (from) and `to`. Without them the file is the expenses' alone, as before accounts.
public final class CSVExportWriter: ExportWriter {
    private let writer: CSVWriter
    /// The incomes and transfers written after the expenses; `nil` without the `kind` column.
    private var entries: DeclaredAccounts?

    /// The header's columns after ``ImportField/defaultHeader`` when the file holds incomes or transfers.
    public static let accountColumns = ["account", "to", "kind"]

    public init(sink: any ByteSink) {
        writer = CSVWriter(sink: sink)
    }

    /// CSV rows name their budget; the budgets, settings, and recurring and import rules are not
    /// written, nor are the accounts themselves and their assertions.
    public func begin(
        budgets: [Budget] = [], settings: LedgerSettings = LedgerSettings(), recurring: [DeclaredRecurringRule] = [],
        rules: [ImportRule] = [], profiles: [ImportProfile] = [], recordsPeople: Bool = false, accounts: DeclaredAccounts = DeclaredAccounts()
    ) throws(TallyError) {
        let header = ImportField.defaultHeader.map(\.rawValue)
        guard !accounts.incomes.isEmpty || !accounts.transfers.isEmpty else { return try writer.writeRecord(header) }
        entries = accounts
        try writer.writeRecord(header + CSVExportWriter.accountColumns)
    }

    public func write(_ expense: Expense, budgetName: String, accountName: String?) throws(TallyError) {
        // A split's lines are not written yet: the row is its first line's budget (see ARCHITECTURE).
        let budgetName = budgetName.split(separator: ImportResolution.lineSeparator, omittingEmptySubsequences: false).first.map(String.init) ?? budgetName
        var record = [
            expense.date.isoString, budgetName, expense.name, expense.amount.plainString, String(expense.quantity),
            expense.tags.joined(separator: ";"), expense.by,
        ]
        if entries != nil { record += [accountName ?? "", "", EntryKind.expense.rawValue] }
        try writer.writeRecord(record)
    }

    public func finish() throws(TallyError) {
        for entry in entries?.incomes ?? [] {
            let income = entry.income
            try writer.writeRecord([
                income.date.isoString, "", income.name, income.amount.plainString, "", income.tags.joined(separator: ";"), income.by,
                entry.account, "", EntryKind.income.rawValue,
            ])
        }
        for entry in entries?.transfers ?? [] {
            let transfer = entry.transfer
            try writer.writeRecord([
                transfer.date.isoString, "", transfer.name, transfer.amount.plainString, "", "", "", entry.from, entry.to,
                EntryKind.transfer.rawValue,
            ])
        }
        try writer.flush()
    }
}

/// What a row of a CSV export is, in its `kind` column.
public enum EntryKind: String, CaseIterable, Sendable {
    case expense, income, transfer
}
