import Foundation
import PostgresNIO
import TallyCore

extension ServerLocation {
    /// postgres-nio's configuration for this location, its password resolved as libpq does.
    func connectionConfiguration() throws(TallyError) -> PostgresConnection.Configuration {
        let password = password()
        var configuration: PostgresConnection.Configuration
        if host.hasPrefix("/") {
            // libpq's `host=/folder` names the folder of the server's socket.
            configuration = .init(unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: try tls())
        }
        configuration.options.connectTimeout = .seconds(Int64(connectTimeout))
        return configuration
    }

    /// libpq's sslmode as NIO's TLS: `allow` and `prefer` use TLS when the server offers it,
    /// `require` insists without checking the certificate, `verify-ca` checks it against
    /// `sslrootcert`, `verify-full` checks the host name too.
    private func tls() throws(TallyError) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable: return .disable
        case .allow, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let sslRootCert, sslMode == .verifyCA || sslMode == .verifyFull {
            guard FileManager.default.isReadableFile(atPath: sslRootCert) else {
                throw .storage("cannot read sslrootcert \(quoted(sslRootCert))")
            }
            tls.trustRoots = .file(sslRootCert)
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw .storage("cannot set up TLS for \(endpoint): \(error)")
        }
        return sslMode == .allow || sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// One line for a failed connection, naming the server and never the password.
    func connectionFailure(_ error: any Error) -> TallyError {
        .storage(scrubbed("cannot connect to the PostgreSQL server at \(endpoint): \(reason(error))"))
    }

    /// One line for a failed statement.
    func failure(_ error: any Error) -> TallyError {
        // numeric_value_out_of_range: a sum cast to BIGINT (the figures) went past Int64, as Money's would.
        if let error = error as? PSQLError, error.serverInfo?[.sqlState] == "22003" { return .arithmeticOverflow }
        return .storage(scrubbed("PostgreSQL server at \(endpoint): \(reason(error))"))
    }

    private func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else {
            // TCP's, postgres-nio's startup's or the session's own bound on the whole setup.
            if case ChannelError.connectTimeout = error { return "the server did not answer within \(connectTimeout) s" }
            if let error = error as? NIOConnectionError { return connectionReason(error) }
            if error is ChannelError { return "the connection timed out or was closed" }
            return String(describing: error)
        }
        if let message = error.serverInfo?[.message] { return message }
        switch error.code {
        case .sslUnsupported: return "the server does not support TLS (sslmode=\(sslMode.rawValue))"
        case .authMechanismRequiresPassword: return "the server asks for a password; set PGPASSWORD or use ~/.pgpass"
        case .serverClosedConnection, .clientClosedConnection: return "the connection was closed"
        case .connectionError:
            if let underlying = error.underlying { return reason(underlying) }
            return "cannot connect"
        default:
            if let underlying = error.underlying { return reason(underlying) }
            return error.code.description
        }
    }

    private func connectionReason(_ error: NIOConnectionError) -> String {
        if let failure = error.connectionErrors.first?.error {
            if let io = failure as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
            return String(describing: failure)
        }
        if error.dnsAAAAError != nil || error.dnsAError != nil { return "cannot resolve host \(quoted(host))" }
        return "cannot connect"
    }

    /// A password that slipped into a message (a server echoing a connection string) is cut out.
    private func scrubbed(_ message: String) -> String {
        guard let password = password(), password.count >= 1 else { return message }
        return message.replacingOccurrences(of: password, with: "***")
    }
}
