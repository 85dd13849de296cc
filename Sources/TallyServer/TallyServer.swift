import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import TallyCore
import TallyUseCases

/// `tally serve`: one Hummingbird process over one ledger, file or PostgreSQL.
public enum TallyServer {
    /// Runs until SIGINT or SIGTERM, then lets requests in flight finish before returning.
    public static func serve(_ settings: ServeSettings) throws {
        let server = try Server(settings: settings)
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task {
            do {
                try await server.application { port in
                    let scheme = settings.tlsCertificate == nil ? "http" : "https"
                    let host = settings.bind.contains(":") ? "[\(settings.bind)]" : settings.bind
                    FileHandle.standardOutput.write(Data("Serving \(settings.location) at \(scheme)://\(host):\(port)/ (Ctrl-C stops)\n".utf8))
                }.runService()
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        done.wait()
        server.close()
        if let error = outcome.error { throw TallyError.storage("the server stopped: \(describe(error))") }
    }
}

private final class Outcome: @unchecked Sendable {
    var error: (any Error)?
}

/// The server's parts, made before it listens, so a bad ledger or certificate fails at once.
public final class Server: Sendable {
    let settings: ServeSettings
    let ledger: LedgerAccess
    let pages: Pages
    let reports = ReportCache()

    public init(settings: ServeSettings) throws {
        self.settings = settings
        ledger = try LedgerAccess(location: settings.location)
        pages = try Pages(guardian: FormGuard())
    }

    /// The application; `running` gets the port it listens on (useful with port 0).
    public func application(running: @escaping @Sendable (Int) -> Void = { _ in }) throws -> some ApplicationProtocol {
        let router = Router(context: ServeContext.self)
        router.add(middleware: RequestLog())
        router.add(middleware: SecurityHeaders())
        router.add(middleware: AccessCheck(ledger: ledger, requireTokens: settings.requireTokens))
        APIRoutes(ledger: ledger, reports: reports).add(to: router)
        PageRoutes(ledger: ledger, reports: reports, pages: pages).add(to: router)
        FormRoutes(ledger: ledger, pages: pages, secureCookie: settings.tlsCertificate != nil).add(to: router)
        ManageRoutes(ledger: ledger, pages: pages).add(to: router)
        let http = HTTPServerBuilder.http1(configuration: .init(idleTimeout: .seconds(Int64(settings.idleTimeout))))
        let server: HTTPServerBuilder
        if let certificate = settings.tlsCertificate, let key = settings.tlsKey {
            let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
            let tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
            server = try .tls(http, tlsConfiguration: tls)
        } else {
            server = http
        }
        var logger = Logger(label: "tally-serve")
        logger.logLevel = .critical
        return Application(
            router: router, server: server,
            configuration: .init(address: .hostname(settings.bind, port: settings.port), serverName: nil),
            onServerRunning: { channel in running(channel.localAddress?.port ?? 0) }, logger: logger)
    }

    /// Closes the ledger's stores once the server has stopped.
    public func close() {
        ledger.close()
    }
}
