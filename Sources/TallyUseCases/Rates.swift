import TallyCore
import TallyImportExport

/// `rates import FILE`: the ECB's reference rates or a plain `date,from,to,rate` file, all in one
/// transaction or none. The file is opened before the ledger, so a missing file creates nothing.
public struct ImportRates: Sendable {
    public var path: String

    public init(path: String) { self.path = path }

    /// How many rates were saved.
    public func run(in ledger: Ledger) throws(TallyError) -> Int {
        let source = try FileSource(path: path)
        return try ledger.perform { (store: any DataAccess) throws(TallyError) in
            var count = 0
            try store.saveRates { (save: ([DayRate]) throws(TallyError) -> Void) throws(TallyError) in
                count = try RateFile.read(source, save: save)
            }
            return count
        }
    }
}

/// `rates list`: the rate table's rows, by day.
public struct ListRates: Sendable {
    public var query: RateQuery

    public init(_ query: RateQuery) { self.query = query }

    public func run(in ledger: Ledger) throws(TallyError) -> [DayRate] {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.rates(query) }
    }
}

/// `rates set DAY FROM TO RATE`: one row of the table, replacing the day's row for the pair.
public struct SetRate: Sendable {
    public var rate: DayRate

    public init(_ rate: DayRate) { self.rate = rate }

    public func run(in ledger: Ledger) throws(TallyError) {
        guard rate.from != rate.to else { throw .foreignMoney(.conflictingCurrencies(rate.from.code, rate.to.code)) }
        try ledger.perform { (store: any DataAccess) throws(TallyError) in try store.saveRates([rate]) }
    }
}

/// `rates reapply`: the table's rates again for the expenses and incomes that took theirs from it.
public struct ReapplyRates: Sendable {
    public var days: DayInterval?
    public var dryRun: Bool

    public init(days: DayInterval?, dryRun: Bool) {
        self.days = days
        self.dryRun = dryRun
    }

    /// What changed (or would), with each budget's and account's name by id.
    public func run(in ledger: Ledger) throws(TallyError) -> (outcome: RateReapplication, budgetNames: [Int64: String], accountNames: [Int64: String]) {
        try ledger.perform { (store: any DataAccess) throws(TallyError) in
            let outcome = try store.reapplyRates(in: days, dryRun: dryRun)
            var names: [Int64: String] = [:]
            for budget in try store.budgets() { names[budget.id ?? 0] = budget.name }
            var accounts: [Int64: String] = [:]
            if !outcome.incomes.isEmpty {
                for account in try store.accountBook(withEntries: false).accounts { accounts[account.id ?? 0] = account.name }
            }
            return (outcome, names, accounts)
        }
    }
}
