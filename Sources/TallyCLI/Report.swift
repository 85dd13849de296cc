import ArgumentParser
import Foundation
import TallyCore
import TallyImportExport
import TallyReports
import TallyStores
import TallyUseCases

extension Tally {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Show or write the report of a month, or of several periods.",
            discussion: """
                Text and JSON print to stdout unless --output is given. PNG and HTML are written to \
                --output, else to tally-report-YYYY-MM.png or .html in the current directory, and \
                the path is printed. Text on stdout is coloured as --color says: by default only \
                when stdout is a terminal and NO_COLOR is unset. Amounts follow the locale and the \
                ledger's currency in text, PNG and HTML; JSON and CSV keep plain decimals, and JSON \
                names the currency. With --from and --to, or --year, the report runs over several \
                periods (at most 120): per budget, or per tag with --by tag, what was spent in each \
                period and its share of what was available, the total and the average. CSV is for \
                these reports only; their files are named tally-report-FROM--TO. Once the ledger \
                has an account, every report adds income, spending, saved, the savings rate and net \
                worth (per period over time; a month adds what no budget holds); JSON always carries \
                these keys.
                """
        )

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case text, json, csv, png, html
        }

        @OptionGroup var store: CommonOptions

        @OptionGroup var month: MonthOption

        @OptionGroup var range: RangeOptions

        @Option(help: "Write the report as this format.")
        var format: Format = .text

        @Option(help: "Write the report to this file.")
        var output: String?

        @Option(help: "Draw images at this pixel density: 1, or 2 for high-density screens.")
        var scale: Int = 1

        @Option(help: "Render the HTML report with this Mustache template.")
        var template: String?

        @Flag(
            inversion: .prefixedNo,
            help: "Whether each budget over or past its warning level explains itself, with its largest expenses and the tags and names that grew most against the three periods before (on unless --no-explain).")
        var explain: Bool?

        func validate() throws {
            guard scale == 1 || scale == 2 else { throw ValidationError("invalid scale \(scale): use 1 or 2") }
            if template != nil, format != .html { throw ValidationError("--template needs --format html") }
            if let output, output.isEmpty { throw ValidationError("--output needs a file path") }
            if month.month != nil, range.asksForRange {
                throw ValidationError("--month cannot be used with \(range.year != nil ? "--year" : "--from or --to")")
            }
            if range.asksForRange, template != nil { throw ValidationError("--template is for the report of one month") }
            if range.asksForRange, explain != nil { throw ValidationError("--\(explain == true ? "" : "no-")explain is for the report of one month") }
            if !range.asksForRange, format == .csv { throw ValidationError("--format csv needs --from and --to, or --year") }
        }

        func run() throws {
            if let span = try range.span() {
                return try runOverTime(span)
            }
            try request.run()
        }

        /// The report of one period as plain values, as `QuickReport` reads it too.
        var request: MonthReportRequest {
            MonthReportRequest(month: month.month, format: format, output: output, scale: scale, template: template, explain: explain ?? true, db: store.db)
        }

        private func runOverTime(_ span: PeriodsReport.Span) throws {
            let report = try PeriodsReport(span: span, options: range.options(), today: Day.today()).run(in: store.ledger)
            let name = "tally-report-\(report.range.first.isoString)--\(report.range.last.isoString)"
            let money = format == .json || format == .csv ? .plain : Preferences.current.moneyFormat(currency: report.currency)
            switch format {
            case .text: try emit(Data(RangeTextRenderer(money: money).render(report).utf8))
            case .json: try emit(Data(RangeJSONRenderer().render(report).utf8))
            case .csv: try emit(Data(RangeCSVRenderer().render(report).utf8))
            case .png: try save(RangePNGRenderer(scale: scale, money: money).render(report), defaultName: "\(name).png")
            case .html: try save(Data(RangeHTMLRenderer(chartScale: 2, money: money).render(report).utf8), defaultName: "\(name).html")
            }
        }

        private func emit(_ data: Data) throws(TallyError) {
            try ReportOutput(path: output).emit(data)
        }

        private func save(_ data: Data, defaultName: String) throws(TallyError) {
            try ReportOutput(path: output).save(data, defaultName: defaultName)
        }
    }
}

/// The report of one period as plain values, which `QuickReport` can build without ArgumentParser.
struct MonthReportRequest: Equatable {
    var month: String?
    var format: Tally.Report.Format = .text
    var output: String?
    var scale = 1
    var template: String?
    var explain = true
    var db: String?

    func run() throws {
        let month = try month.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) } ?? .current
        // Read the template before the database, so a bad template fails fast and alone.
        var htmlRenderer = try template.map { (path: String) throws(ReportError) in try HTMLRenderer(templateAt: path, chartScale: 2) }
        let location = StoreLocation(CommonOptions.resolvedPath(db: db))
        if case .unusableServer(let reason) = location { throw ValidationError(reason) }
        let ledger = Ledger(location: location)
        defer { ledger.closeUntilExit() }
        let report = try MonthReport(period: month, today: Day.today(), explain: explain).run(in: ledger)
        let preferences = Preferences.current
        let money = format == .json ? .plain : preferences.moneyFormat(currency: report.currency)
        let out = ReportOutput(path: output)
        switch format {
        case .text:
            let text = TextRenderer(useColor: output == nil && preferences.colorsStandardOutput, money: money).render(report)
            try out.emit(Data(text.utf8))
        case .json:
            try out.emit(Data(JSONRenderer().render(report).utf8))
        case .csv:
            // `validate()` refuses it first; CSV is for reports over time.
            throw ValidationError("--format csv needs --from and --to, or --year")
        case .png:
            try out.save(PNGRenderer(scale: scale, money: money).render(report), defaultName: "tally-report-\(report.month.isoString).png")
        case .html:
            htmlRenderer?.money = money
            let renderer = htmlRenderer ?? HTMLRenderer(chartScale: 2, money: money)
            try out.save(Data(renderer.render(report).utf8), defaultName: "tally-report-\(report.month.isoString).html")
        }
    }
}

/// Where a report goes: text formats to stdout unless a file was asked for, images and pages to
/// the file or to a default name in the current directory.
struct ReportOutput {
    var path: String?

    func emit(_ data: Data) throws(TallyError) {
        guard path != nil else {
            var text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\n") { text.removeLast() }
            Console.write(text)
            return
        }
        try save(data, defaultName: "")
    }

    func save(_ data: Data, defaultName: String) throws(TallyError) {
        let path = self.path ?? defaultName
        try AtomicFile.write(Array(data), to: path, durable: false)
        Console.write(path)
    }
}
