import Foundation
import TallyCore

/// Renders a report over time as tidy CSV, one row per period, row and measure, ready for a
/// spreadsheet or a plotting tool: `period,kind,key,measure,value`.
///
/// `kind` is `budget`, `tag` or `total`; measures per period are `spent`, and for budgets and
/// the total of budgets `available` and `share`. The whole range's figures use the range as the
/// period (`2026-01..2026-12`): `total`, `average`, and with a comparison `base`, `change` and
/// `changeShare` (absent when the base is zero). Amounts are plain two-decimal numbers, shares
/// four-decimal ratios; fields holding a comma, quote or line break are quoted. A ledger with
/// an account adds, per period, kind `money` and key `ledger` with the measures `income`,
/// `spending`, `saved`, `savingsRate` (absent without income) and `netWorth` (absent when no
/// account has a balance at the period's end), after the period's rows. Spending in other
/// currencies adds, for the whole range, kind `currency` and the ISO code as key with the measures
/// `original` (in that currency's own decimals), `amount` (its ledger-currency equivalent) and
/// `expenses`, after the range's rows.
public struct RangeCSVRenderer: Sendable {
    public init() {}

    public func render(_ report: RangeReport) -> String {
        var lines = ["period,kind,key,measure,value"]
        let span = "\(report.range.first.isoString)..\(report.range.last.isoString)"
        let kind = report.kind.rawValue
        for (index, period) in report.periods.enumerated() {
            for (row, rowKind) in report.rows.map({ ($0, kind) }) + [(report.total, "total")] {
                let cell = row.cells[index]
                let key = [period.month.isoString, rowKind, row.name]
                lines.append(line(key + ["spent", cell.spent.plainString]))
                if let available = cell.available { lines.append(line(key + ["available", available.plainString])) }
                if let share = cell.share { lines.append(line(key + ["share", share.ratioString])) }
            }
            guard report.hasAccounts, index < report.moneyIn.count else { continue }
            let figures = report.moneyIn[index]
            let key = [period.month.isoString, "money", "ledger"]
            lines.append(line(key + ["income", figures.income.plainString]))
            lines.append(line(key + ["spending", figures.spending.plainString]))
            lines.append(line(key + ["saved", figures.saved.plainString]))
            if let rate = figures.savingsRate { lines.append(line(key + ["savingsRate", rate.ratioString])) }
            if let netWorth = figures.netWorth { lines.append(line(key + ["netWorth", netWorth.plainString])) }
        }
        for (row, rowKind) in report.rows.map({ ($0, kind) }) + [(report.total, "total")] {
            let key = [span, rowKind, row.name]
            lines.append(line(key + ["total", row.total.plainString]))
            lines.append(line(key + ["average", row.average.plainString]))
            if let change = row.change {
                lines.append(line(key + ["base", change.base.plainString]))
                lines.append(line(key + ["change", change.amount.plainString]))
                if let ratio = change.ratioString { lines.append(line(key + ["changeShare", ratio])) }
            }
        }
        for entry in report.byCurrency {
            let key = [span, "currency", entry.original.currency.code]
            lines.append(line(key + ["original", entry.original.plainString]))
            lines.append(line(key + ["amount", entry.converted.plainString]))
            lines.append(line(key + ["expenses", String(entry.expenseCount)]))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(_ fields: [String]) -> String {
        fields.map(Self.field).joined(separator: ",")
    }

    /// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
