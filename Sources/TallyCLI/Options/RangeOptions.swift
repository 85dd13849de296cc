import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// The options of `report` that make it a report over time: which periods (`--from`/`--to` or
/// `--year`), which rows (`--by tag`), what narrows it (`--budget`, `--tag`) and what it is
/// compared with (`--compare`). Values are read as text and checked here, so a bad one fails
/// with Tally's one-line message (exit 64) before the ledger is opened.
struct RangeOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Report over time from the period that starts in this month, \(PhraseHelp.months).", valueName: "month"))
    var from: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Report over time up to this month's period (default with --from: the current one).", valueName: "month"))
    var to: String?

    @Option(help: ArgumentHelp("Report over the twelve periods of this year, YYYY.", valueName: "year"))
    var year: String?

    @Option(
        help: ArgumentHelp("Compare with the previous range of the same length, or the same periods a year earlier.", valueName: "previous|last-year"),
        completion: .list(RangeReport.Baseline.allCases.map(\.rawValue)))
    var compare: String?

    @Option(help: ArgumentHelp("Make tags the rows instead of budgets.", valueName: "tag"), completion: .list(["tag"]))
    var by: String?

    @Option(name: [.customShort("b"), .long], help: "Report only this budget (repeatable).", completion: .budgetNames)
    var budget: [String] = []

    @Option(help: "Count only expenses with this tag.", completion: .tags)
    var tag: String?

    /// Whether any option asks for a report over time.
    var asksForRange: Bool { from != nil || to != nil || year != nil }

    /// The options that only a report over time reads, by flag, when given.
    var rangeOnlyFlags: [String] {
        [("--compare", compare != nil), ("--by", by != nil), ("--budget", !budget.isEmpty), ("--tag", tag != nil)]
            .filter(\.1).map(\.0)
    }

    func validate() throws {
        if year != nil, from != nil || to != nil { throw ValidationError("--year cannot be used with --from or --to") }
        if to != nil, from == nil { throw ValidationError("--to needs --from") }
        if !asksForRange, let flag = rangeOnlyFlags.first { throw ValidationError("\(flag) needs --from and --to, or --year") }
        _ = try span()
        _ = try options()
    }

    /// The periods asked for; `nil` for the single-period report. Two ISO months are checked
    /// against each other now; phrases once the ledger's calendar is known.
    func span() throws(ValidationError) -> PeriodsReport.Span? {
        if let year {
            guard year.utf8.count == 4, year.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(year) else {
                throw ValidationError("invalid year \(quoted(year)): use YYYY")
            }
            do { _ = try PeriodRange(year: number) } catch { throw ValidationError("invalid year \(quoted(year)): use YYYY") }
            return .year(number)
        }
        guard let from else { return nil }
        let first = try ArgumentValue.period(from)
        let last = try to.map { (text: String) throws(ValidationError) in try ArgumentValue.period(text) } ?? .current
        if case .month(let start) = first, case .month(let end) = last {
            do { _ = try PeriodRange(from: start, to: end) } catch { throw ValidationError(error.message) }
        }
        return .months(from: first, to: last)
    }

    func options() throws(ValidationError) -> RangeReportBuilder.Options {
        var baseline: RangeReport.Baseline?
        if let compare {
            guard let value = RangeReport.Baseline(rawValue: compare) else {
                throw ValidationError("invalid --compare \(quoted(compare)): use previous or last-year")
            }
            baseline = value
        }
        if let by, by != "tag" { throw ValidationError("invalid --by \(quoted(by)): use tag") }
        if let tag { _ = try ArgumentValue.tags([tag]) }
        return RangeReportBuilder.Options(kind: by == nil ? .budget : .tag, budgets: budget, tag: tag, baseline: baseline)
    }
}
