import ArgumentParser
import Foundation
import TallyCore
import TallyImportExport
import TallyReports
import TallyUseCases

/// What `import --format` takes: Tally's own documents and the bank statement formats.
enum ImportFileFormat: String, CaseIterable, ExpressibleByArgument {
    case csv, json, ofx, camt053, mt940, qif

    var statement: StatementFormat? { StatementFormat(rawValue: rawValue) }
    var document: ImportFormat? { ImportFormat(rawValue: rawValue) }

    /// The format of the file at `path`: what its first bytes show (a bank statement, whatever
    /// the extension says), else its extension. `nil` when neither tells.
    init?(contentOf path: String) {
        if let handle = FileHandle(forReadingAtPath: path) {
            let prefix = (try? handle.read(upToCount: 4096)).map { [UInt8]($0) } ?? []
            try? handle.close()
            if let detected = StatementFormat.detect(prefix: prefix) {
                self.init(rawValue: detected.rawValue)
                return
            }
        }
        let ext = URL(fileURLWithPath: path).pathExtension
        if let document = ImportFormat(path: path) {
            self.init(rawValue: document.rawValue)
        } else if let statement = StatementFormat(extension: ext) {
            self.init(rawValue: statement.rawValue)
        } else {
            return nil
        }
    }
}

extension StatementFormat {
    /// How summaries name the format.
    var title: String {
        switch self {
        case .ofx: "OFX"
        case .camt053: "camt.053"
        case .mt940: "MT940"
        case .qif: "QIF"
        }
    }
}

extension Tally.Import {
    /// The options a statement import takes: the fallback budget, the account, who, and for the
    /// line-based formats the encoding (and QIF's date order, as --date-format).
    func validateStatementOptions(_ format: StatementFormat) throws {
        var csvOnly = [
            ("--columns", columns != nil), ("--delimiter", delimiter != nil), ("--profile", profile != nil),
            ("--save-profile", saveProfile != nil), ("--decimal-comma", decimalComma), ("--currency", currency != nil),
            ("--skip", skip != nil), ("--expense-sign", expenseSign != nil),
        ]
        if format != .qif { csvOnly.append(("--date-format", dateFormat != nil)) }
        if format == .ofx || format == .camt053 { csvOnly.append(("--encoding", encoding != nil)) }
        if let (option, _) = csvOnly.first(where: \.1) {
            throw ValidationError("\(option) does not apply to \(format.title) files")
        }
        _ = try statementReadOptions()
    }

    func statementReadOptions() throws(ValidationError) -> StatementReadOptions {
        var options = StatementReadOptions()
        do throws(TallyError) {
            if let encoding { options.encoding = try TextEncoding(name: encoding) }
            if let dateFormat {
                guard let order = QIFDateOrder(try DateFormat(pattern: dateFormat)) else {
                    throw .invalidImportOption(.dateFormat, value: dateFormat, reason: "a QIF date format puts the day or the month first, such as dd/MM/yy")
                }
                options.qifDateOrder = order
            }
        } catch {
            throw ValidationError(Failures.message(for: error))
        }
        return options
    }

    func runStatements(_ format: StatementFormat, started: ContinuousClock.Instant) throws {
        var importing = ImportStatements(path: file, format: format)
        importing.readOptions = try statementReadOptions()
        importing.account = account ?? Preferences.current.config.defaultAccount
        importing.defaultBudget = budget ?? uncategorized
        importing.tagsUncategorized = uncategorized != nil
        importing.by = try by.map { (name: String) throws(ValidationError) in try ArgumentValue.by(name) } ?? Spender.current()
        importing.force = force
        importing.missingBudgetLimit = try limit.map { (text: String) throws(ValidationError) in try ArgumentValue.limit(text) }
        let ledger = store.ledger
        if dryRun {
            let result = try importing.dryRun(in: ledger)
            let money = try Preferences.current.moneyFormat(for: ledger)
            return Console.write(Self.statementText(result, format: format, file: file, dryRun: true, money: money, elapsed: nil))
        }
        var progress = ImportProgress(file: file, started: started)
        let result = try importing.run(in: ledger) { progress.advance() }
        progress.finish()
        let money = try Preferences.current.moneyFormat(for: ledger)
        Console.write(Self.statementText(result, format: format, file: file, dryRun: false, money: money, elapsed: started.duration(to: .now)))
    }

