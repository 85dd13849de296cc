import ArgumentParser
import Foundation
import TallyCore
import TallyStores
import TallyUseCases

/// Where the database lives: `--db`, else `$TALLY_DB`, else `$XDG_DATA_HOME/tally/tally.sqlite`.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Use the database at this path.", valueName: "path"), completion: .file())
    var db: String?

    /// `--db "$UNSET"` in a script must not quietly write to the default database.
    func validate() throws {
        if let db, db.isEmpty { throw ValidationError("--db needs a file path") }
    }

    func resolvedPath(environment: (String) -> String? = StoreOptions.processEnvironment) -> String {
        Self.resolvedPath(db: db, environment: environment)
    }

    var location: StoreLocation { StoreLocation(resolvedPath()) }

    /// The ledger the command works on; its store opens when a use case first needs it.
    var ledger: Ledger { Ledger(location: location) }

    static func resolvedPath(db: String?, environment: (String) -> String? = processEnvironment) -> String {
        if let db, !db.isEmpty { return db }
        if let path = environment("TALLY_DB"), !path.isEmpty { return path }
        let dataHome: String
        if let xdg = environment("XDG_DATA_HOME"), xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = home + "/.local/share"
        }
        return dataHome + "/tally/tally.sqlite"
    }

    /// One variable at a time: `ProcessInfo`'s whole environment dictionary cost a `tally add`
    /// about 2 million instructions (callgrind).
    static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
