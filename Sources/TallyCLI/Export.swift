import ArgumentParser
import Foundation
import TallyCore
import TallyImportExport

extension Tally {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export expenses as CSV or JSON.",
            discussion: """
                CSV has the header 'tally import' reads, rows ordered by date then id, so an export \
                imported into an empty database exports identically. JSON holds the budgets too and \
                restores them on import, so it doubles as a backup. With --output the file appears \
                only once it is complete.
                """
        )

        @Option(help: "Write this format (default: from the --output extension, else csv).")
        var format: ImportFormat?

        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
        var output: String?

        @Option(name: [.customShort("b"), .long], help: "Export only this budget.")
        var budget: String?

        @Option(help: ArgumentHelp("Export only this month's expenses.", valueName: "YYYY-MM"))
        var month: String?

        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let month { _ = try ArgumentValue.month(month) }
            if let output, output.isEmpty { throw ValidationError("--output needs a file name") }
        }

        func run() throws {
            let format = format ?? output.flatMap { ImportFormat(path: $0) } ?? .csv
            var query = ExpenseQuery(sort: .date)
            if let month { query.days = try ArgumentValue.month(month).days }
            let database = try store.openStore()
            var budgets = try database.budgets()
            if let budget {
                let chosen = try database.budget(named: budget)
                budgets = [chosen]
                query.budgetID = chosen.id
            }
            var names: [Int64: String] = [:]
            for each in budgets { names[each.id ?? 0] = each.name }

            let write = { (sink: any ByteSink) throws(TallyError) -> Int in
                var exported = 0
                switch format {
                case .csv:
                    let writer = CSVExportWriter(sink: sink)
                    try writer.begin()
                    try database.forEachExpense(query) { (expense: TallyCore.Expense) throws(TallyError) in
                        try writer.write(expense, budgetName: names[expense.budgetID] ?? "")
                        exported += 1
                    }
                    try writer.finish()
                case .json:
                    let writer = JSONExportWriter(sink: sink)
                    try writer.begin(budgets: budgets)
                    try database.forEachExpense(query) { (expense: TallyCore.Expense) throws(TallyError) in
                        try writer.write(expense, budgetName: names[expense.budgetID] ?? "")
                        exported += 1
                    }
                    try writer.finish()
                }
                return exported
            }

            guard let output else {
                fflush(nil)
                _ = try write(FileDescriptorSink(fileDescriptor: STDOUT_FILENO))
                return
            }
            let exported = try AtomicFile.write(to: output, write)
            Console.write("Exported \(counted(exported, "expense")) to \(quoted(output)).")
        }
    }
}

/// Writes a file under a temporary name beside it and renames it into place once complete,
/// so a failed export never leaves half a file, nor destroys the one it would have replaced.
enum AtomicFile {
    static func write<T>(to path: String, _ body: (any ByteSink) throws(TallyError) -> T) throws(TallyError) -> T {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .storage("cannot write \(quoted(path)): \(String(cString: strerror(errno)))")
        }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do throws(TallyError) {
            let result = try body(FileDescriptorSink(fileDescriptor: descriptor))
            guard fsync(descriptor) == 0 else { throw TallyError.storage("cannot write \(quoted(path)): \(String(cString: strerror(errno)))") }
            closed = true
            guard close(descriptor) == 0, rename(temporary, path) == 0 else {
                throw TallyError.storage("cannot write \(quoted(path)): \(String(cString: strerror(errno)))")
            }
            return result
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
