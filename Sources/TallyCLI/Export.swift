import ArgumentParser
import Foundation
import TallyCore
import TallyImportExport
import TallyUseCases

extension Tally {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export expenses as CSV or JSON.",
            discussion: """
                CSV has the header 'tally import' reads, rows ordered by date then id, so an export \
                imported into an empty database exports identically; a split expense is a row per line \
                tied by its id, a refund has kind refund, and an expense in another currency its original, \
                currency, rate and rate source, all of which import reads back. JSON holds the budgets, settings \
                and recurring bills too and restores them on import, so it doubles as a backup. With --output the file appears \
                only once it is complete.
                """
        )

        @Option(help: "Write this format (default: from the --output extension, else csv).")
        var format: ImportFormat?

        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
        var output: String?

        @Option(name: [.customShort("b"), .long], help: "Export only this budget.", completion: .budgetNames)
        var budget: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("Export only this month's expenses, \(PhraseHelp.months).", valueName: "month"))
        var month: String?

        @OptionGroup var store: CommonOptions

        func validate() throws {
            if let month { _ = try ArgumentValue.period(month) }
            if let output, output.isEmpty { throw ValidationError("--output needs a file name") }
        }

        func run() throws {
            var export = ExportLedger(
                format: format ?? output.flatMap { ImportFormat(path: $0) } ?? .csv, budget: budget)
            export.period = try month.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) }
            let ledger = store.ledger
            guard let output else {
                fflush(nil)
                _ = try export.run(in: ledger, to: FileDescriptorSink(fileDescriptor: STDOUT_FILENO))
                return
            }
            let exported = try AtomicFile.write(to: output) { (sink: any ByteSink) throws(TallyError) in
                try export.run(in: ledger, to: sink)
            }
            Console.write("Exported \(counted(exported, "expense")) to \(quoted(output)).")
        }
    }
}
