import ArgumentParser
import Foundation
import TallyCore

/// `--split BUDGET=SHARE[,name=NAME][,tag=TAG]…`: one line of a split, its share an amount
/// (`80`), a percentage (`60%`) or `rest`. The budget is everything before the first `=`, so a
/// budget whose name holds `=` cannot be named here.
enum SplitLines {
    static let help = ArgumentHelp(
        "A line of the split: BUDGET=AMOUNT, BUDGET=PERCENT% or BUDGET=rest, optionally followed by ,name=NAME and ,tag=TAG; repeat for each line.",
        valueName: "budget=share")

    /// With `currency` (an amount typed in another currency), fixed amounts are in that
    /// currency's minor units, which the use case converts (``NamedLine/converted(_:of:quantity:into:)``).
    static func parse(_ values: [String], in currency: Currency? = nil) throws(ValidationError) -> [NamedLine] {
        var lines: [NamedLine] = []
        for value in values { lines.append(try line(value, in: currency)) }
        return lines
    }

    static func line(_ value: String, in currency: Currency? = nil) throws(ValidationError) -> NamedLine {
        guard let equals = value.firstIndex(of: "=") else {
            throw ValidationError("invalid split line '\(value)': use BUDGET=SHARE, like groceries=80, groceries=60% or household=rest")
        }
        let budget = String(value[..<equals]).trimmingCharacters(in: .whitespaces)
        var parts = value[value.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let shareText = parts.removeFirst().trimmingCharacters(in: .whitespaces)
        // Amounts as every other amount is read (the locale's decimal sign too); percentages and rest by Core.
        let share: LineShare
        if shareText.hasSuffix("%") || shareText.lowercased() == "rest" {
            do { share = try LineShare(parsing: shareText) } catch { throw ValidationError(error.message) }
        } else if let currency {
            share = .amount(Money(cents: try ArgumentValue.foreignAmount(shareText, currency).minorUnits))
        } else {
            share = .amount(try ArgumentValue.amount(shareText))
        }
        var name = ""
        var tags: [String] = []
        for part in parts {
            if part.hasPrefix("name=") {
                name = String(part.dropFirst(5))
            } else if part.hasPrefix("tag=") {
                tags.append(String(part.dropFirst(4)))
            } else {
                throw ValidationError("invalid split line '\(value)': after the share, use ,name=NAME or ,tag=TAG")
            }
        }
        guard !budget.isEmpty else { throw ValidationError("invalid split line '\(value)': name the budget before '='") }
        return NamedLine(budget: budget, share: share, name: name, tags: try ArgumentValue.tags(tags))
    }
}
