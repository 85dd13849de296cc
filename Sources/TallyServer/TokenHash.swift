import Crypto
import Foundation
import TallyCore

/// Tokens are 256 random bits; only their SHA-256 is stored, which for random tokens of that
/// size needs no salt or slow hash. Forms carry an HMAC of the holder's token hash under a key
/// made at start-up, so a page from another site cannot know it.
public enum TokenHash {
    /// A new token (64 hex digits) and its stored hash.
    public static func makeToken() -> (token: String, hash: String) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let token = Hex.lowercase(bytes)
        return (token, hash(token))
    }

    public static func hash(_ token: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(token.utf8)))
    }
}

/// The anti-forgery token of a form: an HMAC of who holds the session, under a key that lives
/// as long as the process (a restart asks for a reload of open forms, nothing more).
struct FormGuard: Sendable {
    private let key = SymmetricKey(size: .bits256)

    func token(for subject: String) -> String {
        Hex.lowercase(HMAC<SHA256>.authenticationCode(for: Data(subject.utf8), using: key))
    }

    /// Compared in constant time.
    func accepts(_ presented: String, for subject: String) -> Bool {
        let expected = Array(token(for: subject).utf8)
        let given = Array(presented.utf8)
        guard expected.count == given.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}
