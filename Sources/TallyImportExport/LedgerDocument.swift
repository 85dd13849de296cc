import Foundation
import TallyCore

/// The JSON document `tally export --format json` writes and `tally import` reads back.
///
/// These transfer types are separate from the models so the file format can stay stable while
/// the models change; amounts are two-decimal strings so no reader turns them into floats.
public struct LedgerDocument: Codable, Hashable, Sendable {
    public static let currentVersion = 1

    public var version: Int
    public var budgets: [BudgetDTO]
    public var expenses: [ExpenseDTO]

    public init(version: Int = LedgerDocument.currentVersion, budgets: [BudgetDTO], expenses: [ExpenseDTO]) {
        self.version = version
        self.budgets = budgets
        self.expenses = expenses
    }

    /// Decodes a whole document. It holds the file and every row in memory (roughly three times
    /// the file's size); a backup of a personal budget is small enough for that.
    public static func decode(_ data: Data) throws(TallyError) -> LedgerDocument {
        struct VersionProbe: Decodable { var version: Int? }
        let decoder = JSONDecoder()
        let probe: VersionProbe
        do {
            probe = try decoder.decode(VersionProbe.self, from: data)
        } catch {
            throw .importFile(line: nil, reason: "not a Tally JSON document: \(describe(error))")
        }
        guard let version = probe.version else {
            throw .importFile(line: nil, reason: "not a Tally JSON document: it has no \"version\"")
        }
        guard version == currentVersion else {
            throw .importFile(line: nil, reason: "unsupported document version \(version); this Tally reads version \(currentVersion)")
        }
        do {
            return try decoder.decode(LedgerDocument.self, from: data)
        } catch {
            throw .importFile(line: nil, reason: "not a Tally JSON document: \(describe(error))")
        }
    }

    /// Budgets validated by the models' rules.
    public func validatedBudgets() throws(TallyError) -> [Budget] {
        var result: [Budget] = []
        for (index, dto) in budgets.enumerated() { result.append(try dto.budget(index: index)) }
        return result
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "missing \(path(context.codingPath + [key]))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong type at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "the text is not valid JSON" : "invalid value at \(path(context.codingPath))"
        default:
            "the text is not valid JSON"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "the top level" : text
    }
}

public struct BudgetDTO: Codable, Hashable, Sendable {
    public var name: String
    public var limit: String
    public var period: String

    public init(name: String, limit: String, period: String) {
        self.name = name
        self.limit = limit
        self.period = period
    }

    public init(_ budget: Budget) {
        self.init(name: budget.name, limit: budget.limit.plainString, period: budget.period.rawValue)
    }

    /// The budget this entry describes, validated; `index` names it in errors.
    public func budget(index: Int) throws(TallyError) -> Budget {
        func invalid(_ field: String, _ value: String, _ reason: String) -> TallyError {
            .importFile(line: nil, reason: "budgets[\(index)].\(field) \(quoted(value)): \(reason)")
        }
        let limitValue: Money
        do {
            limitValue = try Money(parsing: limit)
        } catch {
            throw invalid("limit", limit, error.errorDescription ?? "invalid amount")
        }
        guard let periodValue = BudgetPeriod(rawValue: period) else {
            throw invalid("period", period, "use \(BudgetPeriod.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        do {
            return try Budget(name: name, limit: limitValue, period: periodValue, createdAt: CSVRowMapper.placeholderDate).validated()
        } catch {
            let field = if case .limitNotPositive = error { "limit" } else { "name" }
            throw invalid(field, field == "limit" ? limit : name, error.errorDescription ?? "invalid budget")
        }
    }
}

public struct ExpenseDTO: Codable, Hashable, Sendable {
    public var id: Int64?
    public var name: String
    public var amount: String
    public var quantity: Int64
    public var total: String
    public var date: String
    public var budget: String
    public var tags: [String]

    public init(
        id: Int64?, name: String, amount: String, quantity: Int64, total: String, date: String, budget: String, tags: [String]
    ) {
        self.id = id
        self.name = name
        self.amount = amount
        self.quantity = quantity
        self.total = total
        self.date = date
        self.budget = budget
        self.tags = tags
    }

    public init(_ expense: Expense, budgetName: String) throws(TallyError) {
        self.init(
            id: expense.id, name: expense.name, amount: expense.amount.plainString, quantity: expense.quantity,
            total: try expense.total().plainString, date: expense.date.isoString, budget: budgetName, tags: expense.tags)
    }

