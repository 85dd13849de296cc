import Foundation

/// Where a user's files go, as the XDG Base Directory rules and `HOME` say: the one copy of those
/// rules for the database, the config file, the cache and `~/.pgpass`.
public enum UserFolders {
    /// `HOME`, else the account's home folder when `HOME` is unset or empty.
    public static func home(_ environment: (String) -> String?) -> String {
        environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    /// An XDG base folder: `variable` when it holds an absolute path (the rules ignore a relative
    /// one), else `fallback` under the home folder, such as `.config` for `XDG_CONFIG_HOME`.
    public static func base(_ variable: String, fallback: String, _ environment: (String) -> String?) -> String {
        if let value = environment(variable), value.hasPrefix("/") { return value }
        return home(environment) + "/" + fallback
    }
}
