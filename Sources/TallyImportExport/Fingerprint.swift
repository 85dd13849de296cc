import Crypto

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
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in hash.finalize() {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