    /// The import's summary, or the dry run's plan: the totals, then each statement with its
    /// account, period, counts and balance check.
    static func statementText(
        _ result: ImportStatements.Result, format: StatementFormat, file: String, dryRun: Bool, money: MoneyFormat, elapsed: Duration?
    ) -> String {
        let plan = result.plan
        let parts = plan.parts
        let counts = [
            counted(plan.expenseCount, "expense"), counted(parts.reduce(0) { $0 + $1.incomes }, "income"),
            counted(parts.reduce(0) { $0 + $1.transfers }, "transfer"),
        ]
        var head = dryRun ? "Dry run: would import " : "Imported "
        head += "\(counts[0]), \(counts[1]) and \(counts[2]) from \(quoted(file)) (\(format.title))"
        head += "; \(counted(plan.duplicateCount, "entry")) already there"
        let created = result.outcome.createdBudgets
        if !created.isEmpty {
            head += "; \(dryRun ? "would create" : "created") \(counted(created.count, "budget")) (\(created.map { quoted($0) }.joined(separator: ", ")))"
        }
        head += Tally.Import.assignmentsText(plan.assignments)
        if let elapsed {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            head += "; \(String(format: "%.2f", seconds)) s."
        } else {
            head += "; nothing was written."
        }
        var lines = [head]
        if let order = plan.dateOrder { lines.append("Dates read \(order.phrase).") }
        for part in parts {
            var line = "\(part.label.prefix(1).uppercased())\(part.label.dropFirst()) → \(part.account.name)"
            if let period = part.period { line += ", \(period.first.isoString) to \(period.last.isoString)" }
            var figures = [counted(part.expenses, "expense"), counted(part.incomes, "income"), counted(part.transfers, "transfer")]
            if part.duplicates > 0 { figures.append("\(counted(part.duplicates, "entry")) already there") }
            if part.zeroEntries > 0 { figures.append("\(counted(part.zeroEntries, "entry")) of zero left out") }
            lines.append(line + ": " + figures.joined(separator: ", ") + ".")
            var balances: [String] = []
            // A statement in another currency states its balances in it.
            let stated = { (amount: Money) -> String in part.currency.map { "\(amount.plainString) \($0.code)" } ?? money.string(amount) }
            if let opening = part.opening { balances.append("opening \(stated(opening.amount)) on \(opening.day.isoString)") }
            switch part.balance {
            case .matches(let day, let balance, let recorded):
                let outcome = !recorded ? ", as reconciled before" : dryRun ? ": would be recorded as a balance assertion" : ": recorded as a balance assertion"
                balances.append("closing \(money.string(balance)) on \(day.isoString) matches the account" + outcome)
            case .differs(let day, let stated, let computed, let difference):
                balances.append(
                    "closing \(money.string(stated)) on \(day.isoString), Tally has \(money.string(computed)): a difference of "
                        + "\(money.string(difference)) ('tally reconcile' lists the entries)")
            case .beforeOpening(let day):
                balances.append("closing on \(day.isoString), before the account opens: not compared")
            case .otherCurrency(let currency):
                if let closing = part.closing {
                    balances.append("closing \(stated(closing.amount)) on \(closing.day.isoString): not compared, the account counts its entries in the ledger's currency")
                }
                lines.append("  Amounts in \(currency.code) converted at the rate table's rate on each entry's day.")
            case nil:
                break
            }
            if !balances.isEmpty { lines.append("  " + balances.joined(separator: "; ").capitalizedFirst + ".") }
        }
        return lines.joined(separator: "\n")
    }
}

extension QIFDateOrder {
    /// "month first (MM/DD/YY)".
    var phrase: String { self == .dayFirst ? "day first (DD/MM/YY)" : "month first (MM/DD/YY)" }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
