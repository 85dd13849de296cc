import Foundation
import TallyCore

/// What the list commands' `--json` prints: Codable mirrors of the models with amounts as
/// two-decimal strings, so no reader ever sees a binary floating-point amount. Field names are
/// the one vocabulary of every `--json` output, the month report's included (README, "JSON").
public enum ListJSON {
    /// A budget's figures in the view of `month`: `limit` is that period's limit, `available` is
    /// `limit + carried` at most `cap`, and `remaining`, `share`, `status`, `over` are against
    /// `available`. `from` and `to` are the days the figures cover: the period, a yearly budget's
    /// year to date, a once budget's range. `cap` is `null` when the budget has none.
    public struct BudgetFigures: Codable, Equatable, Sendable {
        public let name: String
        public let period: String
        public let limit: String
        public let carried: String
        public let available: String
        public let spent: String
        public let remaining: String
        public let share: String
        public let status: String
        public let over: Bool
        public let expenseCount: Int
        public let month: String
        public let from: String
        public let to: String
        public let rollover: String
        public let cap: String?
        /// The pace (``BudgetPace``), `null` outside the current period; `projected` is `null`
        /// too before a tenth of the period has passed.
        public let elapsed: String?
        public let projected: String?
        public let perDay: String?
        /// The goal (``GoalJSON``), present only for a budget with a target.
        public let goal: GoalJSON?
        /// A budget in its own currency only: its code (the figures above are in it) and what it
        /// spent in the ledger's currency; both left out for the others.
        public let currency: String?
        public let ledgerSpent: String?

        public init(_ status: BudgetStatus, pace: BudgetPace? = nil, goalAccount: GoalAccount? = nil) {
            name = status.budget.name
            period = status.budget.period.rawValue
            limit = status.limit.plainString
            carried = status.carried.plainString
            available = status.available.plainString
            spent = status.spent.plainString
            remaining = status.remaining.plainString
            share = status.share.ratioString
            self.status = status.level.rawValue
            over = status.level == .over
            expenseCount = status.expenseCount
            month = status.month.isoString
            from = status.days.first.isoString
            to = status.days.last.isoString
            rollover = status.budget.rollover.rawValue
            cap = status.budget.cap?.plainString
            elapsed = pace?.elapsed.ratioString
            projected = pace?.projected?.plainString
            perDay = pace?.perDay.plainString
            goal = GoalJSON(status, account: goalAccount)
            currency = status.budget.currency?.code
            ledgerSpent = status.ledgerSpent?.plainString
        }

        private enum CodingKeys: String, CodingKey {
            case name, period, limit, carried, available, spent, remaining, share, status, over, expenseCount, month, from, to
            case rollover, cap, elapsed, projected, perDay, goal, currency, ledgerSpent
        }

