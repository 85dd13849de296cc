import Crypto
import TallyCore

/// A streaming SHA-256 of a file's bytes: the identity under which an import is remembered.
/// A cryptographic hash makes an accidental match between two different files impossible in
/// practice. swift-crypto's (BoringSSL's, with the CPU's SHA instructions where it has them)
/// rather than one written here.
public struct Fingerprinter: Sendable {
    private var hash = SHA256()
    public private(set) var byteCount: UInt64 = 0

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        byteCount &+= UInt64(bytes.count)
        hash.update(bufferPointer: bytes)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest as 64 lowercase hex digits; the fingerprinter itself is left unchanged.
    public func finalize() -> String {
        Hex.lowercase(hash.finalize())
    }
}
