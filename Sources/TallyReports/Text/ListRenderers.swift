import TallyCore

/// Human renderings of the list commands (`budget list`, `budget show`, `expense list`) and the
/// confirmations of single changes, named `<what>As<Format>` like hledger's.
public enum ListRenderers {
    /// `budget list`: each budget's figures in the view of the month, its period kind last
    /// (`monthly`, `yearly, to date`, or `once` with its range).
    /// In the current period (`paces` by budget id not empty) the pace follows: projected
    /// spending (`too early` before a tenth of the period) and what can be spent per day.
    /// When a budget has a target, its goal follows: the target, what is funded, what this
    /// period needs and how it stands (``GoalText``), with its account's balance when one is named.
    public static func budgetsAsTable(
        _ statuses: [BudgetStatus], paces: [Int64: BudgetPace] = [:], goalAccounts: [Int64: GoalAccount] = [:], money: MoneyFormat = .plain
    ) -> String {
        let goals = statuses.map(\.goal)
        let showGoals = goals.contains { $0 != nil }
        var columns: [Table.Column] = [
            .left("Budget"), .right("Limit"), .right("Carried"), .right("Available"), .right("Spent"), .right("Remaining"),
            .right("Expenses"), .left("Status"), .left("Period"),
        ]
        if !paces.isEmpty { columns += [.right("Projected"), .right("Per day")] }
        if showGoals { columns += [.left("Target"), .right("Funded"), .right("Needed"), .left("Goal")] }
        if !goalAccounts.isEmpty { columns.append(.left("Account")) }
        var table = Table(columns)
        for (status, goal) in zip(statuses, goals) {
            let ledgerMoney = money
            let money = money.figures(of: status.budget)
            var row = [
                status.budget.name, money.string(status.limit), money.string(status.carried), money.string(status.available),
                spentText(status, money: money, ledger: ledgerMoney), money.string(status.remaining), String(status.expenseCount),
                statusMark(status), periodMark(status),
            ]
            if !paces.isEmpty {
                let pace = paces[status.budget.id ?? 0]
                row += [pace.map { projectedText($0, money: money) } ?? "", pace.map { money.string($0.perDay) } ?? ""]
            }
            if showGoals {
                row += goal.map { goal in
                    [BudgetPhrases.target(goal.target, period: status.budget.period, money: money), money.string(goal.funded),
                     money.string(goal.needed), GoalText.progress(goal, money: money)]
                } ?? ["", "", "", ""]
            }
            if !goalAccounts.isEmpty {
                row.append(status.budget.target?.accountID.flatMap { goalAccounts[$0] }.map { GoalText.account($0, money: money) } ?? "")
            }
            table.append(row)
        }
        return table.rendered()
    }

    /// What a budget spent, and for one in its own currency what that was in the ledger's:
    /// `12,400 JPY (76.50)`.
    public static func spentText(_ status: BudgetStatus, money: MoneyFormat, ledger: MoneyFormat) -> String {
        money.string(status.spent) + (status.ledgerSpent.map { " (\(ledger.string($0)))" } ?? "")
    }

    /// `1,026.00`, or `too early` before a tenth of the period has passed.
    public static func projectedText(_ pace: BudgetPace, money: MoneyFormat = .plain) -> String {
        pace.projected.map(money.string) ?? "too early"
    }

