import ArgumentParser
import Foundation
import TallyCore
import TallyStores
import TallyUseCases

/// The options every command takes, before or after its name (``GlobalOptions``): where the
/// database lives (`--db`, else `$TALLY_DB`, else the config file's `db`, else
/// `$XDG_DATA_HOME/tally/tally.sqlite`) and how figures look. ``Preferences`` reads `--locale` and
/// `--color` before parsing, so every command can use them; they are declared here so that
/// every command accepts them and its help lists them.
struct CommonOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("Use the database at this path, or on this PostgreSQL server (postgresql://user@host:port/dbname).", valueName: "path"),
        completion: .file())
    var db: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Show amounts as this locale writes them, like de_DE or fr_FR (default: the config file's locale, else LC_ALL, LC_MONETARY or LANG).",
            valueName: "name"))
    var locale: String?

    @Option(name: .long, help: ArgumentHelp("Colour text output: auto, always or never (default: auto, plain when NO_COLOR is set).", valueName: "when"))
    var color: String?

    /// `--db "$UNSET"` in a script must not quietly write to the default database.
    func validate() throws {
        if let db, db.isEmpty { throw ValidationError("--db needs a file path") }
        if case .unusableServer(let reason) = location { throw ValidationError(reason) }
    }

    func resolvedPath(environment: (String) -> String? = CommonOptions.processEnvironment) -> String {
        Self.resolvedPath(db: db, environment: environment)
    }

    var location: StoreLocation { StoreLocation(resolvedPath()) }

    /// The ledger the command works on; its store opens when a use case first needs it.
    var ledger: Ledger { Ledger(location: location) }

    static func resolvedPath(
        db: String?, environment: (String) -> String? = processEnvironment, configured: String? = Preferences.current.config.db
    ) -> String {
        if let db, !db.isEmpty { return db }
        if let path = environment("TALLY_DB"), !path.isEmpty { return path }
        if let configured { return configured }
        return UserFolders.base("XDG_DATA_HOME", fallback: ".local/share", environment) + "/tally/tally.sqlite"
    }

    /// One variable at a time: `ProcessInfo` builds a dictionary of the whole environment, which
    /// a `tally add` that reads a few variables need not pay for.
    static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
