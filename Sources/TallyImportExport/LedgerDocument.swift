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
///
/// Version 3 added `settings.currency`. Version 4 added `recurring`, the recurring rules
/// (``RecurringRuleDTO``); `warn`, the warning level, to the settings and to each budget (absent
/// for the default 80); `rules`, the ledger's import rules (`pattern`, `budget`, `tags`, `rename`
/// when set, `priority`); and `profiles`, its saved import profiles (each setting left out when
/// unset). A document is written as the oldest version whose reader loses nothing of it: 4 with
/// any of those, else 3 with a currency.
///
/// Version 5 added `by` to each expense, who spent it (`""` for no one), written when any
/// exported expense records someone. An expense of a version-5 document without `by` was spent
/// by whoever imports it (`--by`, `$TALLY_USER`, the login name); those of older documents were
/// recorded before Tally kept it, and keep no one.
///
/// Version 7 added `accounts` (``AccountDTO``) and the rows that name them by name, as expenses
/// name their budget: `incomes`, `transfers` and `assertions` (balance assertions), each key
/// written only when the ledger has accounts, with an expense's `account` and the settings'
/// `defaultAccount`. Version 6 was never written; a document claiming it reads as version 5
/// does.
///
/// Version 8 added budget goals: `target`, `targetBy` and `targetAccount` (the name of one of
/// the document's `accounts`) on a budget, written only for a budget with a target.
/// Version 10 added a budget's own `currency` (``BudgetDTO/currency``), written only for a
/// budget that has one; an older document's budgets are in the ledger's currency.
/// Version 9 added spending abroad: an expense in another currency carries `original`
/// (`amount` in its currency's own decimals, `currency`), `rate` and `rateSource` (`table` or
/// `given`), as `expense list --json` names them, and the document carries the ledger's `rates`
/// (`date`, `from`, `to`, `rate`). Written when an exported expense is in another currency or the
/// ledger keeps rates.
///
/// Version 10 added split expenses and refunds: a split expense carries `lines` (each `budget`,
/// `amount`, `share` as typed: `80`, `60%` or `rest`, and `name` and `tags` when the line has
/// its own), its `budget` being its first line's; a refund carries `refund: true` and, when it
/// names the expense it returns, `refundOf`, that expense's id in the document. Written when an
/// exported expense is split or a refund.
///
/// Version 12 added import rules that split or refund: a rule carries `split` (each line's
/// `budget`, `share` as typed, and `name` and `tags` when the line has its own), its `budget`
/// being its first line's, or `refund: true`. Written when a rule splits or refunds.
///
/// Version 13 added incomes in other currencies: such an income carries `original`, `rate` and
/// `rateSource` as an expense in another currency does. Written when an exported income is in
/// another currency.
public struct LedgerDocument: Codable, Hashable, Sendable {
    /// The newest version this Tally writes and reads.
    public static let currentVersion = 13
    /// Every version this Tally reads.
    public static let readableVersions = 1...currentVersion

    public var version: Int
    /// `nil` in documents written before version 2: the ledger keeps its own settings.
    public var settings: SettingsDTO?
    public var budgets: [BudgetDTO]
    /// `nil` in documents written before version 4, and in those without rules.
    public var recurring: [RecurringRuleDTO]?
    /// `nil` in documents written before version 4, and in later ones without rules.
    public var rules: [RuleDTO]?
    /// `nil` in documents written before version 4, and in later ones without profiles.
    public var profiles: [ProfileDTO]?
    /// `nil` in documents written before version 7, and in later ones without accounts.
    public var accounts: [AccountDTO]?
    /// `nil` in documents written before version 7, and in later ones without incomes.
    public var incomes: [IncomeDTO]?
    /// `nil` in documents written before version 7, and in later ones without transfers.
    public var transfers: [TransferDTO]?
    /// Balance assertions: `nil` in documents written before version 7, and in later ones without any.
    public var assertions: [AssertionDTO]?
    /// The rate table (version 9): `nil` before, and in later documents of ledgers without rates.
    public var rates: [RateDTO]?
    public var expenses: [ExpenseDTO]

