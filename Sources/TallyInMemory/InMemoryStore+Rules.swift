import Foundation
import TallyCore

// Import rules, as `SQLiteStore` keeps them: by budget id, answered with the budget's current name.
extension InMemoryStore {
    public func addRule(_ rule: ImportRule) throws(TallyError) -> ImportRule {
        let rule = try rule.validated()
        return try transaction { (state: inout State) throws(TallyError) in
            let budget = try Self.find(rule.budget, in: state)
            var saved = rule
            saved.id = state.nextImportRuleID
            saved.budget = budget.name
            state.importRules[state.nextImportRuleID] = (saved, budget.id ?? 0)
            state.nextImportRuleID += 1
            return saved
        }
    }

    public func rules() throws(TallyError) -> [ImportRule] {
        try transaction { state in Self.rules(in: state) }
    }

    public func updateRule(_ rule: ImportRule) throws(TallyError) -> ImportRule {
        let rule = try rule.validated()
        let id = rule.id ?? 0
        return try transaction { (state: inout State) throws(TallyError) in
            guard state.importRules[id] != nil else { throw .ruleNotFound(id) }
            let budget = try Self.find(rule.budget, in: state)
            var saved = rule
            saved.budget = budget.name
            state.importRules[id] = (saved, budget.id ?? 0)
            return saved
        }
    }

    public func removeRule(id: Int64) throws(TallyError) {
        try transaction { (state: inout State) throws(TallyError) in
            guard state.importRules.removeValue(forKey: id) != nil else { throw .ruleNotFound(id) }
        }
    }

    public func importedRowKeys() throws(TallyError) -> Set<Int64> {
        try transaction { state in state.rowKeys }
    }

    public func saveProfile(_ profile: ImportProfile) throws(TallyError) -> ImportProfile {
        let profile = try profile.validated()
        return try transaction { state in
            state.profiles[profile.nameKey] = profile
            return profile
        }
    }

    public func profiles() throws(TallyError) -> [ImportProfile] {
        try transaction { state in state.profiles.sorted { $0.key < $1.key }.map(\.value) }
    }

    public func removeProfile(named name: String) throws(TallyError) {
        try transaction { (state: inout State) throws(TallyError) in
            guard state.profiles.removeValue(forKey: NameKey.lookup(name)) != nil else { throw .profileNotFound(name) }
        }
    }

    static func rules(in state: State) -> [ImportRule] {
        ImportRule.ordered(state.importRules.values.map { entry in
            var rule = entry.rule
            rule.budget = state.budgets[entry.budgetID]?.name ?? rule.budget
            return rule
        })
    }
}
