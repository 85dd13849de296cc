import Foundation
import TallyTestSupport
import Testing
@testable import TallyCore

@Suite(.ownThreads) struct NamesTests {
    @Test func theByteScanFindsExactlyTheScalarsTheUnicodeCheckFinds() {
        var mismatches: [UInt32] = []
        for value in UInt32(1)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "b"
            if UTF8ControlScan.containsControlOrLineBreak(text) != scalar.isControlOrLineBreak { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
    }

    @Test func printableASCIIKeysEqualFoundationsFolding() {
        var generator = SeededGenerator(seed: 7)
        let printable = (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }
        for _ in 0..<2_000 {
            let name = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in printable.randomElement(using: &generator) ?? "a" })
            let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .precomposedStringWithCanonicalMapping
            #expect(NameKey.make(name) == folded, "\(name)")
            #expect(NameKey.lookup(name) == NameKey.make(name.trimmingCharacters(in: .whitespacesAndNewlines)), "\(name)")
        }
    }

    /// What a name is saved as and what typing it looks up are one key: a budget added as X is
    /// found as X. Both trim only Unicode white space; a zero-width space (U+200B), which
    /// Foundation's trimming also takes, stays part of the name.
    @Test func aSavedNameIsFoundByTheSameSpelling() throws {
        var generator = SeededGenerator(seed: 11)
        let pieces = ["Café", "a", " ", "\u{A0}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{2060}", "e\u{301}", "\t", "日本"]
        var checked = 0
        for _ in 0..<3_000 {
            let name = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "a" }.joined()
            guard let saved = try? Budget(name: name, limit: Money(cents: 1)).validated() else { continue }
            #expect(NameKey.lookup(name) == saved.nameKey, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
            checked += 1
        }
        #expect(checked > 1_000)
        #expect(NameKey.lookup("Café\u{200B}") != NameKey.lookup("Café"))
        #expect(NameKey.lookup(" Café\u{A0}") == NameKey.lookup("Café"))
    }

    @Test(arguments: ["  Café ", "\tCAFE\n", "ＣＡＦＥ", "cafe\u{301}", " e\u{301}clair", "Groceries"])
    func lookupKeysIgnoreSurroundingWhiteSpace(name: String) {
        #expect(NameKey.lookup(name) == NameKey.make(name.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func nonASCIINamesAreTrimmedOfAnyWhiteSpaceAndKeptOtherwise() throws {
        #expect(try NameKey.validated("\u{3000}Café\u{A0}", kind: .budget, maximumLength: 10) == "Café")
        #expect(try NameKey.validated("\n Crème brûlée\u{2003}", kind: .expense, maximumLength: 20) == "Crème brûlée")
        #expect(try NameKey.validated("Café", kind: .budget, maximumLength: 4) == "Café")
        #expect(throws: TallyError.nameTooLong(.budget, "Cafés", maximum: 4)) {
            try NameKey.validated("Cafés", kind: .budget, maximumLength: 4)
        }
        #expect(throws: TallyError.nameHasControlCharacters(.expense, "Caf\u{85}é")) {
            try NameKey.validated("Caf\u{85}é", kind: .expense, maximumLength: 20)
        }
        #expect(throws: TallyError.emptyName(.expense)) { try NameKey.validated("\u{3000}\u{A0}", kind: .expense, maximumLength: 20) }
    }
}