    /// `budget show`: the figures, then what they cover, how the budget rolls over, and its limits
    /// when it has had more than one.
    /// A budget with a target shows its goal figures last, with its account's balance.
    public static func budgetAsText(
        _ status: BudgetStatus, pace: BudgetPace? = nil, goalAccount: GoalAccount? = nil, money: MoneyFormat = .plain
    ) -> String {
        let budget = status.budget
        let ledgerMoney = money
        let money = money.figures(of: budget)
        let figures: [(String, Money)] = [
            ("Limit", status.limit), ("Carried", status.carried), ("Available", status.available), ("Spent", status.spent),
            ("Remaining", status.remaining),
        ]
        let kind = budget.period == .yearly ? "yearly (figures are the year to date)" : budget.period.rawValue
        var details: [(String, String)] = [("Period", kind), ("Covers", PeriodText.range(status.days))]
        if let currency = budget.currency, let ledgerSpent = status.ledgerSpent {
            details.append(("Currency", "\(currency.code); spent \(ledgerMoney.string(ledgerSpent)) in the ledger's currency"))
        }
        if budget.rollover != .none { details.append(("Rollover", rolloverText(budget.rollover))) }
        if let cap = budget.cap { details.append(("Cap", money.string(cap))) }
        if let pace {
            details.append(("Elapsed", "\(pace.elapsed.wholePercent) % of \(PeriodText.range(pace.days))"))
            details.append(("Projected", projectedText(pace, money: money)))
            details.append(("Per day", money.string(pace.perDay) + (pace.billsDue == .zero ? "" : " after \(money.string(pace.billsDue)) of bills due")))
        }
        if !budget.limitChanges.isEmpty {
            let changes = budget.limitChanges.map { "\(money.string($0.limit)) from \($0.from.isoString)" }
            details.append(("Limits", ([money.string(budget.limit)] + changes).joined(separator: ", then ")))
        }
        if let goal = status.goal {
            details.append(("Target", BudgetPhrases.target(goal.target, period: budget.period, money: money)))
            details.append(("Funded", money.string(goal.funded)))
            let left = goal.periodsLeft.map { " (\($0) period\($0 == 1 ? "" : "s") left)" } ?? ""
            details.append(("Needed", money.string(goal.needed) + " this period" + left))
            details.append(("Goal", GoalText.progress(goal, money: money)))
            if let goalAccount { details.append(("Account", GoalText.account(goalAccount, money: money))) }
        }
        let keyWidth = (figures.map(\.0) + details.map(\.0)).map(DisplayWidth.of).max() ?? 0
        let amountWidth = figures.map { DisplayWidth.of(money.string($0.1)) }.max() ?? 0
        let key = { (text: String) in DisplayWidth.padded(text, to: keyWidth) }
        let figureLines = figures.map { "\(key($0.0))  \(DisplayWidth.padded(money.string($0.1), to: amountWidth, leading: true))" }
        let detailLines = details.map { "\(key($0.0))  \($0.1)" }
        let title = "\(budget.name), \(status.month.isoString)\(status.isOverBudget ? "  OVER BUDGET" : "")"
        return title + "\n\n" + figureLines.joined(separator: "\n") + "\n\n" + detailLines.joined(separator: "\n")
    }

    /// A split expense shows once with its lines indented below it; narrowed to one budget
    /// (`linesOf`), a split shows only its lines in that budget, each with its expense's id. A
    /// refund's total shows below zero, with the expense it returns.
    public static func expensesAsTable(
        _ expenses: [Expense], budgetNames: [Int64: String], accountNames: [Int64: String] = [:], showBudget: Bool = true,
        money: MoneyFormat = .plain, linesOf budgetID: Int64? = nil
    ) throws(TallyError) -> String {
        var columns: [Table.Column] = [.right("ID"), .left("Date"), .left("Name")]
        if showBudget { columns.append(.left("Budget")) }
        columns += [.right("Amount"), .right("Qty"), .right("Total"), .left("Tags")]
        // Who spent it is worth a column only when the page holds more than one person.
        let showBy = Set(expenses.map(\.by)).count > 1
        if showBy { columns.append(.left("By")) }
        // And the account only when an expense names one.
        let showAccount = expenses.contains { $0.accountID != nil }
        if showAccount { columns.append(.left("Account")) }
        // And the amount as paid only when an expense was in another currency.
        let showOriginal = expenses.contains { $0.foreign != nil }
        if showOriginal { columns += [.right("Paid"), .right("Rate")] }
        var table = Table(columns)
        for expense in expenses {
            if !expense.lines.isEmpty, let budgetID {
                for portion in try expense.portions where portion.budgetID == budgetID {
                    var row = [String(expense.id ?? 0), expense.date.isoString, portion.name + " (split)"]
                    if showBudget { row.append(budgetNames[budgetID] ?? "") }
                    row += [money.string(portion.amount), "1", money.string(portion.amount), portion.tags.joined(separator: ", ")]
                    if showBy { row.append(expense.by) }
                    if showAccount { row.append(expense.accountID.flatMap { accountNames[$0] } ?? "") }
                    if showOriginal { row += ["", ""] }
                    table.append(row)
                }
                continue
            }
            let name = expense.isRefund ? expense.name + (expense.refundOf.map { " (refund of #\($0))" } ?? " (refund)") : expense.name
            var row = [String(expense.id ?? 0), expense.date.isoString, name]
            if showBudget { row.append(expense.lines.isEmpty ? budgetNames[expense.budgetID] ?? "" : "split") }
            row += [
                money.string(expense.amount), String(expense.quantity), try money.string(expense.spending()),
                expense.tags.joined(separator: ", "),
            ]
            if showBy { row.append(expense.by) }
            if showAccount { row.append(expense.accountID.flatMap { accountNames[$0] } ?? "") }
            if showOriginal {
                row += originalColumns(expense.foreign)
            }
            table.append(row)
            for portion in try expense.lines.isEmpty ? [] : expense.portions {
                var line = ["", "", "  ↳ " + portion.name]
                if showBudget { line.append(budgetNames[portion.budgetID] ?? "") }
                line += ["", "", money.string(portion.amount), portion.tags.joined(separator: ", ")]
                if showBy { line.append("") }
                if showAccount { line.append("") }
                if showOriginal { line += ["", ""] }
                table.append(line)
            }
        }
        return table.rendered()
    }

