import ArgumentParser
import TallyCore

/// Options every command shares, accepted before the subcommand as well as after it:
/// `tally --db X budget list` is `tally budget list --db X`.
///
/// ArgumentParser reads options only where their command is named, so the leading ones are
/// moved to the end of the command line (before a `--` that ends the options), where every
/// subcommand reads them: `--db`, `--locale` and `--color` (``CommonOptions``).
enum GlobalOptions {
    static let names = ["--db", "--locale", "--color"]

    /// The value given to global option `name` before `--`, if any (all its values agree:
    /// ``normalized(_:)`` refuses a conflict).
    static func value(of name: String, in arguments: [String]) -> String? {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        var index = arguments.startIndex
        while index < end {
            if arguments[index] == name, index + 1 < end { return arguments[index + 1] }
            if arguments[index].hasPrefix(name + "=") { return String(arguments[index].dropFirst(name.count + 1)) }
            index += 1
        }
        return nil
    }

    /// The arguments with the leading global options moved after the subcommand. The same option
    /// given more than once with different values, anywhere, is a usage error.
    static func normalized(_ arguments: [String]) throws(ValidationError) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        try checkNoConflicts(arguments[..<end])
        var leading: [(name: String, tokens: [String])] = []
        var index = arguments.startIndex
        while index < end, let name = names.first(where: { arguments[index] == $0 || arguments[index].hasPrefix($0 + "=") }) {
            if arguments[index] == name {
                // A missing value is left for ArgumentParser to report where it reads the option.
                guard index + 1 < end else { break }
                leading.append((name, [name, arguments[index + 1]]))
                index += 2
            } else {
                leading.append((name, [arguments[index]]))
                index += 1
            }
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        let restEnd = rest.firstIndex(of: "--") ?? rest.endIndex
        let given = rest[..<restEnd]
        // Given after the subcommand too, with the same value (checked above): once is enough.
        let moved = leading.filter { option in !given.contains { $0 == option.name || $0.hasPrefix(option.name + "=") } }
        rest.insert(contentsOf: moved.flatMap(\.tokens), at: restEnd)
        return rest
    }

    /// Every value given to each global option before `--`.
    private static func checkNoConflicts(_ arguments: ArraySlice<String>) throws(ValidationError) {
        for name in names {
            var values: [String] = []
            var index = arguments.startIndex
            while index < arguments.endIndex {
                let token = arguments[index]
                if token == name, index + 1 < arguments.endIndex {
                    values.append(arguments[index + 1])
                    index += 2
                    continue
                }
                if token.hasPrefix(name + "=") { values.append(String(token.dropFirst(name.count + 1))) }
                index += 1
            }
            if let first = values.first, let other = values.first(where: { $0 != first }) {
                throw ValidationError("\(name) is given twice with different values: \(quoted(first)) and \(quoted(other))")
            }
        }
    }
}