        /// Every key always, `cap` as `null` when there is none; `goal` only with a target.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(period, forKey: .period)
            try container.encodeIfPresent(currency, forKey: .currency)
            try container.encode(limit, forKey: .limit)
            try container.encode(carried, forKey: .carried)
            try container.encode(available, forKey: .available)
            try container.encode(spent, forKey: .spent)
            try container.encodeIfPresent(ledgerSpent, forKey: .ledgerSpent)
            try container.encode(remaining, forKey: .remaining)
            try container.encode(share, forKey: .share)
            try container.encode(status, forKey: .status)
            try container.encode(over, forKey: .over)
            try container.encode(expenseCount, forKey: .expenseCount)
            try container.encode(month, forKey: .month)
            try container.encode(from, forKey: .from)
            try container.encode(to, forKey: .to)
            try container.encode(rollover, forKey: .rollover)
            try container.encode(cap, forKey: .cap)
            try container.encode(elapsed, forKey: .elapsed)
            try container.encode(projected, forKey: .projected)
            try container.encode(perDay, forKey: .perDay)
            try container.encodeIfPresent(goal, forKey: .goal)
        }
    }

    /// One limit of a budget's history: the limit from period `from` (`YYYY-MM`, its key) on.
    public struct LimitEntry: Codable, Equatable, Sendable {
        public let from: String
        public let limit: String

        public init(from: Month, limit: Money) {
            self.from = from.isoString
            self.limit = limit.plainString
        }
    }

    /// A budget's figures with its limits and its expenses beside them, in one flat object.
    public struct BudgetDetail: Encodable, Sendable {
        let figures: BudgetFigures
        let limits: [LimitEntry]
        let expenses: [ExpenseItem]

        private enum CodingKeys: String, CodingKey {
            case limits, expenses
        }

        /// `firstPeriod` is the key of the budget's first period (``Budget/firstPeriod(in:earliestExpense:)``),
        /// which only the store knows: `limits` starts with the budget's first limit from it, then
        /// lists each of its ``Budget/limitChanges``.
        public init(
            _ status: BudgetStatus, firstPeriod: Month, expenses: [Expense], pace: BudgetPace? = nil, accountNames: [Int64: String] = [:],
            goalAccount: GoalAccount? = nil
        ) throws(TallyError) {
            let budget = status.budget
            figures = BudgetFigures(status, pace: pace, goalAccount: goalAccount)
            limits = [LimitEntry(from: firstPeriod, limit: budget.limit)]
                + budget.limitChanges.map { LimitEntry(from: $0.from, limit: $0.limit) }
            var items: [ExpenseItem] = []
            for expense in expenses {
                items.append(try ExpenseItem(expense, budgetName: status.budget.name, accountName: expense.accountID.flatMap { accountNames[$0] }))
            }
            self.expenses = items
        }

        public func encode(to encoder: any Encoder) throws {
            try figures.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(limits, forKey: .limits)
            try container.encode(expenses, forKey: .expenses)
        }
    }

    public struct ExpenseItem: Codable, Equatable, Sendable {
        public let id: Int64
        public let name: String
        public let amount: String
        public let quantity: Int64
        public let total: String
        public let date: String
        public let budget: String
        public let tags: [String]
        /// Who spent it; `null` when the expense records no one.
        public let by: String?
        /// The account it was paid from; `null` when it names none.
        public let account: String?
        /// An expense in another currency: the amount as paid, in its currency's own decimals,
        /// and that currency's ISO 4217 code. These two keys, `rate` and `rateSource` appear only
        /// on such expenses; `amount` is always the ledger's currency.
        public let originalAmount: String?
        public let currency: String?
        /// Ledger units per one unit of the original currency, exact.
        public let rate: String?
        /// `table` (the rate table's, recomputed by `rates reapply`) or `given` (`--rate`).
        public let rateSource: String?
        /// A split expense's lines, each in its budget; absent for an expense that is not split.
        public let lines: [Line]?
        /// `true` on a refund (absent otherwise); its `total` is what came back.
        public let refund: Bool?
        /// The id of the expense a refund returns, when it names one.
        public let refundOf: Int64?

        public struct Line: Codable, Equatable, Sendable {
            public let budget: String
            public let amount: String
            public let name: String
            public let tags: [String]
        }

        private enum CodingKeys: String, CodingKey {
            case id, name, amount, quantity, total, date, budget, tags, by, account, originalAmount, currency, rate, rateSource, lines, refund, refundOf
        }

        public init(_ expense: Expense, budgetName: String, accountName: String? = nil, budgetNames: [Int64: String] = [:]) throws(TallyError) {
            id = expense.id ?? 0
            name = expense.name
            amount = expense.amount.plainString
            quantity = expense.quantity
            total = try expense.total().plainString
            date = expense.date.isoString
            budget = budgetName
            tags = expense.tags
            by = expense.by.isEmpty ? nil : expense.by
            account = accountName
            originalAmount = expense.foreign?.original.plainString
            currency = expense.foreign?.original.currency.code
            rate = expense.foreign?.rate.plainString
            rateSource = expense.foreign?.source.rawValue
            lines = expense.lines.isEmpty ? nil : try expense.portions.map {
                Line(budget: budgetNames[$0.budgetID] ?? "", amount: $0.amount.plainString, name: $0.name, tags: $0.tags)
            }
            refund = expense.isRefund ? true : nil
            refundOf = expense.refundOf
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(amount, forKey: .amount)
            try container.encode(quantity, forKey: .quantity)
            try container.encode(total, forKey: .total)
            try container.encode(date, forKey: .date)
            try container.encode(budget, forKey: .budget)
            try container.encode(tags, forKey: .tags)
            try container.encode(by, forKey: .by)
            try container.encode(account, forKey: .account)
            try container.encodeIfPresent(originalAmount, forKey: .originalAmount)
            try container.encodeIfPresent(currency, forKey: .currency)
            try container.encodeIfPresent(rate, forKey: .rate)
            try container.encodeIfPresent(rateSource, forKey: .rateSource)
            try container.encodeIfPresent(lines, forKey: .lines)
            try container.encodeIfPresent(refund, forKey: .refund)
            try container.encodeIfPresent(refundOf, forKey: .refundOf)
        }
    }

    /// `settings show --json`: `currency` is `null` when the ledger has none.
    public struct SettingsItem: Encodable, Sendable {
        public var monthStart: Int
        public var warn: Int
        public var currency: Nullable<String>
        public var historyDays: Int
        /// The account expenses are paid from when they name none; `null` for none.
        public var defaultAccount: Nullable<String>
        /// How many snapshots a ledger file keeps; `null` for a ledger that keeps none.
        public var snapshots: Nullable<Int>

        public init(_ settings: LedgerSettings, defaultAccount: String? = nil, snapshots: Int? = nil) {
            monthStart = settings.calendar.monthStart
            warn = settings.warn
            currency = Nullable(settings.currency?.code)
            historyDays = settings.historyDays
            self.defaultAccount = Nullable(defaultAccount)
            self.snapshots = Nullable(snapshots)
        }
    }

    /// An optional written as `null` rather than left out, for keys a script can count on.
    public struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
        public var value: Value?

        public init(_ value: Value?) {
            self.value = value
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let value { try container.encode(value) } else { try container.encodeNil() }
        }
    }

    /// One pretty-printed document with sorted keys, so output is stable and diffable: every
    /// `--json` output and the JSON report.
    public static func encode(_ value: some Encodable) throws(ReportError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .encodingFailed("cannot encode JSON: \(error.localizedDescription)")
        }
    }
}
