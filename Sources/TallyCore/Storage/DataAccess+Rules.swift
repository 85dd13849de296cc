import Foundation

// Import rules, profiles and recurring rules, written once for every store over its
// ``LedgerRows``. Rules point at their budget by id, so a renamed budget keeps its rules.
extension DataAccess {
    // MARK: - Import rules

    /// Validates and saves a new import rule; its budget must exist (found ignoring case and
    /// diacritics, ``TallyError/budgetNotFound(_:)`` otherwise). The saved rule names the budget as
    /// the ledger spells it. Removing a budget removes its rules.
    public func addRule(_ rule: ImportRule) throws(TallyError) -> ImportRule {
        var rule = try rule.validated()
        rule.id = nil
        return try writing { (rows: any LedgerRows) throws(TallyError) in try Self.save(rule, rows) }
    }

    /// Saves a changed rule under its id; ``TallyError/ruleNotFound(_:)`` when there is none.
    public func updateRule(_ rule: ImportRule) throws(TallyError) -> ImportRule {
        let rule = try rule.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            _ = try Self.importRule(id: rule.id ?? 0, rows)
            return try Self.save(rule, rows)
        }
    }

    /// Removes the rule with id `id`; ``TallyError/ruleNotFound(_:)`` when there is none.
    public func removeRule(id: Int64) throws(TallyError) {
        try writing { (rows: any LedgerRows) throws(TallyError) in try rows.delete(try Self.importRule(id: id, rows)) }
    }

    private static func importRule(id: Int64, _ rows: any LedgerRows) throws(TallyError) -> RowImage {
        for row in try rows.rowImages() {
            if case .importRule(let rule, _) = row, rule.id == id { return row }
        }
        throw .ruleNotFound(id)
    }

    private static func save(_ rule: ImportRule, _ rows: any LedgerRows) throws(TallyError) -> ImportRule {
        if let name = rule.transferTo {
            var rule = rule
            let account = try rows.accountBook(withEntries: false).account(named: name)
            rule.transferAccountID = account.id
            guard case .importRule(var saved, _) = try rows.save(.importRule(rule, budgetID: 0)) else {
                throw .storage("an import rule was saved as another row")
            }
            saved.transferTo = account.name
            return saved
        }
        var rule = rule
        let budget = try rows.budget(named: rule.budget)
        // A split rule's lines keep their budgets by id, as the rule keeps its first.
        var lines: [Budget] = []
        for line in rule.split { lines.append(try rows.budget(named: line.budget)) }
        rule.splitBudgetIDs = lines.map { $0.id ?? 0 }
        guard case .importRule(var saved, _) = try rows.save(.importRule(rule, budgetID: budget.id ?? 0)) else {
            throw .storage("an import rule was saved as another row")
        }
        saved.budget = budget.name
        for (index, line) in lines.enumerated() { saved.split[index].budget = line.name }
        return saved
    }

    // MARK: - Profiles

    /// Saves an import profile under its name, replacing one with the same name ignoring case
    /// and diacritics.
    public func saveProfile(_ profile: ImportProfile) throws(TallyError) -> ImportProfile {
        let profile = try profile.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            try rows.save(.profile(profile))
            return profile
        }
    }

    /// Removes the profile named `name`; ``TallyError/profileNotFound(_:)`` when there is none.
    /// The row keys of its imports stay, for when it is saved again.
    public func removeProfile(named name: String) throws(TallyError) {
        let key = NameKey.lookup(name)
        try writing { (rows: any LedgerRows) throws(TallyError) in
            guard let profile = try rows.profiles().first(where: { $0.nameKey == key }) else { throw .profileNotFound(name) }
            try rows.delete(.profile(profile))
        }
    }

    // MARK: - Recurring rules

    /// Validates and saves a new rule in an existing budget.
    public func addRecurringRule(_ rule: RecurringRule) throws(TallyError) -> RecurringRule {
        var rule = try rule.validated()
        rule.id = nil
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            try Self.checkBudget(of: rule, rows)
            guard case .recurringRule(let saved) = try rows.save(.recurringRule(rule)) else {
                throw .storage("a recurring rule was saved as another row")
            }
            return saved
        }
    }

    /// Saves a changed rule, its skips included. Occurrences already paid stay paid.
    public func updateRecurringRule(_ rule: RecurringRule) throws(TallyError) -> RecurringRule {
        let rule = try rule.validated()
        return try writing { (rows: any LedgerRows) throws(TallyError) in
            guard let id = rule.id else { throw .recurringRuleNotFound(0) }
            guard try rows.recurringRules().contains(where: { $0.id == id }) else { throw .recurringRuleNotFound(id) }
            try Self.checkBudget(of: rule, rows)
            try rows.save(.recurringRule(rule))
            return rule
        }
    }

    /// Removes a rule with its paid occurrences; the expenses it posted stay.
    public func removeRecurringRule(id: Int64) throws(TallyError) {
        try writing { (rows: any LedgerRows) throws(TallyError) in
            let (rules, payments) = try rows.recurring()
            guard let rule = rules.first(where: { $0.id == id }) else { throw .recurringRuleNotFound(id) }
            for payment in payments where payment.ruleID == id { try rows.delete(.recurringPayment(payment)) }
            try rows.delete(.recurringRule(rule))
        }
    }

    private static func checkBudget(of rule: RecurringRule, _ rows: any LedgerRows) throws(TallyError) {
        guard try rows.budgets().contains(where: { $0.id == rule.budgetID }) else { throw .budgetNotFound("#\(rule.budgetID)") }
    }
}
