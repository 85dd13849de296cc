import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyUseCases

/// Headers every response carries: no script may run, no site may frame a page, no type is
/// guessed, and no address (such as a sign-in link's) leaks to another site through the referrer.
struct SecurityHeaders: RouterMiddleware {
    typealias Context = ServeContext
    static let policy = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = Self.errorResponse(error.status, error.body ?? error.status.reasonPhrase)
        } catch {
            let status = Self.status(for: error)
            // A server-side failure is the operator's to see; use-case messages hold no token.
            if status == .internalServerError { FileHandle.standardError.write(Data("error: \(describe(error))\n".utf8)) }
            response = Self.errorResponse(status, describe(error))
        }
        Self.secure(&response.headers)
        return response
    }

    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] = policy
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        headers[.cacheControl] = headers[.cacheControl] ?? "no-store"
    }

    /// A use case's error: the request's fault (400, or 404 for a missing expense) unless the
    /// store failed (500).
    static func status(for error: any Error) -> HTTPResponse.Status {
        guard let error = error as? TallyError else { return error is ServeTokenError ? .badRequest : .internalServerError }
        switch error {
        case .expenseNotFound: return .notFound
        case .storage, .cannotWrite, .notADatabase: return .internalServerError
        default: return .badRequest
        }
    }

    static func errorResponse(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

/// One line per request on stderr: method, path, status and time. Query strings are left out,
/// so a sign-in link's token never reaches the log.
struct RequestLog: RouterMiddleware {
    typealias Context = ServeContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            Self.log(request, status: response.status.code, since: start)
            return response
        } catch let error as HTTPError {
            Self.log(request, status: error.status.code, since: start)
            throw error
        } catch {
            Self.log(request, status: 500, since: start)
            throw error
        }
    }

    private static func log(_ request: Request, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let path = request.uri.path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
        let line = "\(request.method.rawValue) \(path) \(status) \(String(format: "%.1f", milliseconds)) ms\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

/// Who may do what. A token comes as `Authorization: Bearer …` or in the cookie its sign-in link
/// set; on loopback without `--require-token` a request without one may do everything. A wrong
/// or revoked token is refused even there. Posts must come from this site: a cross-site
/// `Origin` or `Sec-Fetch-Site` is refused before anything is read.
struct AccessCheck: RouterMiddleware {
    typealias Context = ServeContext
    let ledger: LedgerAccess
    let requireTokens: Bool
    static let cookieName = "tally_token"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if request.method != .get, request.method != .head {
            guard Self.isSameSite(request) else { throw HTTPError(.forbidden, message: "cross-site requests are refused") }
        }
        if request.uri.path == "/login" || request.uri.path.hasPrefix("/static/") {
            return try await next(request, context)
        }
        if let presented = Self.presentedToken(request) {
            let hash = TokenHash.hash(presented)
            let token = try await ledger.read { _, store in try ServeTokens.find(hash: hash, in: store) }
            guard let token else { throw Self.unauthorized("unknown or revoked token") }
            context.permission = token.permission
            context.subject = hash
            context.holder = token.name
        } else {
            guard !requireTokens else { throw Self.unauthorized("a token is needed: open your sign-in link, or send Authorization: Bearer TOKEN") }
            context.permission = .manage
        }
        return try await next(request, context)
    }

    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: message)
    }

    static func presentedToken(_ request: Request) -> String? {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : header
        }
        for cookies in request.headers[values: .cookie] {
            for pair in cookies.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix(cookieName + "=") { return String(trimmed.dropFirst(cookieName.count + 1)) }
            }
        }
        return nil
    }

    /// A browser names the page a post comes from; one from another origin is refused. Tools
    /// such as curl send neither header and are judged by their token alone.
    static func isSameSite(_ request: Request) -> Bool {
        // Browsers that send it say best where a post comes from (an `Origin` may be `null`).
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!] { return site == "same-origin" || site == "none" }
        guard let origin = request.headers[HTTPField.Name("Origin")!] else { return true }
        guard let host = request.head.authority else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }
}

extension RequestContext {
    /// Refuses a request whose access is below `needed`.
    func require(_ needed: ServePermission, _ permission: ServePermission?) throws {
        guard let permission, permission >= needed else {
            throw HTTPError(.forbidden, message: "this needs a token that can \(needed.rawValue)")
        }
    }
}
