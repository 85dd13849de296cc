import Foundation

/// A rule's pattern, compiled: plain text is a substring of the folded name; `/…/` is a regular
/// expression run on the folded name, ignoring case.
///
/// Regular expressions run on a backtracking engine (Swift `Regex`), where a pattern such as
/// `(a+)+$` takes exponential time on a name that almost matches. Rather than time-bound each
/// match, which would make an import's outcome depend on the machine's speed, patterns that
/// can backtrack badly are refused when the rule is saved:
/// - a repeated group that holds a repetition or an alternation (`(a+)+`, `(a|ab)*`, `(\w+\s?)*`);
/// - backreferences (`\1`, `\k<name>`), which make matching exponential by themselves;
/// - more than three unbounded repetitions (`*`, `+`, `{n,}`) in the whole pattern.
/// What remains is polynomial in the name's length, and names are at most 200 characters.
public enum RulePattern: @unchecked Sendable {
    // `@unchecked`: a compiled `Regex` is an immutable value, shared read-only between threads.
    case plain([UInt8])
    /// The expression, and the longest ASCII word every match must contain (lowercased), if any.
    case regex(Regex<AnyRegexOutput>, literal: [UInt8]?)

    static let maximumUnboundedRepetitions = 3

    public init(_ pattern: String) throws(TallyError) {
        let trimmed = pattern.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalidRulePattern(pattern, reason: "it is empty") }
        guard trimmed.count <= ImportRule.maximumPatternLength else {
            throw .invalidRulePattern(pattern, reason: "it is longer than \(ImportRule.maximumPatternLength) characters")
        }
        guard !UTF8ControlScan.containsControlOrLineBreak(trimmed) else {
            throw .invalidRulePattern(pattern, reason: "it must not contain line breaks or control characters")
        }
        guard let body = RulePattern.regexBody(trimmed) else {
            self = .plain(Array(RulePattern.fold(trimmed).utf8))
            return
        }
        try RulePattern.checkSafety(body, pattern: pattern)
        // Diacritics and width are folded out of the pattern as out of the name; neither touches
        // the ASCII of regex syntax. Case is left to `ignoresCase()`, which keeps `\D` apart from `\d`.
        let folded = body.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        do {
            self = .regex(try Regex(folded).ignoresCase(), literal: RulePattern.requiredLiteral(ofRegex: body))
        } catch {
            throw .invalidRulePattern(pattern, reason: "it is not a valid regular expression")
        }
    }

    /// Whether `pattern` is a regular expression: text between two slashes.
    public static func isRegex(_ pattern: String) -> Bool {
        regexBody(pattern.trimmingCharacters(in: .whitespaces)) != nil
    }

    private static func regexBody(_ pattern: String) -> String? {
        guard pattern.count >= 3, pattern.hasPrefix("/"), pattern.hasSuffix("/") else { return nil }
        return String(pattern.dropFirst().dropLast())
    }

    /// A name as rules see it: `NameKey`'s folding (case, diacritics, width), trimmed; printable
    /// ASCII takes `NameKey`'s fast path, which Foundation's trimming would miss.
    public static func fold(_ name: String) -> String { NameKey.lookup(name) }

    /// Whether the pattern matches a name already folded by ``fold(_:)``.
    public func matches(folded name: String) -> Bool {
        switch self {
        case .plain(let needle):
            return RulePattern.contains(name, needle)
        case .regex(let regex, _):
            return (try? regex.firstMatch(in: name)) != nil
        }
    }

    public func matches(_ name: String) -> Bool { matches(folded: RulePattern.fold(name)) }

    /// A byte search (`memchr` for the first byte, `memcmp` for the rest): a folded needle is a
    /// substring of a folded name exactly when its UTF-8 bytes are, and this avoids `String`'s
    /// character-by-character comparison.
    private static func contains(_ haystack: String, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        var haystack = haystack
        return haystack.withUTF8 { text in
            guard text.count >= needle.count, let base = text.baseAddress else { return false }
            return needle.withUnsafeBytes { bytes in
                guard let wanted = bytes.baseAddress else { return false }
                var start = 0
                while start + needle.count <= text.count {
                    guard let hit = memchr(base + start, Int32(first), text.count - needle.count - start + 1) else { return false }
                    if memcmp(hit, wanted, needle.count) == 0 { return true }
                    start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                }
                return false
            }
        }
    }

    /// Bytes a folded name must contain for the pattern to match: a plain pattern's own, a
    /// regular expression's required word. `nil` when a regular expression has none.
    var requiredLiteral: [UInt8]? {
        switch self {
        case .plain(let bytes): bytes
        case .regex(_, let literal): literal
        }
    }

    /// The longest run of ASCII letters, digits and spaces outside any group, class or
    /// alternation that every match must contain, lowercased; `nil` when the expression has an
    /// alternation (any branch may match) or no such run of two characters or more. A character
    /// made optional by `?`, `*` or `{0` ends the run without joining it; one repeated by `+` or
    /// `{n}` ends it after joining it. Conservative by design:
    /// a wrong literal would make a matching rule be skipped.
    static func requiredLiteral(ofRegex body: String) -> [UInt8]? {
        let characters = Array(body.utf8)
        guard !characters.contains(UInt8(ascii: "|")) else { return nil }
        var best: [UInt8] = []
        var run: [UInt8] = []
        var depth = 0
        var index = 0
        func endRun() {
            if run.count > best.count { best = run }
            run = []
        }
        func isLiteral(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x20
        }
        func optional(after position: Int) -> Bool {
            guard position < characters.count else { return false }
            let next = characters[position]
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "*") { return true }
            return next == UInt8(ascii: "{") && position + 1 < characters.count && characters[position + 1] == UInt8(ascii: "0")
        }
        while index < characters.count {
            let byte = characters[index]
            switch byte {
            case UInt8(ascii: "("):
                endRun()
                depth += 1
            case UInt8(ascii: ")"):
                endRun()
                depth -= 1
            case UInt8(ascii: "["):
                endRun()
                while index < characters.count, characters[index] != UInt8(ascii: "]") { index += characters[index] == UInt8(ascii: "\\") ? 2 : 1 }
            case UInt8(ascii: "{"):
                // A repetition count is no text to find.
                endRun()
                while index < characters.count, characters[index] != UInt8(ascii: "}") { index += 1 }
            case UInt8(ascii: "\\"):
                // An escape is a class (`\d`, `\s`) or an anchor (`\b`); either ends the run.
                endRun()
                index += 1
            default:
                if depth == 0, isLiteral(byte), !optional(after: index + 1) {
                    run.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                    // `b+` or `b{2}` may repeat the character: the run cannot go on past it.
                    if index + 1 < characters.count, characters[index + 1] == UInt8(ascii: "+") || characters[index + 1] == UInt8(ascii: "{") {
                        endRun()
                    }
                } else {
                    endRun()
                }
            }
            index += 1
        }
        endRun()
        return best.count >= 2 ? best : nil
    }

    /// Refuses the shapes listed in the type's comment, by one scan of the pattern's syntax.
    private static func checkSafety(_ body: String, pattern: String) throws(TallyError) {
        struct Group {
            var repeats = false
            var alternates = false
        }
        var groups = [Group()]
        var unbounded = 0
        let characters = Array(body)
        var index = 0

        /// The repetition at `at`, if any: whether it is unbounded and how many characters it takes.
        func repetition(at: Int) -> (unbounded: Bool, length: Int)? {
            guard at < characters.count else { return nil }
            switch characters[at] {
            case "*", "+": return (true, 1)
            case "?": return (false, 1)
            case "{":
                guard let close = characters[at...].firstIndex(of: "}") else { return nil }
                let inside = String(characters[(at + 1)..<close])
                let parts = inside.split(separator: ",", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), !parts[0].isEmpty else { return nil }
                let upper = parts.count == 2 ? Int(parts[1]) : Int(parts[0])
                return (parts.count == 2 && parts[1].isEmpty || (upper ?? 0) > 1, close - at + 1)
            default: return nil
            }
        }

        func unsafe(_ reason: String) -> TallyError { .invalidRulePattern(pattern, reason: reason) }

        /// Counts a repetition after the atom that ended just before `index`.
        func afterAtom() throws(TallyError) {
            guard let (isUnbounded, length) = repetition(at: index) else { return }
            if isUnbounded { unbounded += 1 }
            groups[groups.count - 1].repeats = true
            index += length
        }

        while index < characters.count {
            switch characters[index] {
            case "\\":
                let next = index + 1 < characters.count ? characters[index + 1] : " "
                if next.isNumber && next != "0" || next == "k" {
                    throw unsafe("backreferences can take exponential time; match the text itself")
                }
                index += 2
                try afterAtom()
            case "[":
                // A class is one character whatever it holds; skip to its closing bracket.
                var end = index + 1
                if end < characters.count, characters[end] == "^" { end += 1 }
                if end < characters.count, characters[end] == "]" { end += 1 }
                while end < characters.count, characters[end] != "]" { end += characters[end] == "\\" ? 2 : 1 }
                index = end + 1
                try afterAtom()
            case "(":
                groups.append(Group())
                index += 1
            case ")":
                // An unbalanced parenthesis is left to the regex compiler, which refuses it.
                let group = groups.count > 1 ? groups.removeLast() : Group()
                index += 1
                if let (isUnbounded, length) = repetition(at: index) {
                    if isUnbounded, group.repeats || group.alternates {
                        throw unsafe("a repeated group holding a repetition or '|' can take exponential time; simplify it or use two rules")
                    }
                    if isUnbounded { unbounded += 1 }
                    groups[groups.count - 1].repeats = true
                    index += length
                } else if group.repeats {
                    groups[groups.count - 1].repeats = true
                }
            case "|":
                groups[groups.count - 1].alternates = true
                index += 1
            default:
                index += 1
                try afterAtom()
            }
            if unbounded > maximumUnboundedRepetitions {
                throw unsafe("more than \(maximumUnboundedRepetitions) unbounded repetitions ('*', '+', '{n,}') can take too long")
            }
        }
    }
}