    /// The "Paid" and "Rate" columns of a list: the amount in its own currency and the rate, marked
    /// when given; empty for the ledger's currency.
    static func originalColumns(_ foreign: ForeignCharge?) -> [String] {
        [foreign?.original.description ?? "", foreign.map { $0.rate.plainString + ($0.source == .given ? " given" : "") } ?? ""]
    }

    /// One line describing a saved expense, as `expense add` and `expense edit` confirm it.
    public static func expenseLine(_ expense: Expense, budgetName: String, money: MoneyFormat = .plain) throws(TallyError) -> String {
        let quantity = expense.quantity == 1 ? "" : " × \(expense.quantity) = \(try money.string(expense.total()))"
        let tags = expense.tags.isEmpty ? "" : " [\(expense.tags.joined(separator: ", "))]"
        if expense.isRefund {
            let of = expense.refundOf.map { " of #\($0)" } ?? ""
            return "#\(expense.id ?? 0) \(expense.date.isoString) \(expense.name): refund\(of) of \(try money.string(expense.total())) into \(budgetName)\(tags)"
        }
        return "#\(expense.id ?? 0) \(expense.date.isoString) \(expense.name): "
            + "\(money.string(expense.amount))\(originalText(expense.foreign))\(quantity) in \(budgetName)\(tags)"
    }

    /// A split expense as `expense add` and `expense split` confirm it: its line, then each of its
    /// lines indented, with its budget and amount.
    public static func splitExpenseLines(_ expense: Expense, budgetNames: [Int64: String], money: MoneyFormat = .plain) throws(TallyError) -> String {
        var text = try expenseLine(expense, budgetName: expense.lines.isEmpty ? budgetNames[expense.budgetID] ?? "" : "\(expense.lines.count) budgets", money: money)
        for portion in try expense.lines.isEmpty ? [] : expense.portions {
            let tags = portion.tags.isEmpty ? "" : " [\(portion.tags.joined(separator: ", "))]"
            text += "\n  \(budgetNames[portion.budgetID] ?? ""): \(money.string(portion.amount)) \(portion.name)\(tags)"
        }
        return text
    }

    /// An income's or expense's amount as its confirmation shows it: the ledger's figure, then
    /// what it was in another currency (``originalText(_:)``).
    public static func entryAmount(_ amount: Money, foreign: ForeignCharge?, money: MoneyFormat = .plain) -> String {
        money.string(amount) + originalText(foreign)
    }

    /// ` (4500 JPY at 0.0062 per JPY, from the rate table)`, or nothing for the ledger's currency.
    static func originalText(_ foreign: ForeignCharge?) -> String {
        guard let foreign else { return "" }
        let code = foreign.original.currency.code
        let source = foreign.source == .given ? "as given" : "from the rate table"
        return " (\(foreign.original.description) at \(foreign.rate.plainString) per \(code), \(source))"
    }

    /// What `tally add` prints after the expense: `Food: 90.00 remaining of 130.00 for 2026-03;
    /// carried over: 30.00.`, of what was available, the carried part only when something was carried.
    public static func remainingLine(_ status: BudgetStatus, money: MoneyFormat = .plain) -> String {
        let money = money.figures(of: status.budget)
        let carried = status.carried == .zero ? "" : "; carried over: \(money.string(status.carried))"
        return "\(status.budget.name): \(money.string(status.remaining)) remaining of \(money.string(status.available)) "
            + "for \(PeriodText.viewed(status))\(carried)."
    }

    /// The line `tally add` prints once an expense moved its budget past its warning level or
    /// over: `Groceries: 83 % of 450.00 used — past the 80 % warning`.
    public static func crossingLine(_ status: BudgetStatus, crossed level: BudgetLevel, money: MoneyFormat = .plain) -> String {
        let money = money.figures(of: status.budget)
        let used = "\(status.budget.name): \(status.share.wholePercent) % of \(money.string(status.available)) used — "
        return used + (level == .over ? "over the limit" : "past the \(status.budget.warn) % warning")
    }

    /// The table's period column: `monthly`, `yearly, to date`, or `once, 1 Jul – 14 Jul 2026`.
    public static func periodMark(_ status: BudgetStatus) -> String {
        switch status.budget.period {
        case .monthly: "monthly"
        case .yearly: "yearly, to date"
        case .once: "once, \(PeriodText.range(status.days))"
        }
    }

    private static func rolloverText(_ policy: RolloverPolicy) -> String {
        switch policy {
        case .none: "none"
        case .surplus: "surplus (what is left carries over)"
        case .both: "both (what is left or overspent carries over)"
        }
    }

    /// The table's status column: the budget's ``BudgetLevel``, shouting only when over.
    public static func statusMark(_ status: BudgetStatus) -> String {
        status.level == .over ? "OVER" : status.level.rawValue
    }
}
