import TallyCore

/// `settings show`.
public struct ShowSettings: Sendable {
    public init() {}

    public func run(in ledger: Ledger) throws(TallyError) -> LedgerSettings {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.settings() }
    }

    /// The settings with the default account's name, if any.
    public func runNamingAccount(in ledger: Ledger) throws(TallyError) -> (settings: LedgerSettings, defaultAccount: String?) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in (try store.settings(), try store.defaultAccount()?.name) }
    }
}

/// `settings set month-start DAY`: the day every period starts on, for everyone using the ledger.
public struct SetMonthStart: Sendable {
    public var day: Int

    public init(day: Int) {
        self.day = day
    }

    public func run(in ledger: Ledger) throws(TallyError) -> LedgerSettings {
        let calendar = try PeriodCalendar(monthStart: day)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var settings = try store.settings()
            settings.calendar = calendar
            return try store.updateSettings(settings)
        }
    }
}

/// `settings set currency CODE`: what the ledger's amounts are in, for showing them; `nil` removes it.
public struct SetCurrency: Sendable {
    public var currency: Currency?

    public init(currency: Currency?) {
        self.currency = currency
    }

    public func run(in ledger: Ledger) throws(TallyError) -> LedgerSettings {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var settings = try store.settings()
            settings.currency = currency
            return try store.updateSettings(settings)
        }
    }
}

/// `settings set warn PERCENT`: the warning level a budget added from now on gets.
public struct SetWarnLevel: Sendable {
    public var percent: Int

    public init(percent: Int) {
        self.percent = percent
    }

    public func run(in ledger: Ledger) throws(TallyError) -> LedgerSettings {
        try BudgetLevel.checkWarn(percent)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var settings = try store.settings()
            settings.warn = percent
            return try store.updateSettings(settings)
        }
    }
}

/// `settings set default-account`: the account expenses are paid from when they name none.
public struct SetDefaultAccount: Sendable {
    /// `nil`: none.
    public var name: String?

    public init(name: String?) {
        self.name = name
    }

    /// The account now the default, if any.
    public func run(in ledger: Ledger) throws(TallyError) -> Account? {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.setDefaultAccount(named: name) }
    }
}
