import Foundation
import TallyCore

/// Writes a ``LedgerDocument`` one entry at a time, so an export never holds all expenses.
/// Keys appear in the documented order, one entry per line, so exports diff well.
public final class JSONExportWriter: ExportWriter {
    private let sink: any ByteSink
    private var expenseCount = 0
    /// The entry being written; internal for the writer's extensions in other files.
    var line: [UInt8] = []
    /// Version 5 documents give every expense its `by`.
    private var writesBy = false
    /// The rate table to write (version 9), set before ``begin``.
    public var rates: [DayRate] = []
    /// Some expense to be written is in another currency (version 9), set before ``begin``.
    public var hasForeignAmounts = false
    /// Whether an exported expense is split or a refund: the document is then version 10.
    public var hasSplits = false

    public init(sink: any ByteSink) {
        self.sink = sink
    }

    public func begin(
        budgets: [Budget], settings: LedgerSettings = LedgerSettings(), recurring: [DeclaredRecurringRule] = [],
        rules: [ImportRule] = [], profiles: [ImportProfile] = [], recordsPeople: Bool = false, accounts: DeclaredAccounts = DeclaredAccounts()
    ) throws(TallyError) {
        let version = LedgerDocument.version(
            budgets: budgets, settings: settings, hasRecurringRules: !recurring.isEmpty, rules: rules, profiles: profiles,
            recordsPeople: recordsPeople, hasAccounts: !accounts.isEmpty, abroad: hasForeignAmounts || !rates.isEmpty, splits: hasSplits,
            foreignIncomes: accounts.incomes.contains { $0.income.foreign != nil })
        writesBy = version >= 5
        line = Array("{\n  \"version\": \(version),\n  \"settings\": ".utf8)
        let settingsDTO = SettingsDTO(settings)
        appendKey("monthStart", first: true)
        line.append(contentsOf: String(settingsDTO.monthStart).utf8)
        if let currency = settingsDTO.currency {
            appendKey("currency")
            appendString(currency)
        }
        if let warn = settingsDTO.warn {
            appendKey("warn")
            line.append(contentsOf: String(warn).utf8)
        }
        if let defaultAccount = accounts.defaultAccount {
            appendKey("defaultAccount")
            appendString(defaultAccount)
        }
        line.append(contentsOf: "},\n  \"budgets\": [".utf8)
        var accountNames: [Int64: String] = [:]
        for account in accounts.accounts { accountNames[account.id ?? 0] = account.name }
        for (index, budget) in budgets.enumerated() {
            line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
            let dto = BudgetDTO(budget, accountNames: accountNames)
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
            if let warn = dto.warn {
                appendKey("warn")
                line.append(contentsOf: String(warn).utf8)
            }
            for (key, value) in [("target", dto.target), ("targetBy", dto.targetBy), ("targetAccount", dto.targetAccount), ("currency", dto.currency)] {
                guard let value else { continue }
                appendKey(key)
                appendString(value)
            }
            line.append(UInt8(ascii: "}"))
        }
        line.append(contentsOf: (budgets.isEmpty ? "]," : "\n  ],").utf8)
        if !recurring.isEmpty {
            // A few rules: each one line, keys sorted, as JSONEncoder writes it.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            line.append(contentsOf: "\n  \"recurring\": [".utf8)
            for (index, declared) in recurring.enumerated() {
                line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
                do {
                    line.append(contentsOf: try encoder.encode(RecurringRuleDTO(declared)))
                } catch {
                    throw .cannotWrite(path: nil, reason: "cannot encode recurring rule \(quoted(declared.rule.name))")
                }
            }
            line.append(contentsOf: "\n  ],".utf8)
        }
        // Only documents with rules or profiles have these keys.
        if !rules.isEmpty {
            line.append(contentsOf: "\n  \"rules\": [".utf8)
            for (index, rule) in rules.enumerated() {
                line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
                let dto = RuleDTO(rule)
                appendKey("pattern", first: true)
                appendString(dto.pattern)
                if let budget = dto.budget {
                    appendKey("budget")
                    appendString(budget)
                }
                if let account = dto.transferTo {
                    appendKey("transferTo")
                    appendString(account)
                }
                appendKey("tags")
                line.append(UInt8(ascii: "["))
                for (position, tag) in dto.tags.enumerated() {
                    if position > 0 { line.append(contentsOf: ", ".utf8) }
                    appendString(tag)
                }
                line.append(UInt8(ascii: "]"))
                if let rename = dto.rename {
                    appendKey("rename")
                    appendString(rename)
                }
                appendKey("priority")
                line.append(contentsOf: String(dto.priority).utf8)
                if dto.refund == true {
                    appendKey("refund")
                    line.append(contentsOf: "true".utf8)
                }
                if let split = dto.split {
                    appendKey("split")
                    line.append(UInt8(ascii: "["))
                    for (index, entry) in split.enumerated() {
                        appendLine(index, budget: entry.budget, share: entry.share, name: entry.name, tags: entry.tags)
                    }
                    line.append(UInt8(ascii: "]"))
                }
                line.append(UInt8(ascii: "}"))
            }
            line.append(contentsOf: "\n  ],".utf8)
        }
        if !profiles.isEmpty {
            line.append(contentsOf: "\n  \"profiles\": [".utf8)
            for (index, profile) in profiles.enumerated() {
                line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
                let dto = ProfileDTO(profile)
                appendKey("name", first: true)
                appendString(dto.name)
                let texts = [("columns", dto.columns), ("dateFormat", dto.dateFormat), ("expenseSign", dto.expenseSign),
                             ("delimiter", dto.delimiter), ("fallback", dto.fallback), ("currency", dto.currency), ("encoding", dto.encoding)]
                for (key, value) in texts {
                    guard let value else { continue }
                    appendKey(key)
                    appendString(value)
                }
                for (key, value) in [("uncategorized", dto.uncategorized), ("decimalComma", dto.decimalComma)] {
                    guard let value else { continue }
                    appendKey(key)
                    line.append(contentsOf: (value ? "true" : "false").utf8)
                }
                if let skip = dto.skip {
                    appendKey("skip")
                    line.append(contentsOf: String(skip).utf8)
                }
                line.append(UInt8(ascii: "}"))
            }
            line.append(contentsOf: "\n  ],".utf8)
        }
        appendAccounts(accounts)
        if !rates.isEmpty {
            // Version 9: the rate table, one rate a line.
            line.append(contentsOf: "\n  \"rates\": [".utf8)
            for (index, rate) in rates.map(RateDTO.init).enumerated() {
                line.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
                appendKey("date", first: true)
                appendString(rate.date)
                appendKey("from")
                appendString(rate.from)
                appendKey("to")
                appendString(rate.to)
                appendKey("rate")
                appendString(rate.rate)
                line.append(UInt8(ascii: "}"))
            }
            line.append(contentsOf: "\n  ],".utf8)
        }
        line.append(contentsOf: "\n  \"expenses\": [".utf8)
        try sink.write(line)
    }

