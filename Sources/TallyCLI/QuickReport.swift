/// Reads the usual spellings of a month's `tally report` without ArgumentParser, as `QuickAdd`
/// reads `add`: on a month of a few thousand expenses, ArgumentParser's reflection costs more
/// than the report itself. It takes only `--month`, `--format` (but csv), `--output`, `--db`,
/// `--explain` or `--no-explain` and the global `--locale` and `--color`, each at most once, and returns `nil` for
/// anything else: help, another or a repeated option, a value that starts with `-` (but for a
/// month's: `--month -1`), an empty value or one that fails validation. ArgumentParser then
/// reads those, so its messages stay the only ones. A differential test holds the two readers
/// to the same result.
enum QuickReport {
    static func parse(_ arguments: [String]) -> MonthReportRequest? {
        guard arguments.first == "report" else { return nil }
        var request = MonthReportRequest()
        var seen: Set<String> = []
        var index = 1
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            guard token.hasPrefix("--"), !seen.contains(token.split(separator: "=", maxSplits: 1).first.map(String.init) ?? token) else { return nil }
            if token == "--explain" || token == "--no-explain" {
                // The two together: ArgumentParser's rule (the last wins) stays its own.
                guard !seen.contains("--explain"), !seen.contains("--no-explain") else { return nil }
                seen.insert(token)
                request.explain = token == "--explain"
                continue
            }
            let name: String
            let value: String
            if let equals = token.firstIndex(of: "=") {
                name = String(token[..<equals])
                value = String(token[token.index(after: equals)...])
            } else {
                guard index < arguments.count else { return nil }
                name = token
                value = arguments[index]
                index += 1
            }
            seen.insert(name)
            // ArgumentParser reads a month's value unconditionally (`--month -1`), and no other's.
            guard !value.isEmpty, !value.hasPrefix("-") || name == "--month" else { return nil }
            switch name {
            case "--month":
                guard (try? ArgumentValue.period(value)) != nil else { return nil }
                request.month = value
            case "--format":
                guard let format = Tally.Report.Format(rawValue: value), format != .csv else { return nil }
                request.format = format
            case "--output": request.output = value
            case "--db": request.db = value
            // Read by `Preferences` before this reader runs.
            case "--locale", "--color": break
            default: return nil
            }
        }
        return request
    }
}
