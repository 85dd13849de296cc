import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally backup`: the snapshots kept beside a ledger file.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "List, make and restore snapshots of the ledger file.",
        discussion: """
            A snapshot is a whole copy of the database in a folder beside it (PATH.snapshots), \
            checked before it is kept. Tally makes one before a schema upgrade, before every \
            import and db copy into the file, and before the first change of each day, and keeps \
            the newest 10 (settings set snapshots N; 0 turns the automatic ones off and removes \
            none). backup create makes one whenever you ask. A PostgreSQL ledger is backed up \
            with pg_dump instead.
            """,
        subcommands: [List.self, Create.self, Restore.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the snapshots, newest first.")

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let snapshots = try ListSnapshots().run(at: store.location)
            if output.json {
                Console.write(try ListJSON.encode(snapshots.map(ListJSON.SnapshotItem.init)))
            } else if snapshots.isEmpty {
                Console.write("No snapshots yet. Make one with 'tally backup create'.")
            } else {
                Console.write(ListRenderers.snapshotsAsTable(snapshots))
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Make a snapshot now, even with automatic snapshots off.")

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let snapshot = try CreateSnapshot().run(at: store.location)
            if output.json {
                Console.write(try ListJSON.encode(ListJSON.SnapshotItem(snapshot)))
            } else {
                Console.write("Saved snapshot \(ListRenderers.snapshotPhrase(snapshot)).")
            }
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore", abstract: "Bring the ledger back to a snapshot.",
            discussion: """
                The snapshot is checked first; the ledger as it is now is saved as a snapshot of \
                its own (reason restore), then replaced in one write. Commands running at the \
                time finish first; restore waits for them like any change, and fails without \
                changing anything when it cannot get its turn.
                """)

        @Argument(help: ArgumentHelp("The snapshot's id, as shown by 'backup list'.", valueName: "id"))
        var id: String

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let (restored, saved) = try RestoreSnapshot(id: id).run(at: store.location)
            if output.json {
                Console.write(try ListJSON.encode(ListJSON.RestoreItem(restored: restored, saved: saved)))
            } else {
                Console.write("Restored snapshot \(ListRenderers.snapshotPhrase(restored)); the ledger as it was is snapshot \(saved.id).")
            }
        }
    }
}
