import ArgumentParser
import Foundation
import TallyCore
import TallyImportExport
import TallyReports
import TallyUseCases

extension ImportFormat: ExpressibleByArgument {}
extension ExpenseSign: ExpressibleByArgument {}

extension Tally {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import expenses from a CSV or JSON file, or a bank statement (OFX, camt.053, MT940, QIF), all or nothing.",
            discussion: """
                CSV files need the header date,budget,name,amount,quantity,tags (quantity may be empty; \
                tags are separated by ';'), or --columns naming other headers. JSON files are what \
                'tally export --format json' writes. The whole file is validated and written in one \
                transaction: one bad row imports nothing. Incoming money (the other sign than \
                --expense-sign) is skipped and counted. Rows imported before (the same date, amount \
                and name, counting identical rows within the file, for the same column layout) are \
                left out and counted: importing a file again imports nothing new, and a file that \
                overlaps an earlier one imports only its new rows; --force imports them all.

                A row without a budget cell takes its budget from the first rule that matches its \
                name ('tally rule'), else from --budget, else from --uncategorized, which also \
                tags it 'uncategorized'. When rows are left without a budget, nothing is imported. \
                A name with line breaks or tabs inside its quotes becomes one line.

                The header is the first of the first 50 lines that holds every mapped column; the \
                lines above it (a bank's account details) are left out and counted, or --skip N \
                skips exactly N. Lines at the end whose date cell is missing, empty or does not \
                start with a digit (a balance, totals) are left out and counted; the same lines \
                before a row are read as rows, as ever.

                A bank statement (OFX or QFX, camt.053, MT940, QIF; the content decides whatever \
                the extension says) goes to the account whose IBAN or number it names ('tally \
                account edit NAME --iban …'), else to --account. Debits become expenses (rules, then \
                --budget or --uncategorized), credits incomes, and entries whose other side is \
                another of the ledger's accounts transfers. Entries imported before are left out by \
                the bank's own id. A closing balance that matches the account's is recorded as a \
                balance assertion; one that does not is shown with the difference.
                """
        )

        @Argument(help: ArgumentHelp("The file to import.", valueName: "file"))
        var file: String

        @Option(help: "Read the file as this format: csv, json, ofx, camt053, mt940 or qif (default: from its content, else its extension).")
        var format: ImportFileFormat?

        @Flag(help: "Create the budgets the file names that do not exist yet (needs --limit).")
        var createBudgets = false

        @Option(help: ArgumentHelp("The monthly limit of the budgets --create-budgets creates.", valueName: "amount"))
        var limit: String?

        @Flag(help: "Validate and show what would be imported, without writing anything.")
        var dryRun = false

        @Flag(help: "Import every row, even rows imported before.")
        var force = false

        @Option(help: ArgumentHelp(
            "Map the file's headers: date=COL,name=COL,amount=COL and optionally budget=, quantity=, tags=, by=, currency= (each row's amount in its own currency, converted) and rate= (the rate charged).",
            valueName: "key=column,…"))
        var columns: String?

        @Option(help: ArgumentHelp("Read dates in this layout, such as dd.MM.yyyy (default: yyyy-MM-dd).", valueName: "format"))
        var dateFormat: String?

        @Option(name: [.customShort("b"), .long], help: "Put rows without a budget cell that no rule matches into this budget.", completion: .budgetNames)
        var budget: String?

        @Option(help: ArgumentHelp("Like --budget, and tag those rows 'uncategorized' to sort later.", valueName: "budget"), completion: .budgetNames)
        var uncategorized: String?

        @Option(help: "The sign of expenses in the file: positive (Tally's files, the default) or negative (most bank exports).")
        var expenseSign: ExpenseSign?

        @Option(help: ArgumentHelp("The field separator: ',', ';' or tab (default: the one the header line uses).", valueName: "separator"))
        var delimiter: String?

        @Option(help: ArgumentHelp("The file's character encoding: utf-8 (the default), windows-1252 or latin1.", valueName: "name"))
        var encoding: String?

        @Option(help: ArgumentHelp(
            "Skip exactly this many lines above the header (default: the first line, of the first 50, that holds every mapped column).",
            valueName: "lines"))
        var skip: String?

        @Flag(help: "Amounts use a decimal comma and may group thousands with '.', as in -1.234,56.")
        var decimalComma = false

        @Option(help: ArgumentHelp("Amounts may carry this currency's sign or code, such as €12.50 or 12,50 EUR.", valueName: "code"))
        var currency: String?

        @Option(help: ArgumentHelp("Read the file with a saved profile's settings; flags given here win.", valueName: "name"), completion: .profileNames)
        var profile: String?

        @Option(help: ArgumentHelp(
            "Save this import's columns, date format, expense sign, delimiter, number format, encoding, --skip and fallback as a profile, once it succeeds.",
            valueName: "name"))
        var saveProfile: String?

        @Option(help: ArgumentHelp(
            "Who spent the rows whose file names no one (default: $TALLY_USER, else your login name); a by column wins.",
            valueName: "name"))
        var by: String?

        @Option(
            help: ArgumentHelp(
                "The account a CSV file's expenses were paid from (default: default-account in the config file, else the ledger's).",
                valueName: "name"),
            completion: .accountNames)
        var account: String?

        @OptionGroup var store: CommonOptions

        func validate() throws {
            if limit != nil, !createBudgets {
                throw ValidationError("--limit only applies with --create-budgets")
            }
            if createBudgets, limit == nil {
                throw ValidationError("--create-budgets needs --limit AMOUNT, the monthly limit of the budgets it creates")
            }
            if budget != nil, uncategorized != nil {
                throw ValidationError("--budget and --uncategorized cannot be used together: both name the budget for rows no rule matches")
            }
            if let limit { _ = try ArgumentValue.limit(limit) }
            let format = try resolvedFormat()
            if let statement = format.statement {
                try validateStatementOptions(statement)
            } else if format == .json {
                let csvOnly = [
                    ("--columns", columns != nil), ("--date-format", dateFormat != nil), ("--budget", budget != nil),
                    ("--uncategorized", uncategorized != nil), ("--delimiter", delimiter != nil), ("--profile", profile != nil),
                    ("--save-profile", saveProfile != nil), ("--decimal-comma", decimalComma), ("--currency", currency != nil),
                    ("--encoding", encoding != nil), ("--skip", skip != nil),
                ]
                if let (option, _) = csvOnly.first(where: \.1) {
                    throw ValidationError("\(option) only applies to CSV files")
                }
            }
            if format.statement == nil { _ = try csvOptions() }
            if let by { _ = try ArgumentValue.by(by) }
            if let saveProfile {
                do { _ = try ImportProfile(name: saveProfile).validated() } catch { throw ValidationError(error.message) }
            }
        }

        /// The CSV settings given on the command line, as typed, for a profile.
        private var given: ImportProfile {
            ImportProfile(
                columns: columns, dateFormat: dateFormat, expenseSign: expenseSign?.rawValue, delimiter: delimiter,
                fallbackBudget: budget ?? uncategorized, uncategorized: uncategorized != nil, decimalComma: decimalComma ? true : nil,
                currency: currency?.uppercased(), encoding: try? encoding.map { (name: String) throws(TallyError) in try TextEncoding(name: name).rawValue },
                skip: try? skipLines())
        }

        /// `--skip`, read with our own parser so a bad value gets Tally's one-line message.
        private func skipLines() throws(TallyError) -> Int? {
            guard let skip else { return nil }
            guard let lines = Int(skip) else {
                throw .invalidImportOption(.skip, value: skip, reason: "use a whole number from 0 to \(ImportProfile.maximumSkip)")
            }
            return try HeaderSearch.validatedSkip(lines)
        }

        func resolvedFormat() throws(ValidationError) -> ImportFileFormat {
            if let format { return format }
            guard let format = ImportFileFormat(contentOf: file) else {
                throw ValidationError("cannot tell the format of \(quoted(file)) from its content or extension: use --format csv, json, ofx, camt053, mt940 or qif")
            }
            return format
        }

        private func csvOptions() throws(ValidationError) -> CSVImportOptions {
            do {
                var options = CSVImportOptions(
                    defaultBudget: budget ?? uncategorized, tagsFallbackUncategorized: uncategorized != nil,
                    expenseSign: expenseSign ?? .positive)
                if let delimiter { options.delimiter = try CSVReader.Delimiter(name: delimiter) }
                if let encoding { options.encoding = try TextEncoding(name: encoding) }
                options.amountFormat = AmountFormat(decimalComma: decimalComma, currency: try currency.map { (code: String) throws(TallyError) in try Currency(code: code).code })
                if let columns { options.columns = try ColumnMapping(parsing: columns) }
                if let dateFormat { options.dateFormat = try DateFormat(pattern: dateFormat) }
                options.skipLines = try skipLines()
                return options
            } catch {
                throw ValidationError(Failures.message(for: error))
            }
        }

        func run() throws {
            let started = ContinuousClock.now
            if let statement = try resolvedFormat().statement { return try runStatements(statement, started: started) }
            var options = try csvOptions()
            options.by = try by.map { (name: String) throws(ValidationError) in try ArgumentValue.by(name) } ?? Spender.current()
            var importing = ImportFile(
                path: file, format: try resolvedFormat().document ?? .csv, options: options, force: force,
                missingBudgetLimit: try limit.map { (text: String) throws(ValidationError) in try ArgumentValue.limit(text) })
            importing.profile = profile
            importing.saveProfile = saveProfile
            importing.given = given
            importing.account = account ?? Preferences.current.config.defaultAccount
            if dryRun {
                return Console.write(Import.preview(try importing.dryRun(in: store.ledger), file: file, limit: importing.missingBudgetLimit))
            }
            var progress = ImportProgress(file: file, started: started)
            let result = try importing.run(in: store.ledger) { progress.advance() }
            progress.finish()
            let summary = Import.summary(
                outcome: result.outcome, skipped: result.skipped, assignments: result.assignments, duplicateCount: result.duplicateCount,
                frame: result.frame, file: file, elapsed: started.duration(to: .now))
            Console.write(summary + (saveProfile.map { "\nSaved import profile \(quoted($0))." } ?? ""))
        }

        static func preview(_ preview: ImportFile.Preview, file: String, limit: Money?) -> String {
            let summary = preview.summary
            var lines = ["Dry run: would import \(counted(summary.expenseCount - preview.duplicateCount, "expense")) from \(quoted(file)); nothing was written."]
            if preview.duplicateCount > 0 { lines.append("Already there: \(counted(preview.duplicateCount, "row")).") }
            var table = Table([.left("Budget"), .right("Expenses")])
            for entry in summary.budgets { table.append([entry.name, String(entry.expenseCount)]) }
            if !summary.budgets.isEmpty { lines.append(table.rendered()) }
            lines.append("Skipped \(counted(summary.skippedCount, "row"))\(Import.reasons(summary.skipped)).")
            let frame = Import.frameText(summary.frame)
            if !frame.isEmpty { lines.append("Left out " + frame.dropFirst(2) + ".") }
            let assigned = Import.assignmentsText(summary.assignments)
            if !assigned.isEmpty { lines.append("Rows without a budget cell: " + assigned.dropFirst(2) + ".") }
            if !preview.rows.isEmpty {
                let money = Preferences.current.moneyFormat(currency: nil)
                var rows = Table([.right("Line"), .left("Name"), .right("Amount"), .left("Outcome")])
                for row in preview.rows {
                    rows.append([String(row.line), row.name ?? "", row.amount.map { money.string($0) } ?? "", Import.outcomeText(row.outcome)])
                }
                lines.append(rows.rendered())
            }
            let created = preview.createdBudgets
            if !created.isEmpty {
                let limitText = limit.map { " with a limit of \(Preferences.current.moneyFormat(currency: nil).string($0))" } ?? ""
                lines.append("Would create \(counted(created.count, "budget"))\(limitText): \(created.map { quoted($0) }.joined(separator: ", ")).")
            }
            return lines.joined(separator: "\n")
        }

        static func summary(
            outcome: ImportOutcome, skipped: [SkipReason: Int], assignments: ImportAssignments = ImportAssignments(),
            duplicateCount: Int = 0, frame: CSVFrame = CSVFrame(), file: String, elapsed: Duration
        ) -> String {
            let skippedCount = skipped.values.reduce(0, +)
            var text = "Imported \(counted(outcome.importedCount, "expense")) from \(quoted(file)); "
            text += "skipped \(counted(skippedCount, "row"))\(reasons(skipped)); "
            if !frameText(frame).isEmpty { text += "left out " + frameText(frame).dropFirst(2) + "; " }
            text += "\(counted(duplicateCount, "row")) already there; "
            text += "created \(counted(outcome.createdBudgets.count, "budget"))"
            if !outcome.createdBudgets.isEmpty {
                text += " (\(outcome.createdBudgets.prefix(10).map { quoted($0) }.joined(separator: ", "))"
                text += outcome.createdBudgets.count > 10 ? ", …)" : ")"
            }
            text += Import.assignmentsText(assignments)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            text += "; \(String(format: "%.2f", seconds)) s."
            return text
        }

        /// `; by rule: #2 3 rows, #5 1 row; fallback 2 rows; uncategorized 1 row; names folded onto one line: 1`,
        /// each part only when it counts something.
        static func assignmentsText(_ assignments: ImportAssignments) -> String {
            var parts: [String] = []
            if !assignments.byRule.isEmpty {
                let rules = assignments.byRule.sorted { $0.key < $1.key }.map { "#\($0.key) \(counted($0.value, "row"))" }
                parts.append("by rule: " + rules.joined(separator: ", "))
            }
            if assignments.fallback > 0 { parts.append("fallback \(counted(assignments.fallback, "row"))") }
            if assignments.uncategorized > 0 { parts.append("uncategorized \(counted(assignments.uncategorized, "row"))") }
            if assignments.foldedNames > 0 { parts.append("names folded onto one line: \(assignments.foldedNames)") }
            return parts.map { "; " + $0 }.joined()
        }

        /// `, 6 preamble lines above the header, 1 summary line at the end`, each part only when it
        /// counts something.
        static func frameText(_ frame: CSVFrame) -> String {
            var parts: [String] = []
            if frame.preambleLines > 0 { parts.append("\(counted(frame.preambleLines, "preamble line")) above the header") }
            if frame.footerLines > 0 { parts.append("\(counted(frame.footerLines, "summary line")) at the end") }
            return parts.map { ", " + $0 }.joined()
        }

        /// `new`, `duplicate`, `rule 3 → Coffee`, `fallback`, `uncategorized`, `skipped (incoming)`.
        static func outcomeText(_ outcome: ImportFile.RowPreview.Outcome) -> String {
            switch outcome {
            case .new: "new"
            case .duplicate: "duplicate"
            case .rule(let id, let budget): "rule \(id) → \(budget)"
            case .fallback(let budget): "fallback → \(budget)"
            case .uncategorized(let budget): "uncategorized → \(budget)"
            case .skipped(let reason): "skipped (\(reason == .incoming ? "incoming" : reason.rawValue))"
            }
        }

        /// ` (incoming money: 3, blank line: 1)`, or nothing when no row was skipped.
        static func reasons(_ skipped: [SkipReason: Int]) -> String {
            let parts = skipped.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key.rawValue): \($0.value)" }
            return parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))"
        }
    }
}

/// "1 expense", "2 expenses"; "2 entries".
func counted(_ number: Int, _ noun: String) -> String {
    guard number != 1 else { return "1 \(noun)" }
    if noun.hasSuffix("y"), let before = noun.dropLast().last, !"aeiou".contains(before) { return "\(number) \(noun.dropLast())ies" }
    return "\(number) \(noun)s"
}

/// A line on stderr that counts the rows of a long import, only when a person watches stderr.
struct ImportProgress {
    let file: String
    let started: ContinuousClock.Instant
    private let enabled = isatty(STDERR_FILENO) == 1
    private var rows = 0
    private var shown = false

    init(file: String, started: ContinuousClock.Instant) {
        self.file = file
        self.started = started
    }

    mutating func advance() {
        rows += 1
        // Reading the clock for every row would cost more than the rest of the check.
        guard enabled, rows % 16_384 == 0, started.duration(to: .now) > .seconds(1) else { return }
        shown = true
        FileHandle.standardError.write(Data("\rImporting \(quoted(file)): \(rows) rows…".utf8))
    }

    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
