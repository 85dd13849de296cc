import Testing
@testable import TallyImportExport

struct FingerprintTests {
    @Test func knownDigests() {
        #expect(digest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(digest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func chunkingDoesNotChangeTheDigest() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var whole = Fingerprinter()
        whole.update(bytes)
        for chunk in [1, 7, 63, 64, 65, 999] {
            var pieces = Fingerprinter()
            for start in stride(from: 0, to: bytes.count, by: chunk) {
                pieces.update(Array(bytes[start..<min(start + chunk, bytes.count)]))
            }
            #expect(pieces.finalize() == whole.finalize())
            #expect(pieces.byteCount == 1000)
        }
    }

    @Test func finalizeCanBeCalledTwice() {
        var hasher = Fingerprinter()
        hasher.update(Array("abc".utf8))
        #expect(hasher.finalize() == hasher.finalize())
    }

    private func digest(_ text: String) -> String {
        var hasher = Fingerprinter()
        hasher.update(Array(text.utf8))
        return hasher.finalize()
    }
}
