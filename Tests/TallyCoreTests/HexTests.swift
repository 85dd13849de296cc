import Testing
import TallyCore

struct HexTests {
    @Test func everyByteIsTwoLowercaseDigits() {
        #expect(Hex.lowercase([UInt8]()) == "")
        #expect(Hex.lowercase([0x00, 0x0f, 0x10, 0xa5, 0xff]) == "000f10a5ff")
        #expect(Hex.lowercase(0...255).count == 512)
    }
}
