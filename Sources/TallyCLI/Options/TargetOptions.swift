import ArgumentParser
import TallyCore

/// `budget add` and `budget edit`'s goal flags: `--target`, `--by`, `--every` and `--account`.
struct TargetOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Save toward this amount (with --by or --every), or 'none' to remove the target.", valueName: "amount"))
    var target: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The month by which the target should be saved (a sinking fund), \(PhraseHelp.months).", valueName: "month"))
    var by: String?

    @Option(help: ArgumentHelp("Set the target aside every period: 'month' for a monthly budget, 'year' for a yearly one.", valueName: "period"), completion: .list(["month", "year"]))
    var every: String?

    @Option(help: ArgumentHelp("The account the target's money sits in, shown with its balance beside the fund, or 'none'.", valueName: "name"), completion: .accountNames)
    var account: String?

    /// Whether any goal flag was given.
    var isGiven: Bool { target != nil || by != nil || every != nil || account != nil }

    var removesTarget: Bool { target.map(Self.isNone) ?? false }

    /// The flags' own checks: each value well formed, and no flag that contradicts another.
    func validate() throws {
        if by != nil, every != nil { throw ValidationError("--by and --every cannot be used together") }
        if removesTarget, by != nil || every != nil || (account.map { !Self.isNone($0) } ?? false) {
            throw ValidationError("--target none cannot be combined with --by, --every or --account")
        }
        if let target, !Self.isNone(target) { _ = try Self.amount(target) }
        if let by { _ = try ArgumentValue.month(by) }
        if let every { _ = try Self.period(every) }
        if let account, account.isEmpty { throw ValidationError("--account needs an account name, or 'none'") }
    }

    /// The change the flags ask for; the account is resolved by name in the use case.
    func change() throws -> (change: TargetChange, account: String?) {
        var change = TargetChange(removes: removesTarget)
        if let target, !Self.isNone(target) { change.amount = try Self.amount(target) }
        if let by { change.by = try ArgumentValue.month(by) }
        if let every { change.every = try Self.period(every) }
        var accountName: String?
        if let account {
            if Self.isNone(account) { change.removesAccount = true } else { accountName = account }
        }
        return (change, accountName)
    }

    private static func isNone(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespaces).lowercased() == "none"
    }

    private static func amount(_ text: String) throws(ValidationError) -> Money {
        let amount = try ArgumentValue.money(text)
        try ArgumentValue.check(BudgetTarget(amount: amount)) { (target: BudgetTarget) throws(TallyError) in try target.checkAmount() }
        return amount
    }

    /// `month` or `year` (`monthly` and `yearly` too).
    static func period(_ text: String) throws(ValidationError) -> BudgetPeriod {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "month", "monthly": .monthly
        case "year", "yearly": .yearly
        default: throw ValidationError("invalid --every \(quoted(text)): use month or year, the budget's own period")
        }
    }
}
