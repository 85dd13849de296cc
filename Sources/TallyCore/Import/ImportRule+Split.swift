import Foundation

// Rules that split or refund (issue 30).
//
// A split rule's lines are shared as `tally add --split` shares them, by ``ExpenseLines``, but a
// rule meets amounts it cannot know: its lines must fit any total, so they need a `rest` line or
// percentages adding up to 100 %. Fixed amounts beside a `rest` are allowed; a matching row they
// do not fit fails the import on that row, as any row a split refuses does.
//
// A refund rule sends a matching credit of a bank import into its budget as a refund
// (``Expense/isRefund``) instead of an income (statements) or a skipped row (CSV). A refund
// cannot be split, so a rule is one or the other.
extension ImportRule {
    /// `lines` with budget names, line names and tags validated, or the first broken rule.
    static func validatedSplit(_ lines: [NamedLine], refund: Bool) throws(TallyError) -> [NamedLine] {
        guard !refund else { throw .split(.refundSplit) }
        guard lines.count >= 2 else { throw .split(.tooFewLines) }
        guard lines.count <= ExpenseLines.maximumLines else { throw .split(.tooManyLines(lines.count)) }
        var result = lines
        var rests = 0
        var hundredths: Int64 = 0
        var fixed = false
        for index in lines.indices {
            result[index].budget = try Budget.validatedName(lines[index].budget)
            if !lines[index].name.isEmpty {
                result[index].name = try NameKey.validated(lines[index].name, kind: .expense, maximumLength: Expense.maximumNameLength)
            }
            result[index].tags = try Expense.normalizedTags(lines[index].tags)
            switch lines[index].share {
            case .rest:
                rests += 1
                guard rests == 1 else { throw .split(.twoRests) }
            case .percent(let share):
                guard share > 0 else { throw .split(.invalidShare(lines[index].share.text)) }
                hundredths += share
                guard hundredths <= 10_000 else { throw .split(.sharesOverWhole(hundredths)) }
            case .amount(let amount):
                try Expense.checkAmount(amount)
                fixed = true
            }
        }
        guard rests == 1 || (!fixed && hundredths == 10_000) else { throw .split(.ruleNotWhole) }
        return result
    }

    /// The rule's split and refund as one text, for stores beside the rule's other columns, in
    /// ``ExpenseDetail``'s form: empty for neither; `R` for a refund rule; else each line's budget
    /// id, share, name and tags (its amount 0: a rule's lines have none until a row is shared).
    public var storedDetail: String {
        if refund { return "R" }
        return ExpenseDetail.pack(zip(split, splitBudgetIDs).map { line, id in
            ExpenseLine(budgetID: id, share: line.share, name: line.name, tags: line.tags)
        })
    }

    /// Sets the split and refund from ``storedDetail``'s text; the lines' budget names stay empty
    /// until ``LedgerRows/importRules()`` names them.
    public mutating func restoreDetail(_ text: String) throws(TallyError) {
        refund = text == "R"
        split = []
        splitBudgetIDs = []
        guard !text.isEmpty, !refund else { return }
        let lines = try ExpenseDetail.unpackLines(text)
        split = lines.map { NamedLine(budget: "", share: $0.share, name: $0.name, tags: $0.tags) }
        splitBudgetIDs = lines.map(\.budgetID)
    }

    /// Whether the rule sends rows to budget `id`, by its one budget or a line.
    public func uses(budgetID id: Int64, ownBudgetID: Int64) -> Bool {
        transferAccountID == nil && (ownBudgetID == id || splitBudgetIDs.contains(id))
    }
}

extension RuleDecision {
    /// `expense` (a debit, its budget still a name) as the rule makes it: its lines when the rule
    /// splits, and the budget name an import resolves (``ImportResolution/lineSeparator`` between
    /// the lines' names). The lines get their amounts when the expense is validated.
    public func apply(to expense: inout Expense) -> String {
        guard !split.isEmpty else { return budget }
        expense.lines = split.map { ExpenseLine(budgetID: 0, share: $0.share, name: $0.name, tags: $0.tags) }
        return split.map(\.budget).joined(separator: String(ImportResolution.lineSeparator))
    }
}
