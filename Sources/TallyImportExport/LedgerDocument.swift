import Foundation
import TallyCore

/// The JSON document `tally export --format json` writes and `tally import` reads back.
///
/// These transfer types are separate from the models so the file format can stay stable while
/// the models change; amounts are two-decimal strings so no reader turns them into floats.
///
/// Version 2 added the ledger's `settings` and, to each budget, `rollover`, `cap`, `start`,
/// `from`, `to` and `limits` (each left out when the budget does not use it) and `created`. A
/// document is written as version 1 when a version-1 reader, which skips what it does not know,
/// loses nothing of it: every budget monthly with one limit and nothing else, months starting
/// on the 1st (what that reader assumes), and then no figure depends on when a budget was
/// created. Older Tallys so still read plain backups, and refuse the others rather than drop
/// what they do not know. Both versions are read the same way: a field left out means what it
/// meant before it existed.
public struct LedgerDocument: Codable, Hashable, Sendable {
    /// The newest version this Tally writes and reads.
    public static let currentVersion = 2
    /// Every version this Tally reads.
    public static let readableVersions = 1...currentVersion

    public var version: Int
    /// `nil` in documents written before version 2: the ledger keeps its own settings.
    public var settings: SettingsDTO?
    public var budgets: [BudgetDTO]
    public var expenses: [ExpenseDTO]

    public init(
        version: Int = LedgerDocument.currentVersion, settings: SettingsDTO? = nil, budgets: [BudgetDTO], expenses: [ExpenseDTO]
    ) {
        self.version = version
        self.settings = settings
        self.budgets = budgets
        self.expenses = expenses
    }

