import Foundation
import TallyCore
import TallyStores

/// What a shell completes from the ledger: budget names, tags, recurring and import rule ids,
/// profile names, the change sets `undo` can take.
///
/// The shell asks on every TAB, so this never makes a ledger: a location without one, an empty
/// file (which opening would set up as a new ledger), or one that fails to open completes
/// nothing, and no error escapes to the terminal.
public struct ListCompletions: Sendable {
    public enum Kind: Sendable {
        /// Every budget's name, as stored; read from the budgets alone, never the expenses.
        case budgetNames
        /// Every account's name, archived ones too.
        case accountNames
        /// Every tag an expense carries.
        case tags
        /// Every recurring rule's id.
        case recurringRuleIDs
        /// Every import rule's id.
        case ruleIDs
        /// Every import profile's name.
        case profileNames
        /// The id of every change set not undone yet, which `tally undo ID` can take.
        case changeSetIDs
    }

    public var kind: Kind

    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The candidates, sorted; empty when there is no ledger at `location` or it cannot be read.
    public func run(at location: StoreLocation) -> [String] {
        guard case .file(let path) = location, Self.holdsData(path) else { return [] }
        let ledger = Ledger(location: location)
        defer { ledger.closeUntilExit() }
        let kind = kind
        let names = try? ledger.perform { (store: any DataAccess) throws(TallyError) -> [String] in
            // Should the file vanish after the check above, the ledger would be staged afresh;
            // failing here discards it instead of publishing a new one.
            guard Self.holdsData(path) else { throw .storage("no ledger") }
            switch kind {
            case .budgetNames:
                return try store.budgets().map(\.name)
            case .accountNames:
                return try store.accountBook(withEntries: false).accounts.map(\.name)
            case .tags:
                return try store.tags()
            case .recurringRuleIDs:
                return try store.recurringRules().map { String($0.id ?? 0) }
            case .ruleIDs:
                return try store.rules().compactMap { $0.id.map(String.init) }
            case .profileNames:
                return try store.profiles().map(\.name)
            case .changeSetIDs:
                return try store.changeSets(since: nil, limit: nil).filter { !$0.undone }.map { String($0.changeSet.id) }
            }
        }
        return (names ?? []).sorted { $0.localizedStandardCompare($1) == .orderedAscending }
    }

    /// A file with bytes in it: an empty one is no ledger yet, and opening it would set one up.
    private static func holdsData(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0
    }
}
