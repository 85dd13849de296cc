import Foundation
import TallyCore

/// An expense in a document: its budget and account by name, its money as text, and its lines,
/// refund link and foreign amount when it has them.
public struct ExpenseDTO: Codable, Hashable, Sendable {
    public var id: Int64?
    public var name: String
    public var amount: String
    public var quantity: Int64
    public var total: String
    public var date: String
    public var budget: String
    public var tags: [String]
    /// Who spent it (version 5), `""` for no one; absent in older documents, whose expenses were
    /// recorded before Tally kept it.
    public var by: String?
    /// The account it was paid from, by name (version 7); absent for none.
    public var account: String?
    /// An expense in another currency (version 9): the amount as paid, the rate that made
    /// `amount` (ledger units per one unit of `original.currency`) and where it came from.
    public var original: OriginalDTO?
    public var rate: String?
    public var rateSource: String?
    /// A split expense's lines (version 10), its `budget` being the first line's; absent otherwise.
    public var lines: [LineDTO]?
    /// A refund (version 10): `true`, absent otherwise; `refundOf` the id of the expense it returns.
    public var refund: Bool?
    public var refundOf: Int64?

    public init(
        id: Int64?, name: String, amount: String, quantity: Int64, total: String, date: String, budget: String, tags: [String],
        by: String? = nil
    ) {
        self.id = id
        self.name = name
        self.amount = amount
        self.quantity = quantity
        self.total = total
        self.date = date
        self.budget = budget
        self.tags = tags
        self.by = by
    }

    /// A split expense's `budgetName` is its lines' budget names joined by
    /// ``ImportResolution/lineSeparator``, as an import reads them back.
    public init(_ expense: Expense, budgetName: String, accountName: String? = nil) throws(TallyError) {
        let names = budgetName.split(separator: ImportResolution.lineSeparator, omittingEmptySubsequences: false).map(String.init)
        self.init(
            id: expense.id, name: expense.name, amount: expense.amount.plainString, quantity: expense.quantity,
            total: try expense.total().plainString, date: expense.date.isoString, budget: names[0], tags: expense.tags,
            by: expense.by.isEmpty ? nil : expense.by)
        account = accountName
        original = expense.foreign.map { OriginalDTO(amount: $0.original.plainString, currency: $0.original.currency.code) }
        rate = expense.foreign?.rate.plainString
        rateSource = expense.foreign?.source.rawValue
        if !expense.lines.isEmpty {
            lines = expense.lines.enumerated().map { index, line in
                LineDTO(
                    budget: names.indices.contains(index) ? names[index] : "", amount: line.amount.plainString, share: line.share.text,
                    name: line.name.isEmpty ? nil : line.name, tags: line.tags.isEmpty ? nil : line.tags)
            }
        }
        refund = expense.isRefund ? true : nil
        refundOf = expense.refundOf
    }

    /// The expense this entry describes, validated by the models' rules; `index` is 0-based.
    /// An entry without `by` was spent by `defaultBy`; its `account` must be one of `accounts`,
    /// which the expense names by placeholder (``DeclaredAccounts/placeholder(forAccountNamed:)``).
    public func importedExpense(
        index: Int, defaultBy: String = "", accounts: DeclaredAccounts = DeclaredAccounts()
    ) throws(TallyError) -> ImportedExpense {
        func invalid(_ field: String, _ value: String, _ reason: String) -> TallyError {
            .importFile(line: nil, reason: "expenses[\(index)].\(field) \(quoted(value)): \(reason)")
        }
        let amountValue: Money
        do {
            amountValue = try Money(parsing: amount)
        } catch {
            throw invalid("amount", amount, error.errorDescription ?? "invalid amount")
        }
        let day: Day
        do {
            day = try Day(parsing: date)
        } catch {
            throw invalid("date", date, error.errorDescription ?? "invalid date")
        }
        let budgetName: String
        do {
            budgetName = try CSVRowMapper.validatedBudgetName(budget, option: false, line: index + 1)
        } catch {
            throw invalid("budget", budget, "not a valid budget name")
        }
        let expense: Expense
        let split = try splitLines(invalid)
        do {
            var unchecked = Expense(
                id: id, name: name, amount: amountValue, quantity: quantity, date: day, budgetID: 0, tags: tags,
                by: by ?? defaultBy, createdAt: CSVRowMapper.placeholderDate)
            unchecked.lines = split?.lines ?? []
            unchecked.isRefund = refund ?? false
            unchecked.refundOf = refundOf
            expense = try unchecked.validated()
        } catch .split(let problem) {
            throw invalid("lines", budget, problem.message)
        } catch {
            let (field, value): (String, String) =
                switch error {
                case .nameTooLong(.person, _, _), .nameHasControlCharacters(.person, _): ("by", by ?? defaultBy)
                case .emptyName, .nameTooLong, .nameHasControlCharacters: ("name", name)
                case .invalidTag: ("tags", tags.joined(separator: ";"))
                case .invalidQuantity: ("quantity", String(quantity))
                default: ("amount", amount)
                }
            throw invalid(field, value, error.errorDescription ?? "invalid value")
        }
        let computed: Money
        do {
            computed = try expense.total()
        } catch {
            throw invalid("total", total, error.errorDescription ?? "too large")
        }
        guard computed.plainString == total else {
            throw invalid("total", total, "is not amount × quantity (\(computed.plainString))")
        }
        var paid = expense
        paid.foreign = try foreignCharge(invalid)
        if let account {
            guard let placeholder = accounts.placeholder(forAccountNamed: account) else {
                throw invalid("account", account, "the document has no account of that name")
            }
            paid.accountID = placeholder
        }
        if let lines, zip(lines, paid.lines).contains(where: { $0.amount != $1.amount.plainString }) {
            throw invalid("lines", budget, "the lines' amounts are not their shares of the total")
        }
        return ImportedExpense(line: index + 1, budgetName: split?.budgetName ?? budgetName, expense: paid)
    }
}
