/// Reads the usual spellings of `tally add` and `tally expense add` without ArgumentParser.
///
/// Adding an expense is what people type most, and a fresh process spends much of its time in
/// ArgumentParser: it builds each command's arguments by reflection, and every first cast to a
/// protocol scans all of the binary's conformance records. This reader takes only what it is
/// sure ArgumentParser would read the same way, and returns `nil` for anything else: help, an
/// unknown or repeated option, a value that starts with `-` (but for a date's: `--date -3d`), an
/// empty value, a missing argument or a value that fails validation. ArgumentParser then reads
/// those, so its messages stay the only ones. A differential test holds the two readers to the
/// same result.
enum QuickAdd {
    static func parse(
        _ arguments: [String], defaultBudget: String? = Preferences.current.config.defaultBudget,
        defaultAccount: String? = Preferences.current.config.defaultAccount
    ) -> ExpenseAddition? {
        let rest: ArraySlice<String>
        if arguments.first == "add" {
            rest = arguments.dropFirst()
        } else if arguments.starts(with: ["expense", "add"]) {
            rest = arguments.dropFirst(2)
        } else {
            return nil
        }
        var positionals: [String] = []
        // Indexed by `Option.rawValue`: a dictionary keyed by `Option` would make the runtime scan
        // every conformance record for `Option: Hashable`.
        var options = Array(repeating: [String](), count: Option.allCases.count)
        var index = rest.startIndex
        while index < rest.endIndex {
            let token = rest[index]
            index += 1
            guard !token.isEmpty else { return nil }
            guard token.hasPrefix("-") else {
                positionals.append(token)
                continue
            }
            let option: Option
            let value: String
            if let equals = token.firstIndex(of: "="), token.hasPrefix("--") {
                guard let named = Option(spelling: String(token[..<equals])) else { return nil }
                option = named
                value = String(token[token.index(after: equals)...])
            } else {
                guard let named = Option(spelling: token), index < rest.endIndex else { return nil }
                option = named
                value = rest[index]
                index += 1
            }
            // ArgumentParser reads a date's value unconditionally (`--date -3d`), and no other's.
            guard !value.isEmpty, !value.hasPrefix("-") || option.rawValue == Option.date.rawValue else { return nil }
            options[option.rawValue].append(value)
        }
        let budgets = options[Option.budget.rawValue]
        guard positionals.count == 2, budgets.count <= 1, let budget = budgets.first ?? defaultBudget else {
            return nil
        }
        var addition = ExpenseAddition(name: positionals[0], amount: positionals[1], budget: budget, account: defaultAccount)
        for option in Option.allCases where option != .tag && !options[option.rawValue].isEmpty {
            guard let value = options[option.rawValue].single else { return nil }
            switch option {
            case .quantity:
                guard value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                    let quantity = Int64(value)
                else { return nil }
                addition.quantity = quantity
            case .date: addition.date = value
            case .db: addition.db = value
            case .by: addition.by = value
            case .account: addition.account = value
            // Read by `Preferences` before this reader runs.
            case .budget, .tag, .locale, .color: break
            }
        }
        addition.tags = options[Option.tag.rawValue]
        do {
            try addition.validate()
        } catch {
            return nil
        }
        return addition
    }

    private enum Option: Int, CaseIterable {
        case budget, quantity, date, tag, db, locale, color, by, account

        init?(spelling: String) {
            switch spelling {
            case "-b", "--budget": self = .budget
            case "--quantity": self = .quantity
            case "--date": self = .date
            case "--tag": self = .tag
            case "--db": self = .db
            case "--locale": self = .locale
            case "--color": self = .color
            case "--by": self = .by
            case "--account": self = .account
            default: return nil
            }
        }
    }
}

extension Array {
    fileprivate var single: Element? { count == 1 ? first : nil }
}
