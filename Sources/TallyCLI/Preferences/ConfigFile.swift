import Foundation
import TOMLKit
import TallyCore

/// `$XDG_CONFIG_HOME/tally/config.toml` (default `~/.config/tally/config.toml`): a person's
/// defaults, below flags and the environment (see ``Preferences``).
///
/// ```toml
/// db = "~/finance/tally.sqlite"
/// color = "auto"            # auto, always or never
/// locale = "de_DE"          # beats LANG and LC_*; --locale beats it
/// default-budget = "Food"   # what `tally add` uses without -b
/// default-account = "Card"  # what `tally add` is paid from without --account
/// ```
///
/// TOMLKit (toml++) parses it; this type only checks what the keys hold. A malformed file or a
/// bad value is an error naming the line (exit 78, EX_CONFIG); an unknown key is a warning.
struct ConfigFile: Equatable {
    var db: String?
    var color: ColorChoice?
    var locale: String?
    var defaultBudget: String?
    var defaultAccount: String?
    /// One line each, for stderr: keys this Tally does not know.
    var warnings: [String] = []
    /// Where the file is and what it holds, for errors found later (an unknown locale).
    var path = ""
    var text = ""

    /// The line that sets `key`, for messages. Looked up only when one is printed: finding it
    /// for every key would scan the file's text once per key in every command that reads it.
    func line(of key: String) -> Int? { Self.line(of: key, in: text) }

    static let keys = ["db", "color", "locale", "default-budget", "default-account"]

    /// Where the file is, whether or not it exists.
    static func path(environment: (String) -> String?) -> String {
        UserFolders.base("XDG_CONFIG_HOME", fallback: ".config", environment) + "/tally/config.toml"
    }

    /// The file at ``path(environment:)``; an empty configuration when there is none.
    static func load(environment: (String) -> String?) throws(ConfigError) -> ConfigFile {
        let path = path(environment: environment)
        guard let text = try read(path) else { return ConfigFile() }
        return try parse(text, path: path, home: UserFolders.home(environment))
    }

    /// The file's text; `nil` when it does not exist. Read with one `open`: a `tally add` pays
    /// for this on every run, and a missing file must cost one failed system call.
    ///
    /// A file that is there but cannot be read is an error. A folder on the way that this user
    /// may not search (another user's `HOME`, as under `sudo -u`) hides whether there is a file
    /// at all, and none of this user's: that counts as no file.
    private static func read(_ path: String) throws(ConfigError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == ENOENT || errno == ENOTDIR { return nil }
            var info = stat()
            if errno == EACCES, stat(path, &info) != 0, errno == EACCES { return nil }
            throw .unreadable(path: path, reason: reason)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
            // A configuration is a few lines; a huge file is a mistake, not a config.
            guard bytes.count <= 1 << 20 else { throw .unreadable(path: path, reason: "larger than 1 MB") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .malformed(path: path, line: nil, reason: "it is not UTF-8 text")
        }
        return text
    }

    static func parse(_ text: String, path: String, home: String) throws(ConfigError) -> ConfigFile {
        // toml++ reads up to a NUL byte; TOML forbids one anyway.
        if let nul = text.utf8.firstIndex(of: 0) {
            let line = text.utf8[..<nul].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw .malformed(path: path, line: line, reason: "it contains a NUL byte")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .malformed(path: path, line: error.source.begin.line, reason: error.description)
        } catch {
            throw .malformed(path: path, line: nil, reason: "\(error)")
        }
        var config = ConfigFile(path: path, text: text)
        for key in table.keys {
            guard let value = table[key] else { continue }
            func invalid(_ reason: String) -> ConfigError { .invalidValue(path: path, line: config.line(of: key), key: key, reason: reason) }
            func string() throws(ConfigError) -> String {
                guard let string = value.string else { throw invalid("it must be a string in quotes") }
                guard !string.isEmpty else { throw invalid("it is empty") }
                return string
            }
            switch key {
            case "db":
                let db = try string()
                if db.hasPrefix("~/") {
                    config.db = home + db.dropFirst()
                } else if db.hasPrefix("/") {
                    config.db = db
                } else {
                    throw invalid("\(quoted(db)) is not a full path: start it with / or ~/")
                }
            case "color":
                let text = try string()
                guard let color = ColorChoice(rawValue: text) else {
                    throw invalid("\(quoted(text)): use auto, always or never")
                }
                config.color = color
            case "locale":
                config.locale = try string()
            case "default-budget":
                config.defaultBudget = try string()
            case "default-account":
                config.defaultAccount = try string()
            default:
                let place = config.line(of: key).map { " line \($0)" } ?? ""
                config.warnings.append("\(path)\(place): unknown key \(quoted(key)) ignored (known: \(keys.joined(separator: ", ")))")
            }
        }
        return config
    }

    /// The line that sets `key` at the top level, for messages: TOMLKit keeps no positions
    /// for values it parsed, only for errors. Bare and quoted keys are found; `nil` otherwise.
    static func line(of key: String, in text: String) -> Int? {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            for spelling in [key, "\"\(key)\"", "'\(key)'", "[\(key)]", "[[\(key)]]"] where trimmed.hasPrefix(spelling) {
                let rest = trimmed.dropFirst(spelling.count).drop { $0 == " " || $0 == "\t" }
                if rest.first == "=" || rest.first == "." || spelling.hasPrefix("[") { return index + 1 }
            }
        }
        return nil
    }
}

/// Whether text output is coloured: `auto` colours a terminal unless NO_COLOR is set.
enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never
}

/// What is wrong with the configuration file; the CLI exits 78 (EX_CONFIG) for each.
enum ConfigError: Error, Equatable {
    case unreadable(path: String, reason: String)
    case malformed(path: String, line: Int?, reason: String)
    case invalidValue(path: String, line: Int?, key: String, reason: String)

    var message: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read config file \(path): \(reason)"
        case .malformed(let path, let line, let reason):
            return "config file \(path)\(line.map { " line \($0)" } ?? ""): not valid TOML: \(reason.split(whereSeparator: \.isNewline).joined(separator: " "))"
        case .invalidValue(let path, let line, let key, let reason):
            return "config file \(path)\(line.map { " line \($0)" } ?? ""): \(key): \(reason)"
        }
    }
}

