import Foundation
import TallyCore

/// The ledger's settings in a document.
public struct SettingsDTO: Codable, Hashable, Sendable {
    /// The day of the month periods start on, 1 to 28.
    public var monthStart: Int
    /// The ISO 4217 code amounts are shown in (version 3); absent for none.
    public var currency: String?
    /// The warning level new budgets get, percent (version 4); absent for the default 80.
    public var warn: Int?
    /// The account expenses are paid from when they name none, by name (version 7); absent
    /// for none.
    public var defaultAccount: String?

    public init(monthStart: Int, currency: String? = nil, warn: Int? = nil) {
        self.monthStart = monthStart
        self.currency = currency
        self.warn = warn
    }

    public init(_ settings: LedgerSettings) {
        self.init(
            monthStart: settings.calendar.monthStart, currency: settings.currency?.code,
            warn: settings.warn == BudgetLevel.defaultWarnPercent ? nil : settings.warn)
    }

    /// The settings this entry describes, validated.
    public func settings() throws(TallyError) -> LedgerSettings {
        if let warn {
            do {
                try BudgetLevel.checkWarn(warn)
            } catch {
                throw .importFile(line: nil, reason: "settings.warn \(quoted(String(warn))): \(error.errorDescription ?? "invalid warning level")")
            }
        }
        let calendar: PeriodCalendar
        do {
            calendar = try PeriodCalendar(monthStart: monthStart)
        } catch {
            throw .importFile(
                line: nil, reason: "settings.monthStart \(quoted(String(monthStart))): \(error.errorDescription ?? "invalid month start")")
        }
        do {
            return LedgerSettings(
                calendar: calendar, currency: try currency.map { (code: String) throws(TallyError) in try Currency(code: code) },
                warn: warn ?? BudgetLevel.defaultWarnPercent)
        } catch {
            throw .importFile(line: nil, reason: "settings.currency: \(error.errorDescription ?? "invalid currency")")
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
    /// The warning level, percent (version 4); absent for the default 80.
    public var warn: Int?
    /// The target's amount (version 8); absent for no target.
    public var target: String?
    /// A sinking fund's month, `YYYY-MM`; absent for a target set aside every period.
    public var targetBy: String?
    /// The account the target's money sits in, by name: one of the document's `accounts`.
    public var targetAccount: String?
    /// The budget's own currency, an ISO 4217 code (version 10); absent for the ledger's.
    public var currency: String?

    public init(
        name: String, limit: String, period: String, rollover: String? = nil, cap: String? = nil, start: String? = nil,
        from: String? = nil, to: String? = nil, limits: [LimitDTO]? = nil, created: String? = nil, warn: Int? = nil,
        target: String? = nil, targetBy: String? = nil, targetAccount: String? = nil
    ) {
        self.target = target
        self.targetBy = targetBy
        self.targetAccount = targetAccount
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
        self.warn = warn
    }

    /// The entry of a budget: every field it uses, and when it was created.
    public init(_ budget: Budget) {
        self.init(budget, accountNames: [:])
    }

    /// The entry of a budget, with `accountNames` by id naming its target's account.
    public init(_ budget: Budget, accountNames: [Int64: String]) {
        self.init(
            name: budget.name, limit: budget.limit.plainString, period: budget.period.rawValue,
            rollover: budget.rollover == .none ? nil : budget.rollover.rawValue, cap: budget.cap?.plainString,
            start: budget.start?.isoString, from: budget.range?.first.isoString, to: budget.range?.last.isoString,
            limits: budget.limitChanges.isEmpty ? nil : budget.limitChanges.map(LimitDTO.init),
            created: DocumentTime.string(budget.createdAt), warn: budget.warn == BudgetLevel.defaultWarnPercent ? nil : budget.warn,
            target: budget.target?.amount.plainString, targetBy: budget.target?.by?.isoString,
            targetAccount: budget.target?.accountID.flatMap { accountNames[$0] })
        currency = budget.currency?.code
    }

    /// The budget this entry describes, validated; `index` names it in errors. Without
    /// `created`, its `createdAt` is a placeholder the store replaces.
    /// `accounts` are the document's: a target's account is named by its placeholder among them
    /// (``DeclaredAccounts/placeholder(forAccountNamed:)``), which the import resolves.
    public func budget(index: Int, accounts: DeclaredAccounts = DeclaredAccounts()) throws(TallyError) -> Budget {
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
        var targetValue: BudgetTarget?
        if let target {
            targetValue = BudgetTarget(
                amount: try amount("target", target), by: try targetBy.map { (text: String) throws(TallyError) in try month("targetBy", text) })
            if let targetAccount {
                guard let placeholder = accounts.placeholder(forAccountNamed: targetAccount) else {
                    throw invalid("targetAccount", targetAccount, "the document has no account of that name")
                }
                targetValue?.accountID = placeholder
            }
        } else if let field = targetBy.map({ ("targetBy", $0) }) ?? targetAccount.map({ ("targetAccount", $0) }) {
            throw invalid(field.0, field.1, "a budget without \"target\" has no target to date or place")
        }
        let currencyValue = try currency.map { (text: String) throws(TallyError) in try parsed("currency", text, Currency.init(code:)) }
        do {
            return try Budget(
                name: name, limit: limitValue, period: periodValue, rollover: rolloverValue, cap: capValue, start: startValue,
                range: range, limitChanges: changes, warn: warn ?? BudgetLevel.defaultWarnPercent, target: targetValue,
                currency: currencyValue, createdAt: createdAt
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
                case .invalidWarnLevel(let percent): ("warn", String(percent))
                case .targetNotPositive, .targetNeedsRenewingPeriod: ("target", target ?? "")
                case .targetBeforeStart: ("targetBy", targetBy ?? "")
                case .foreignMoney: ("currency", currency ?? "")
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

/// An import profile in a document (version 4): its settings as the user gave them; unset ones
/// are left out.
public struct ProfileDTO: Codable, Hashable, Sendable {
    public var name: String
    public var columns: String?
    public var dateFormat: String?
    public var expenseSign: String?
    public var delimiter: String?
    public var fallback: String?
    public var uncategorized: Bool?
    public var decimalComma: Bool?
    public var currency: String?
    public var encoding: String?
    /// Lines above the header to skip; left out when the header is found.
    public var skip: Int?

    public init(_ profile: ImportProfile) {
        name = profile.name
        columns = profile.columns
        dateFormat = profile.dateFormat
        expenseSign = profile.expenseSign
        delimiter = profile.delimiter
        fallback = profile.fallbackBudget
        uncategorized = profile.uncategorized ? true : nil
        decimalComma = profile.decimalComma
        currency = profile.currency
        encoding = profile.encoding
        skip = profile.skip
    }

    /// The profile this entry describes, validated by reading it as an import would; errors name the entry.
    public func profile(index: Int) throws(TallyError) -> ImportProfile {
        let profile = ImportProfile(
            name: name, columns: columns, dateFormat: dateFormat, expenseSign: expenseSign, delimiter: delimiter, fallbackBudget: fallback,
            uncategorized: uncategorized ?? false, decimalComma: decimalComma, currency: currency, encoding: encoding, skip: skip)
        do {
            _ = try CSVImportOptions(profile)
            return try profile.validated()
        } catch {
            throw .importFile(line: nil, reason: "profiles[\(index)] \(quoted(name)): \(error.errorDescription ?? "invalid profile")")
        }
    }
}

/// An import rule in a document (version 4). Its budget is named, as expenses name theirs; a
/// transfer rule names its account as `transferTo` instead (version 7) and has no `budget`.
public struct RuleDTO: Codable, Hashable, Sendable {
    public var pattern: String
    public var budget: String?
    public var tags: [String]
    public var rename: String?
    public var priority: Int
    public var transferTo: String?
    /// A split rule's lines (version 12); `nil` for a rule with one budget.
    public var split: [RuleLineDTO]?
    /// `true` for a refund rule (version 12); `nil` otherwise.
    public var refund: Bool?

    public init(_ rule: ImportRule) {
        pattern = rule.pattern
        budget = rule.transferTo == nil ? rule.budget : nil
        tags = rule.tags
        rename = rule.rename
        priority = rule.priority
        transferTo = rule.transferTo
        split = rule.split.isEmpty ? nil : rule.split.map(RuleLineDTO.init)
        refund = rule.refund ? true : nil
    }

    /// The rule this entry describes, validated; errors name the entry.
    public func rule(index: Int) throws(TallyError) -> ImportRule {
        do {
            var rule = ImportRule(pattern: pattern, budget: budget ?? "", tags: tags, rename: rename, priority: priority, transferTo: transferTo)
            rule.refund = refund ?? false
            rule.split = try (split ?? []).map { line throws(TallyError) in try line.line() }
            return try rule.validated()
        } catch {
            throw .importFile(line: nil, reason: "rules[\(index)] \(quoted(pattern)): \(error.errorDescription ?? "invalid rule")")
        }
    }
}

