import TallyCore

// Split expenses in a document (version 10): a split's lines, each naming its budget; and a
// split rule's lines (version 12), which have shares but no amounts.

/// One line of a split expense in a document (version 10).
public struct LineDTO: Codable, Hashable, Sendable {
    public var budget: String
    public var amount: String
    /// As typed: `80`, `60%` or `rest`; what a new total is divided by.
    public var share: String
    public var name: String?
    public var tags: [String]?
}

extension ExpenseDTO {
    /// The entry's lines with placeholder budgets, and its budget names as an import resolves
    /// them (``ImportResolution/resolveBudgets(of:named:create:)``).
    func splitLines(_ invalid: (String, String, String) -> TallyError) throws(TallyError) -> (lines: [ExpenseLine], budgetName: String)? {
        guard let lines, !lines.isEmpty else { return nil }
        var result: [ExpenseLine] = []
        var names: [String] = []
        for (index, entry) in lines.enumerated() {
            let share: LineShare
            do { share = try LineShare(parsing: entry.share) } catch { throw invalid("lines[\(index)].share", entry.share, error.errorDescription ?? "") }
            do { names.append(try CSVRowMapper.validatedBudgetName(entry.budget, option: false, line: index + 1)) } catch {
                throw invalid("lines[\(index)].budget", entry.budget, "not a valid budget name")
            }
            result.append(ExpenseLine(budgetID: 0, share: share, name: entry.name ?? "", tags: entry.tags ?? []))
        }
        return (result, names.joined(separator: String(ImportResolution.lineSeparator)))
    }
}

/// One line of a split import rule in a document (version 12): its budget, its share as typed
/// (`80`, `60%` or `rest`), and a name and tags when the line has its own.
public struct RuleLineDTO: Codable, Hashable, Sendable {
    public var budget: String
    public var share: String
    public var name: String?
    public var tags: [String]?

    init(_ line: NamedLine) {
        budget = line.budget
        share = line.share.text
        name = line.name.isEmpty ? nil : line.name
        tags = line.tags.isEmpty ? nil : line.tags
    }

    func line() throws(TallyError) -> NamedLine {
        NamedLine(budget: budget, share: try LineShare(parsing: share), name: name ?? "", tags: tags ?? [])
    }
}
