import ArgumentParser
import TallyCore

/// Options every command shares, accepted before the subcommand as well as after it:
/// `tally --db X budget list` is `tally budget list --db X`.
///
/// ArgumentParser reads options only where their command is named, so the leading ones are
/// moved to the end of the command line (before a `--` that ends the options), where every
/// subcommand reads them. Today `--db` is the only option every command has.
enum GlobalOptions {
    static let names = ["--db"]

    /// The arguments with the leading global options moved after the subcommand. The same option
    /// given more than once with different values, anywhere, is a usage error.
    static func normalized(_ arguments: [String]) throws(ValidationError) -> [String] {
        let end = arguments.firstIndex(of: "--") ?? arguments.endIndex
        try checkNoConflicts(arguments[..<end])
        var leading: [String] = []
        var index = arguments.startIndex
        while index < end, let name = names.first(where: { arguments[index] == $0 || arguments[index].hasPrefix($0 + "=") }) {
            if arguments[index] == name {
                // A missing value is left for ArgumentParser to report where it reads the option.
                guard index + 1 < end else { break }
                leading += [name, arguments[index + 1]]
                index += 2
            } else {
                leading.append(arguments[index])
                index += 1
            }
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        // Given after the subcommand too, with the same value (checked above): once is enough.
        let restEnd = rest.firstIndex(of: "--") ?? rest.endIndex
        if names.contains(where: { name in rest[..<restEnd].contains { $0 == name || $0.hasPrefix(name + "=") } }) { return rest }
        let insertion = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: insertion)
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
