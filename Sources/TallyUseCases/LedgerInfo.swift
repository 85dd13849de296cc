import TallyCore
import TallyStores

/// `db info`: where the ledger is (never with a password), its engine and schema, and how much
/// it holds, its history included.
public struct LedgerInfo: Sendable {
    public struct Result: Sendable, Equatable {
        public var location: String
        public var engine: String?
        public var schema: [String]
        public var budgets: Int
        public var expenses: Int
        public var recurringRules: Int
        /// Change sets in the history (`tally log`), undone ones included.
        public var changeSets: Int
    }

    public init() {}

    public func run(at location: StoreLocation) throws(TallyError) -> Result {
        guard location.exists else { throw .storage("no ledger at \(quoted(location.description))") }
        return try Ledger(location: location).perform { (store: any DataAccess) throws(TallyError) in
            let details = store as? StoreDetails
            return Result(
                location: location.description, engine: try details?.engine(), schema: try details?.appliedMigrations() ?? [],
                budgets: try store.budgets().count, expenses: try store.countExpenses(ExpenseQuery()),
                recurringRules: try store.recurringRules().count, changeSets: try store.changeSets(since: nil, limit: nil).count)
        }
    }
}
