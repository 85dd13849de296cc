import Foundation
import TallyCore

/// Writes expenses as CSV with the default import header, so an export imports back unchanged.
///
/// A ledger with incomes or transfers adds three columns, `account`, `to` and `kind` (`expense`,
/// `income` or `transfer`, last), and their rows after the expenses: an income fills `date`,
/// `name`, `amount`, `tags`, `by` and `account`; a transfer `date`, `name`, `amount`, `account`
/// (from) and `to`. Without them the file is the expenses' alone, as before accounts.
///
/// A ledger with split expenses, refunds or expenses in other currencies (``writesLedgerColumns``)
/// has the account columns too, with ``CSVLedgerColumns`` between `to` and `kind`: a split is
/// then a row per line and a refund is `kind` `refund`. So does a ledger with an income in
/// another currency, whose row fills the foreign columns.
public final class CSVExportWriter: ExportWriter {
    private let writer: CSVWriter
    /// The incomes and transfers written after the expenses; `nil` without the `kind` column.
    private var entries: DeclaredAccounts?
    /// Some expense to be written is split, a refund or in another currency, or some income is in
    /// another currency; set before ``begin``.
    public var writesLedgerColumns = false

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
        if writesLedgerColumns {
            entries = accounts
            return try writer.writeRecord(header + CSVExportWriter.accountColumns.dropLast() + CSVLedgerColumns.names + ["kind"])
        }
        guard !accounts.incomes.isEmpty || !accounts.transfers.isEmpty else { return try writer.writeRecord(header) }
        entries = accounts
        try writer.writeRecord(header + CSVExportWriter.accountColumns)
    }

    public func write(_ expense: Expense, budgetName: String, accountName: String?) throws(TallyError) {
        // A split's `budgetName` names each line's budget (``ImportResolution/lineSeparator``).
        let budgetNames = budgetName.split(separator: ImportResolution.lineSeparator, omittingEmptySubsequences: false).map(String.init)
        let kind = expense.isRefund ? EntryKind.refund : .expense
        let ledgerCells = writesLedgerColumns ? CSVLedgerColumns.cells(of: expense) : [[]]
        for (index, cells) in ledgerCells.enumerated() {
            var record = [
                expense.date.isoString, budgetNames.indices.contains(index) ? budgetNames[index] : budgetNames[0], expense.name,
                expense.amount.plainString, String(expense.quantity), expense.tags.joined(separator: ";"), expense.by,
            ]
            if entries != nil { record += [accountName ?? "", ""] + cells + [kind.rawValue] }
            try writer.writeRecord(record)
        }
    }

    public func finish() throws(TallyError) {
        for entry in entries?.incomes ?? [] {
            let income = entry.income
            // An income in another currency fills the foreign cells, as an expense does.
            let cells = writesLedgerColumns ? Array(repeating: "", count: CSVLedgerColumns.names.count - 4) + CSVLedgerColumns.foreignCells(income.foreign) : []
            try writer.writeRecord([
                income.date.isoString, "", income.name, income.amount.plainString, "", income.tags.joined(separator: ";"), income.by,
                entry.account, "",
            ] + cells + [EntryKind.income.rawValue])
        }
        for entry in entries?.transfers ?? [] {
            let transfer = entry.transfer
            try writer.writeRecord([
                transfer.date.isoString, "", transfer.name, transfer.amount.plainString, "", "", "", entry.from, entry.to,
            ] + emptyLedgerCells + [EntryKind.transfer.rawValue])
        }
        try writer.flush()
    }

    /// An income's or a transfer's empty cells under ``CSVLedgerColumns``.
    private var emptyLedgerCells: [String] { writesLedgerColumns ? Array(repeating: "", count: CSVLedgerColumns.names.count) : [] }
}

/// What a row of a CSV export is, in its `kind` column: a refund is money back into its budget.
public enum EntryKind: String, CaseIterable, Sendable {
    case expense, income, transfer, refund
}
