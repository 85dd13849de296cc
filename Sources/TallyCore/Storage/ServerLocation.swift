import Foundation


/// A PostgreSQL server location as libpq spells it: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME`
/// (or `postgres://`), with `?sslmode=` and `?sslrootcert=`. Parsed here, without the client
/// library, so that `tally` can refuse a malformed URL (exit 64) and hand a good one over to
/// `tally-postgres` without loading NIO.
///
/// The password is kept apart and never part of ``description``: messages, `db info` and
/// anything Tally writes show the location through it.
public struct ServerLocation: Hashable, Sendable, CustomStringConvertible {
    /// libpq's `sslmode` values.
    public enum SSLMode: String, Hashable, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var user: String
    /// Only the URL's own password; ``password(environment:home:)`` adds `PGPASSWORD` and `~/.pgpass`.
    public var urlPassword: String?
    public var host: String
    public var port: Int
    public var database: String
    public var sslMode: SSLMode
    public var sslRootCert: String?
    /// Seconds to wait for the server to answer before giving up (libpq's `connect_timeout`).
    public var connectTimeout: Int

    /// Whether `text` names a server rather than a file.
    public static func isServerURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Parses a URL; `environment` supplies libpq's defaults (`PGUSER`, else `USER`).
    public init(url text: String, environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) throws(ServerLocationError) {
        guard let schemeEnd = text.range(of: "://"), Self.isServerURL(text) else { throw .malformed("it must start with postgresql://") }
        var rest = Substring(text[schemeEnd.upperBound...])
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        var user: String?
        var password: String?
        if let userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], "user")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], "password")
            } else {
                user = try Self.decode(userInfo, "user")
            }
        }
        var hostText = rest
        var port = 5432
        if hostText.hasPrefix("[") {
            // An IPv6 address: [::1]:5432.
            guard let close = hostText.firstIndex(of: "]") else { throw .malformed("an IPv6 host needs its closing ]") }
            let after = hostText[hostText.index(after: close)...]
            if after.hasPrefix(":") { port = try Self.port(after.dropFirst()) } else if !after.isEmpty { throw .malformed("unexpected text after the host") }
            hostText = hostText[hostText.index(after: hostText.startIndex)..<close]
        } else if let colon = hostText.lastIndex(of: ":") {
            port = try Self.port(hostText[hostText.index(after: colon)...])
            hostText = hostText[..<colon]
        }
        guard !hostText.contains(",") else { throw .malformed("several hosts are not supported") }
        var host = try Self.decode(hostText, "host")
        var database = try Self.decode(path, "database name")
        var sslMode = SSLMode.prefer
        var sslRootCert: String?
        var timeout = 5
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decode(parts[0], "parameter")
            let value = parts.count > 1 ? try Self.decode(parts[1], "parameter \(key)") : ""
            switch key {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else { throw .unknownSSLMode(value) }
                sslMode = mode
            case "sslrootcert": sslRootCert = value
            case "user": user = value
            case "password": password = value
            case "host": host = value
            case "port": port = try Self.port(Substring(value))
            case "dbname": database = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds >= 0 else { throw .malformed("connect_timeout must be a whole number of seconds") }
                // libpq reads 0 as "wait forever"; a command must still end, so 0 keeps the default.
                if seconds > 0 { timeout = seconds }
            case "application_name": break
            default: throw .unknownParameter(key)
            }
        }
        if host.isEmpty { host = "localhost" }
        let resolvedUser = user.flatMap { $0.isEmpty ? nil : $0 } ?? environment("PGUSER") ?? environment("USER") ?? ""
        guard !resolvedUser.isEmpty else { throw .malformed("it names no user") }
        if database.isEmpty { database = resolvedUser }
        self.user = resolvedUser
        urlPassword = password
        self.host = host
        self.port = port
        self.database = database
        self.sslMode = sslMode
        self.sslRootCert = sslRootCert
        connectTimeout = timeout
    }

    /// The location as messages show it: never the password.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let query = sslMode == .prefer ? "" : "?sslmode=\(sslMode.rawValue)"
        return "postgresql://\(Self.encode(user))@\(shownHost):\(port)/\(Self.encode(database))\(query)"
    }

    /// Where messages say the server is: `host:port`, or the socket folder.
    public var endpoint: String { host.hasPrefix("/") ? "\(host) (port \(port))" : "\(host):\(port)" }

    /// The password libpq would use: the URL's, else `PGPASSWORD`, else the first matching line
    /// of `PGPASSFILE` or `~/.pgpass` when no one but its owner can read it.
    public func password(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        if let urlPassword { return urlPassword }
        if let variable = environment("PGPASSWORD"), !variable.isEmpty { return variable }
        let file = environment("PGPASSFILE").flatMap { $0.isEmpty ? nil : $0 } ?? UserFolders.home(environment) + "/.pgpass"
        return PGPassFile(path: file)?.password(host: host, port: port, database: database, user: user)
    }

    private static func port(_ text: Substring) throws(ServerLocationError) -> Int {
        guard let port = Int(text), (1...65_535).contains(port) else { throw .malformed("the port must be a number from 1 to 65535") }
        return port
    }

    private static func decode(_ text: Substring, _ part: String) throws(ServerLocationError) -> String {
        guard let decoded = String(text).removingPercentEncoding else { throw .malformed("its \(part) has a broken %-escape") }
        return decoded
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@/"))) ?? text
    }
}

/// Why a server URL cannot be used; the CLI turns these into usage errors.
public enum ServerLocationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The URL breaks libpq's form; the reason says where.
    case malformed(String)
    /// `sslmode` is none of libpq's values.
    case unknownSSLMode(String)
    /// A `?name=` Tally does not know.
    case unknownParameter(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "invalid PostgreSQL URL: \(reason)"
        case .unknownSSLMode(let mode):
            "unknown sslmode \(quoted(mode)) (use \(ServerLocation.SSLMode.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unknownParameter(let name): "unknown PostgreSQL URL parameter \(quoted(name))"
        }
    }
}

/// A libpq password file: `host:port:database:user:password` lines, `*` matching anything,
/// `\:` and `\\` escaped. Like libpq, a file that its group or others may read is ignored.
struct PGPassFile {
    let lines: [[String]]

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        lines = text.split(whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = Self.fields(line)
            return fields.count == 5 ? fields : nil
        }
    }

    func password(host: String, port: Int, database: String, user: String) -> String? {
        // libpq matches a socket connection against `localhost`.
        let shownHost = host.hasPrefix("/") ? "localhost" : host
        let wanted = [shownHost, String(port), database, user]
        return lines.first { fields in zip(fields.prefix(4), wanted).allSatisfy { $0 == "*" || $0 == $1 } }?[4]
    }

    private static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