    public func write(_ expense: Expense, budgetName: String, accountName: String?) throws(TallyError) {
        let dto = try ExpenseDTO(expense, budgetName: budgetName, accountName: accountName)
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
        appendStrings(dto.tags)
        if writesBy {
            appendKey("by")
            appendString(expense.by)
        }
        if let account = dto.account {
            appendKey("account")
            appendString(account)
        }
        if let lines = dto.lines {
            appendKey("lines")
            line.append(UInt8(ascii: "["))
            for (index, entry) in lines.enumerated() {
                appendLine(index, budget: entry.budget, amount: entry.amount, share: entry.share, name: entry.name, tags: entry.tags)
            }
            line.append(UInt8(ascii: "]"))
        }
        if dto.refund == true {
            appendKey("refund")
            line.append(contentsOf: "true".utf8)
            if let of = dto.refundOf {
                appendKey("refundOf")
                line.append(contentsOf: String(of).utf8)
            }
        }
        appendForeign(dto.original, rate: dto.rate, rateSource: dto.rateSource)
        line.append(UInt8(ascii: "}"))
        expenseCount += 1
        try sink.write(line)
    }

    public func finish() throws(TallyError) {
        try sink.write(Array((expenseCount == 0 ? "]\n}\n" : "\n  ]\n}\n").utf8))
        try sink.flush()
    }

    /// An entry's amount in another currency (an expense's, an income's): `original`, `rate` and
    /// `rateSource`, or nothing.
    func appendForeign(_ original: OriginalDTO?, rate: String?, rateSource: String?) {
        guard let original, let rate, let rateSource else { return }
        appendKey("original")
        appendKey("amount", first: true)
        appendString(original.amount)
        appendKey("currency")
        appendString(original.currency)
        line.append(UInt8(ascii: "}"))
        appendKey("rate")
        appendString(rate)
        appendKey("rateSource")
        appendString(rateSource)
    }

    func appendKey(_ key: String, first: Bool = false) {
        line.append(contentsOf: (first ? "{\"" : ", \"").utf8)
        line.append(contentsOf: key.utf8)
        line.append(contentsOf: "\": ".utf8)
    }

    /// One line of a split expense (with its amount) or of a split rule (without).
    func appendLine(_ index: Int, budget: String, amount: String? = nil, share: String, name: String?, tags: [String]?) {
        if index > 0 { line.append(contentsOf: ", ".utf8) }
        appendKey("budget", first: true)
        appendString(budget)
        if let amount {
            appendKey("amount")
            appendString(amount)
        }
        appendKey("share")
        appendString(share)
        if let name {
            appendKey("name")
            appendString(name)
        }
        if let tags {
            appendKey("tags")
            appendStrings(tags)
        }
        line.append(UInt8(ascii: "}"))
    }

    func appendStrings(_ values: [String]) {
        line.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { line.append(contentsOf: ", ".utf8) }
            appendString(value)
        }
        line.append(UInt8(ascii: "]"))
    }

    func appendString(_ value: String) {
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