    /// The expense this entry describes, validated by the models' rules; `index` is 0-based.
    public func importedExpense(index: Int) throws(TallyError) -> ImportedExpense {
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
        do {
            expense = try Expense(
                id: id, name: name, amount: amountValue, quantity: quantity, date: day, budgetID: 0, tags: tags,
                createdAt: CSVRowMapper.placeholderDate
            ).validated()
        } catch {
            let (field, value): (String, String) =
                switch error {
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
        return ImportedExpense(line: index + 1, budgetName: budgetName, expense: expense)
    }
}

/// Writes an ``LedgerDocument`` one entry at a time, so an export never holds all expenses.
///
/// Call ``begin(budgets:)`` once, ``write(_:budgetName:)`` for each expense, then ``finish()``.
/// Keys appear in the documented order, one entry per line, so exports diff well.
/// Writes an export one expense at a time, whatever its format.
public protocol ExportWriter: AnyObject {
    /// Starts the document; a format that holds budgets writes `budgets` here.
    func begin(budgets: [Budget]) throws(TallyError)
    func write(_ expense: Expense, budgetName: String) throws(TallyError)
    func finish() throws(TallyError)
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

public final class JSONExportWriter: ExportWriter {
    private let sink: any ByteSink
    private var expenseCount = 0
    private var line: [UInt8] = []

    public init(sink: any ByteSink) {
        self.sink = sink
    }

    public func begin(budgets: [Budget]) throws(TallyError) {
        line = Array("{\n  \"version\": \(LedgerDocument.currentVersion),\n  \"budgets\": [".utf8)
        for (index, budget) in budgets.enumerated() {
            line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
            let dto = BudgetDTO(budget)
            appendKey("name", first: true)
            appendString(dto.name)
            appendKey("limit")
            appendString(dto.limit)
            appendKey("period")
            appendString(dto.period)
            line.append(UInt8(ascii: "}"))
        }
        line.append(contentsOf: (budgets.isEmpty ? "],\n  \"expenses\": [" : "\n  ],\n  \"expenses\": [").utf8)
        try sink.write(line)
    }

    public func write(_ expense: Expense, budgetName: String) throws(TallyError) {
        let dto = try ExpenseDTO(expense, budgetName: budgetName)
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: (expenseCount == 0 ? "\n    " : ",\n    ").utf8)
        appendKey("id", first: true)
        line.append(contentsOf: (dto.id.map { String($0) } ?? "null").utf8)
        appendKey("name")
        appendString(dto.name)
        appendKey("amount")
        appendString(dto.amount)
        appendKey("quantity")
        line.append(contentsOf: String(dto.quantity).utf8)
        appendKey("total")
        appendString(dto.total)
        appendKey("date")
        appendString(dto.date)
        appendKey("budget")
        appendString(dto.budget)
        appendKey("tags")
        line.append(UInt8(ascii: "["))
        for (index, tag) in dto.tags.enumerated() {
            if index > 0 { line.append(contentsOf: ", ".utf8) }
            appendString(tag)
        }
        line.append(contentsOf: "]}".utf8)
        expenseCount += 1
        try sink.write(line)
    }

    public func finish() throws(TallyError) {
        try sink.write(Array((expenseCount == 0 ? "]\n}\n" : "\n  ]\n}\n").utf8))
        try sink.flush()
    }

    private func appendKey(_ key: String, first: Bool = false) {
        line.append(contentsOf: (first ? "{\"" : ", \"").utf8)
        line.append(contentsOf: key.utf8)
        line.append(contentsOf: "\": ".utf8)
    }

    private func appendString(_ value: String) {
        line.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): line.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): line.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): line.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): line.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): line.append(contentsOf: "\\t".utf8)
            case 0..<0x20, 0x7F:
                line.append(contentsOf: "\\u00".utf8)
                line.append(hex[Int(byte >> 4)])
                line.append(hex[Int(byte & 0xF)])
            default: line.append(byte)
            }
        }
        line.append(UInt8(ascii: "\""))
    }
}

/// Writes expenses as CSV with the default import header, so an export imports back unchanged.
public final class CSVExportWriter: ExportWriter {
    private let writer: CSVWriter

    public init(sink: any ByteSink) {
        writer = CSVWriter(sink: sink)
    }

    /// CSV rows name their budget; the budgets themselves are not written.
    public func begin(budgets: [Budget] = []) throws(TallyError) {
        try writer.writeRecord(ImportField.defaultHeader.map(\.rawValue))
    }

    public func write(_ expense: Expense, budgetName: String) throws(TallyError) {
        try writer.writeRecord([
            expense.date.isoString, budgetName, expense.name, expense.amount.plainString, String(expense.quantity),
            expense.tags.joined(separator: ";"),
        ])
    }

    public func finish() throws(TallyError) {
        try writer.flush()
    }
}