    public init(
        version: Int = LedgerDocument.currentVersion, settings: SettingsDTO? = nil, budgets: [BudgetDTO], rules: [RuleDTO]? = nil,
        expenses: [ExpenseDTO]
    ) {
        self.version = version
        self.settings = settings
        self.rules = rules
        self.budgets = budgets
        self.expenses = expenses
    }

    /// The version a document of `budgets` and `settings` is written as: the oldest whose reader
    /// reads all of it (1, 2, 3 with a currency, 4 with recurring rules, warning levels other than
    /// 80 %, import rules or profiles, 5 when an expense records who spent it, 7 with accounts,
    /// 8 with a budget target, 9 abroad, 10 with splits, 11 with a budget's currency, 12 with a
    /// rule that splits or refunds, 13 with an income in another currency).
    public static func version(
        budgets: [Budget], settings: LedgerSettings, hasRecurringRules: Bool = false, rules: [ImportRule] = [], profiles: [ImportProfile] = [],
        recordsPeople: Bool = false, hasAccounts: Bool = false, abroad: Bool = false, splits: Bool = false, foreignIncomes: Bool = false
    ) -> Int {
        if foreignIncomes { return 13 }
        if rules.contains(where: { !$0.split.isEmpty || $0.refund }) { return 12 }
        if budgets.contains(where: { $0.currency != nil }) { return 11 }
        if splits { return 10 }
        if abroad { return 9 }
        if budgets.contains(where: { $0.target != nil }) { return 8 }
        if hasAccounts { return 7 }
        if recordsPeople { return 5 }
        // Older readers would drop what they do not know.
        let warns = settings.warn != BudgetLevel.defaultWarnPercent || budgets.contains { $0.warn != BudgetLevel.defaultWarnPercent }
        if hasRecurringRules || warns || !rules.isEmpty || !profiles.isEmpty { return 4 }
        if settings.currency != nil { return 3 }
        let plain =
            settings.calendar == .calendarMonths
            && budgets.allSatisfy {
                $0.period == .monthly && $0.rollover == .none && $0.cap == nil && $0.start == nil && $0.range == nil
                    && $0.limitChanges.isEmpty
            }
        return plain ? 1 : 2
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
                reason: "unsupported document version \(version); this Tally reads versions 1 to \(currentVersion)")
        }
        do {
            return try decoder.decode(LedgerDocument.self, from: data)
        } catch {
            throw .importFile(line: nil, reason: "not a Tally JSON document: \(describe(error))")
        }
    }

    /// Who spent an expense that names no one: `importer` from version 5 on; no one before.
    public func defaultBy(_ importer: String) -> String {
        version >= 5 ? importer : ""
    }

    /// The rates, validated: `rates[i]` names the entry of a bad one.
    public func validatedRates() throws(TallyError) -> [DayRate] {
        var result: [DayRate] = []
        for (index, dto) in (rates ?? []).enumerated() { result.append(try dto.dayRate(index: index)) }
        return result
    }

    /// Budgets validated by the models' rules.
    public func validatedBudgets() throws(TallyError) -> [Budget] {
        var result: [Budget] = []
        let accounts = try validatedAccounts()
        for (index, dto) in budgets.enumerated() { result.append(try dto.budget(index: index, accounts: accounts)) }
        return result
    }

    /// The recurring rules the document declares, validated.
    public func validatedRecurringRules() throws(TallyError) -> [DeclaredRecurringRule] {
        var result: [DeclaredRecurringRule] = []
        for (index, dto) in (recurring ?? []).enumerated() { result.append(try dto.declared(index: index)) }
        return result
    }

    /// Import rules validated by the model's rules, without ids (a restore gives them new ones).
    public func validatedRules() throws(TallyError) -> [ImportRule] {
        var result: [ImportRule] = []
        for (index, dto) in (rules ?? []).enumerated() { result.append(try dto.rule(index: index)) }
        return result
    }

    /// Import profiles, validated.
    public func validatedProfiles() throws(TallyError) -> [ImportProfile] {
        var result: [ImportProfile] = []
        for (index, dto) in (profiles ?? []).enumerated() { result.append(try dto.profile(index: index)) }
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