    /// The version a document of `budgets` and `settings` is written as: 1 when a version-1
    /// reader would read all of it, else ``currentVersion``.
    public static func version(budgets: [Budget], settings: LedgerSettings) -> Int {
        let plain =
            settings.calendar == .calendarMonths
            && budgets.allSatisfy {
                $0.period == .monthly && $0.rollover == .none && $0.cap == nil && $0.start == nil && $0.range == nil
                    && $0.limitChanges.isEmpty
            }
        return plain ? 1 : currentVersion
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
        guard readableVersions.contains(version) else {
            throw .importFile(
                line: nil,
                reason: "unsupported document version \(version); this Tally reads versions "
                    + "\(readableVersions.lowerBound) to \(readableVersions.upperBound)")
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

    /// The ledger settings the document carries, validated; `nil` when it has none.
    public func validatedSettings() throws(TallyError) -> LedgerSettings? {
        try settings?.settings()
    }

    /// Whether the budgets carry their creation times, for the import to keep: every budget has
    /// `created`, or none does (a document written before version 2). A document that gives it to
    /// some budgets and not others is refused, naming the first without it.
    public func keepsCreationDates() throws(TallyError) -> Bool {
        guard let with = budgets.firstIndex(where: { $0.created != nil }) else { return false }
        if let without = budgets.firstIndex(where: { $0.created == nil }) {
            throw .importFile(
                line: nil,
                reason: "budgets[\(without)] \(quoted(budgets[without].name)) has no \"created\" while budgets[\(with)] has one: "
                    + "give every budget its creation time, or none")
        }
        return true
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

/// The ledger's settings in a document.
public struct SettingsDTO: Codable, Hashable, Sendable {
    /// The day of the month periods start on, 1 to 28.
    public var monthStart: Int

    public init(monthStart: Int) {
        self.monthStart = monthStart
    }

    public init(_ settings: LedgerSettings) {
        self.init(monthStart: settings.calendar.monthStart)
    }

    /// The settings this entry describes, validated.
    public func settings() throws(TallyError) -> LedgerSettings {
        do {
            return LedgerSettings(calendar: try PeriodCalendar(monthStart: monthStart))
        } catch {
            throw .importFile(
                line: nil, reason: "settings.monthStart \(quoted(String(monthStart))): \(error.errorDescription ?? "invalid month start")")
        }
    }
}

/// A budget in a document. Besides `name`, `limit` and `period`, an export writes `created`
/// for every budget and each other field only when the budget uses it. A field left out means
/// what it meant before it existed: no rollover, no cap, a first period found from the budget's
/// creation and expenses, no range, one limit throughout, created when imported.
public struct BudgetDTO: Codable, Hashable, Sendable {
    public var name: String
    /// The first limit, until the first of `limits`.
    public var limit: String
    /// `monthly`, `yearly` or `once`.
    public var period: String
    /// `surplus` or `both`; absent for `none`.
    public var rollover: String?
    public var cap: String?
    /// The first period, `YYYY-MM`, when set explicitly.
    public var start: String?
    /// A once budget's first and last day, `YYYY-MM-DD`.
    public var from: String?
    public var to: String?
    /// Later limits, each from its period on.
    public var limits: [LimitDTO]?
    /// When the budget was created, `2026-01-31T09:30:00.123Z`.
    public var created: String?

    public init(
        name: String, limit: String, period: String, rollover: String? = nil, cap: String? = nil, start: String? = nil,
        from: String? = nil, to: String? = nil, limits: [LimitDTO]? = nil, created: String? = nil
    ) {
        self.name = name
        self.limit = limit
        self.period = period
        self.rollover = rollover
        self.cap = cap
        self.start = start
        self.from = from
        self.to = to
        self.limits = limits
        self.created = created
    }

    /// The entry of a budget: every field it uses, and when it was created.
    public init(_ budget: Budget) {
        self.init(
            name: budget.name, limit: budget.limit.plainString, period: budget.period.rawValue,
            rollover: budget.rollover == .none ? nil : budget.rollover.rawValue, cap: budget.cap?.plainString,
            start: budget.start?.isoString, from: budget.range?.first.isoString, to: budget.range?.last.isoString,
            limits: budget.limitChanges.isEmpty ? nil : budget.limitChanges.map(LimitDTO.init),
            created: DocumentTime.string(budget.createdAt))
    }

    /// The budget this entry describes, validated; `index` names it in errors. Without
    /// `created`, its `createdAt` is a placeholder the store replaces.
    public func budget(index: Int) throws(TallyError) -> Budget {
        func invalid(_ field: String, _ value: String, _ reason: String) -> TallyError {
            .importFile(line: nil, reason: "budgets[\(index)].\(field) \(quoted(value)): \(reason)")
        }
        /// `text` read by `parser`, its error told as this field's.
        func parsed<Value>(_ field: String, _ text: String, _ parser: (String) throws(TallyError) -> Value) throws(TallyError) -> Value {
            do {
                return try parser(text)
            } catch {
                throw invalid(field, text, error.errorDescription ?? "invalid value")
            }
        }
        func amount(_ field: String, _ text: String) throws(TallyError) -> Money { try parsed(field, text, Money.init(parsing:)) }
        func month(_ field: String, _ text: String) throws(TallyError) -> Month { try parsed(field, text, Month.init(parsing:)) }
        func day(_ field: String, _ text: String) throws(TallyError) -> Day { try parsed(field, text, Day.init(parsing:)) }
        func limitAmount(_ field: String, _ text: String) throws(TallyError) -> Money {
            try parsed(field, text) { (text: String) throws(TallyError) in
                let value = try Money(parsing: text)
                try Budget.checkLimit(value)
                return value
            }
        }

        let limitValue = try limitAmount("limit", limit)
        guard let periodValue = BudgetPeriod(rawValue: period) else {
            throw invalid("period", period, "use \(BudgetPeriod.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var rolloverValue = RolloverPolicy.none
        if let rollover {
            guard let value = RolloverPolicy(rawValue: rollover) else {
                throw invalid("rollover", rollover, "use \(RolloverPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            rolloverValue = value
        }
        let capValue = try cap.map { (text: String) throws(TallyError) in try amount("cap", text) }
        let startValue = try start.map { (text: String) throws(TallyError) in try month("start", text) }
        var range: DayInterval?
        switch (from, to) {
        case (let from?, let to?): range = DayInterval(first: try day("from", from), last: try day("to", to))
        case (let from?, nil): throw invalid("from", from, "a range needs its last day in \"to\" too")
        case (nil, let to?): throw invalid("to", to, "a range needs its first day in \"from\" too")
        case (nil, nil): break
        }
        var changes: [LimitChange] = []
        for (position, entry) in (limits ?? []).enumerated() {
            changes.append(
                LimitChange(
                    from: try month("limits[\(position)].from", entry.from),
                    limit: try limitAmount("limits[\(position)].limit", entry.limit)))
        }
        var createdAt = CSVRowMapper.placeholderDate
        if let created {
            guard let date = DocumentTime.date(created) else {
                throw invalid("created", created, "not a UTC time like 2026-01-31T09:30:00.000Z")
            }
            createdAt = date
        }
        do {
            return try Budget(
                name: name, limit: limitValue, period: periodValue, rollover: rolloverValue, cap: capValue, start: startValue,
                range: range, limitChanges: changes, createdAt: createdAt
            ).validated()
        } catch {
            // The amounts were checked above: what is left is the cap, the name or how the fields fit together.
            let (field, value): (String, String) =
                switch error {
                case .capNotPositive, .amountOutOfRange: ("cap", cap ?? "")
                case .onceBudgetNeedsRange: ("period", period)
                case .rangeNeedsOncePeriod: ("from", from ?? "")
                case .rangeEndsBeforeItStarts: ("to", to ?? "")
                case .rolloverNeedsRenewingPeriod: ("rollover", rollover ?? "")
                case .limitChangesOutOfOrder(let from): ("limits", from.isoString)
                default: ("name", name)
                }
            throw invalid(field, value, error.errorDescription ?? "invalid budget")
        }
    }
}

/// A budget's limit from one period on, in a document.
public struct LimitDTO: Codable, Hashable, Sendable {
    /// The period it applies from, `YYYY-MM`.
    public var from: String
    public var limit: String

    public init(from: String, limit: String) {
        self.from = from
        self.limit = limit
    }

    public init(_ change: LimitChange) {
        self.init(from: change.from.isoString, limit: change.limit.plainString)
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

/// Writes an export one expense at a time, whatever its format.
///
/// Call ``begin(budgets:settings:)`` once, ``write(_:budgetName:)`` for each expense, then
/// ``finish()``.
public protocol ExportWriter: AnyObject {
    /// Starts the document; a format that holds budgets and settings writes them here.
    func begin(budgets: [Budget], settings: LedgerSettings) throws(TallyError)
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

/// Writes a ``LedgerDocument`` one entry at a time, so an export never holds all expenses.
/// Keys appear in the documented order, one entry per line, so exports diff well.
public final class JSONExportWriter: ExportWriter {
    private let sink: any ByteSink
    private var expenseCount = 0
    private var line: [UInt8] = []

    public init(sink: any ByteSink) {
        self.sink = sink
    }

    public func begin(budgets: [Budget], settings: LedgerSettings = LedgerSettings()) throws(TallyError) {
        let version = LedgerDocument.version(budgets: budgets, settings: settings)
        line = Array("{\n  \"version\": \(version),\n  \"settings\": ".utf8)
        appendKey("monthStart", first: true)
        line.append(contentsOf: "\(SettingsDTO(settings).monthStart)},\n  \"budgets\": [".utf8)
        for (index, budget) in budgets.enumerated() {
            line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
            let dto = BudgetDTO(budget)
            appendKey("name", first: true)
            appendString(dto.name)
            appendKey("limit")
            appendString(dto.limit)
            appendKey("period")
            appendString(dto.period)
            for (key, value) in [("rollover", dto.rollover), ("cap", dto.cap), ("start", dto.start), ("from", dto.from), ("to", dto.to)] {
                guard let value else { continue }
                appendKey(key)
                appendString(value)
            }
            if let limits = dto.limits {
                appendKey("limits")
                line.append(UInt8(ascii: "["))
                for (position, change) in limits.enumerated() {
                    if position > 0 { line.append(contentsOf: ", ".utf8) }
                    appendKey("from", first: true)
                    appendString(change.from)
                    appendKey("limit")
                    appendString(change.limit)
                    line.append(UInt8(ascii: "}"))
                }
                line.append(UInt8(ascii: "]"))
            }
            if let created = dto.created {
                appendKey("created")
                appendString(created)
            }
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

    /// CSV rows name their budget; the budgets and settings themselves are not written.
    public func begin(budgets: [Budget] = [], settings: LedgerSettings = LedgerSettings()) throws(TallyError) {
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
