import Foundation
import Testing
@testable import TallyCore

@Suite struct NamesTests {
    @Test func theByteScanFindsExactlyTheScalarsTheUnicodeCheckFinds() {
        var mismatches: [UInt32] = []
        for value in UInt32(1)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "b"
            if UTF8ControlScan.containsControlOrLineBreak(text) != scalar.isControlOrLineBreak { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
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
