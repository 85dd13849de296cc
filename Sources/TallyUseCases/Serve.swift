import TallyCore
import TallyStores

/// What `tally serve` was asked for, as plain values: the CLI parses the flags and the server
/// executable (`tally-serve`, which alone links Hummingbird) runs it.
public struct ServeSettings: Sendable {
    public var location: StoreLocation
    public var port: Int
    public var bind: String
    /// PEM files; both or neither turn on HTTPS.
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// Whether every request must present a token; always true off loopback.
    public var requireTokens: Bool
    /// Seconds a connection may sit without sending or reading before it is closed.
    public var idleTimeout: Int

    public init(
        location: StoreLocation, port: Int = 8420, bind: String = "127.0.0.1", tlsCertificate: String? = nil, tlsKey: String? = nil,
        requireTokens: Bool = false, idleTimeout: Int = 10
    ) {
        self.location = location
        self.port = port
        self.bind = bind
        self.tlsCertificate = tlsCertificate
        self.tlsKey = tlsKey
        self.requireTokens = requireTokens || !ServeSettings.isLoopback(bind)
        self.idleTimeout = idleTimeout
    }

    /// Loopback addresses: the only ones served without tokens.
    public static func isLoopback(_ address: String) -> Bool {
        address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }
}
