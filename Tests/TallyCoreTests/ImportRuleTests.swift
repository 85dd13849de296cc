import Foundation
import TallyTestSupport
import Testing
@testable import TallyCore

@Suite(.ownThreads) struct ImportRuleTests {
    @Test(arguments: [
        ("cafe", "CAFÉ DE FLORE 12/03", true),
        ("Café", "cafe de flore", true),
        ("ＲＥＷＥ", "rewe markt", true),
        ("flore", "CAFÉ DE FLORE", true),
        ("florist", "CAFÉ DE FLORE", false),
        ("müller", "DROGERIE MULLER 123", true),
        ("/^rewe\\s+\\d+/", "REWE 0451 Berlin", true),
        ("/^rewe\\s+\\d+/", "Markt REWE 0451", false),
        ("/CAFÉ/", "le cafe", true),
        ("/\\bspotify\\b/", "PAYPAL *SPOTIFY AB", true),
        ("/amzn mktp (de|fr)/", "AMZN MKTP FR 123", true),
    ])
    func plainTextAndRegexMatchIgnoringCaseAccentsAndWidth(pattern: String, name: String, matches: Bool) throws {
        #expect(try RulePattern(pattern).matches(name) == matches)
    }

    @Test(arguments: ["/(a+)+$/", "/(a*)*b/", "/(a|ab)*c/", "/(\\w+\\s?)*$/", "/(x+x+)+y/", "/(a)\\1/", "/(?<n>a)\\k<n>/",
                      "/a*b*c*d*/", "/(.{2,})+$/"])
    func catastrophicPatternsAreRefused(pattern: String) {
        #expect(throws: TallyError.self) { try RulePattern(pattern) }
    }

    @Test(arguments: ["/^amzn mktp/", "/\\d{4}/", "/(foo|bar) baz/", "/[a-z]+ \\d+/", "/(ab)+c/", "/(ab){1,3}/", "/a?b?c?d?e?/",
                      "/[(+*]+x/", "/x{2}y+z*/"])
    func usualPatternsAreAccepted(pattern: String) throws {
        _ = try RulePattern(pattern)
    }

    @Test func invalidPatternsSayWhy() throws {
        #expect(throws: TallyError.invalidRulePattern("/(unclosed/", reason: "it is not a valid regular expression")) { try RulePattern("/(unclosed/") }
        #expect(throws: TallyError.invalidRulePattern("  ", reason: "it is empty")) { try RulePattern("  ") }
        let long = String(repeating: "x", count: 201)
        #expect(throws: TallyError.self) { try RulePattern(long) }
        #expect(throws: TallyError.self) { try RulePattern("a\nb") }
        // Two slashes alone are plain text: there is no expression between them.
        #expect(try RulePattern("//").matches("http://x"))
    }

    @Test func anAcceptedPatternStaysFastOnTheLongestAdversarialName() throws {
        let pattern = try RulePattern("/^(a|b)c+d*e+$/")
        let name = String(repeating: "c", count: 199) + "!"
        let started = threadCPUSeconds()
        for _ in 0..<100 { _ = pattern.matches(name) }
        #expect(threadCPUSeconds() - started < 2)
    }

    @Test func theFirstRuleByPriorityThenIDDecides() throws {
        var matcher = try RuleMatcher([
            ImportRule(id: 3, pattern: "coffee", budget: "Late", priority: 100),
            ImportRule(id: 1, pattern: "coffee", budget: "Cafe", tags: ["daily"], priority: 100),
            ImportRule(id: 2, pattern: "/^coffee shop/", budget: "Treats", rename: "Coffee shop", priority: 50),
        ])
        #expect(matcher.decision(for: "Coffee Shop 12") == RuleDecision(ruleID: 2, budget: "Treats", tags: [], rename: "Coffee shop"))
        #expect(matcher.decision(for: "Best coffee") == RuleDecision(ruleID: 1, budget: "Cafe", tags: ["daily"], rename: nil))
        #expect(matcher.decision(for: "Tea") == nil)
        // Cached answers are the same answers.
        #expect(matcher.decision(for: "Best coffee")?.ruleID == 1)
        #expect(matcher.decision(for: "Tea") == nil)
    }

    @Test func validationNormalizesAndRefuses() throws {
        let rule = try ImportRule(pattern: "x", budget: " Food ", tags: ["B", "a", "b"], rename: " New ").validated()
        #expect(rule.budget == "Food")
        #expect(rule.rename == "New")
        #expect(rule.tags == (try Expense.normalizedTags(["B", "a", "b"])))
        #expect(throws: TallyError.invalidRulePriority(1_000_001)) { try ImportRule(pattern: "x", budget: "F", priority: 1_000_001).validated() }
        #expect(throws: TallyError.emptyName(.budget)) { try ImportRule(pattern: "x", budget: " ").validated() }
        #expect(throws: TallyError.self) { try ImportRule(pattern: "x", budget: "F", tags: ["a;b"]).validated() }
    }
}

extension ImportRuleTests {
    @Test(arguments: [
        ("^rewe\\s+\\d+", "rewe"), ("AMZN MKTP", "amzn mktp"), ("ab+c", "ab"), ("xyz?w", "xy"), ("a(bcd)efg", "efg"),
        ("foo|barbaz", nil), ("[abc]de\\dfgh", "fgh"), ("x{2}yy", "yy"), ("ab{12}", "ab"), ("q{10,}z", nil), ("caf.", "caf"), ("\\bspotify\\b", "spotify"),
    ] as [(String, String?)])
    func regularExpressionsGiveTheWordEveryMatchContains(body: String, literal: String?) {
        #expect(RulePattern.requiredLiteral(ofRegex: body).map { String(decoding: $0, as: UTF8.self) } == literal)
    }

    /// The scanner only skips rules that cannot match: the same answers as trying every rule in order.
    @Test func theLiteralScanGivesTheAnswersOfTryingEveryRule() throws {
        let patterns = ["coffee", "/^rewe\\s+\\d+/", "/shop(ping)?\\s+mall/", "/\\d{4}$/", "bakery", "/ab+c/", "/caf(e|é)/", "markt", "/^.{3}$/", "e"]
        let rules = patterns.enumerated().map { ImportRule(id: Int64($0.offset + 1), pattern: $0.element, budget: "B") }
        var matcher = try RuleMatcher(rules)
        let compiled = try patterns.map { try RulePattern($0) }
        var random = SeededGenerator(seed: 16)
        let words = ["Coffee", "REWE", "0451", "shop", "shopping", "mall", "bakery", "abbbc", "abc", "Café", "MARKT", "x", "tea", "1234"]
        for _ in 0..<2_000 {
            let name = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }.joined(separator: " ")
            let expected = compiled.firstIndex { $0.matches(name) }.map { Int64($0 + 1) }
            #expect(matcher.decision(for: name)?.ruleID == expected, "\(name)")
        }
    }
}
