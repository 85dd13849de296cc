import Foundation
import Mustache
import TallyCore

/// Renders a report over time as one self-contained HTML page from the built-in
/// `range.html` template: the stacked chart as a PNG in a `data:` URL, the table as HTML that
/// scrolls sideways on a phone with the names kept in view.
public struct RangeHTMLRenderer: Sendable {
    static let mainTemplate = "range.html"

    public var chartScale: Int
    /// How amounts look: the locale's and the ledger currency's, or ``MoneyFormat/plain``.
    public var money: MoneyFormat
    /// Partials to add or replace (see ``HTMLRenderer/partials``).
    public var partials: [String: String] = [:]

    public init(chartScale: Int = 2, money: MoneyFormat = .plain) {
        self.chartScale = chartScale
        self.money = money
    }

    public func render(_ report: RangeReport) throws(ReportError) -> String {
        var library = MustacheLibrary()
        for (name, text) in EmbeddedTemplates.all {
            do {
                try library.register(text, named: name)
            } catch {
                throw .invalidTemplate(path: "templates/\(name).mustache", reason: "\(error)")
            }
        }
        try HTMLRenderer.register(partials, in: &library)
        let context = try context(report)
        guard let page = library.render(context, withTemplate: Self.mainTemplate) else {
            throw .drawingFailed("the built-in range report template is missing")
        }
        return page
    }

    private func context(_ report: RangeReport) throws(ReportError) -> [String: Any] {
        let chart = try RangePNGRenderer(scale: chartScale, money: money).renderChart(report)
        let layout = RangeLayout(report: report, withTable: false)
        return [
            "title": RangeText.title(report),
            "from": report.range.first.isoString,
            "to": report.range.last.isoString,
            "kind": report.kind.rawValue,
            "rowTitle": report.kind == .budget ? "Budget" : "Tag",
            "spent": money.string(report.total.total),
            "hasAvailable": report.total.available != nil,
            "available": report.total.available.map(money.string) ?? "",
            "chart": "data:image/png;base64," + chart.base64EncodedString(),
            "chartWidth": String(Int(layout.width)),
            "chartHeight": String(Int(layout.height)),
            "periods": report.periods.map { ["period": $0.month.isoString, "label": RangePainter.shortLabel($0.month)] },
            "compared": report.comparison != nil,
            "rows": report.rows.enumerated().map { row($1, color: RangeLayout.color(ofRow: $0)) },
            "total": row(report.total, color: nil),
            "hasRows": !report.rows.isEmpty,
            // The money-in table, once the ledger has an account.
            "hasAccounts": report.hasAccounts,
            "moneyIn": [
                ("Income", report.moneyIn.map { money.string($0.income) }),
                ("Spending", report.moneyIn.map { money.string($0.spending) }),
                ("Saved", report.moneyIn.map { money.string($0.saved) }),
                ("Savings rate", report.moneyIn.map { $0.savingsRate?.percentString ?? "n/a" }),
                ("Net worth", report.moneyIn.map { $0.netWorth.map(money.string) ?? "n/a" }),
            ].map { name, values -> [String: Any] in ["name": name, "values": values] },
            // Spending in other currencies over the range, when there is some.
            "hasCurrencies": !report.byCurrency.isEmpty,
            "currencies": report.byCurrency.map {
                [
                    "currency": $0.original.currency.code, "original": $0.original.description, "amount": money.string($0.converted),
                    "expenses": String($0.expenseCount),
                ]
            },
            "notes": RangeText.notes(report),
        ]
    }

    private func row(_ row: RangeReport.Row, color: Color?) -> [String: Any] {
        var values: [String: Any] = [
            "name": row.name,
            "cells": row.cells.indices.map { index -> [String: Any] in
                let cell = row.cells[index]
                return ["spent": money.string(cell.spent), "hasShare": cell.share != nil, "share": cell.share?.percentString ?? "", "over": row.level(at: index) == .over]
            },
            "total": money.string(row.total),
            "average": money.string(row.average),
        ]
        if let color { values["color"] = color.cssString }
        if let change = row.change {
            values["change"] = ["base": money.string(change.base), "amount": money.signed(change.amount), "percent": change.percentString ?? "–"]
        }
        return values
    }
}

extension Color {
    /// `#2f6fde`, for a swatch matching the chart's colour.
    var cssString: String {
        "#" + [red, green, blue].map { String(format: "%02x", Int($0)) }.joined()
    }
}
