import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

struct HTMLRendererTests {
    static let hostile = ["<script>alert(1)</script>", "<img src=x onerror=alert(2)>"]

    static func hostileStore() throws -> InMemoryStore {
        let store = InMemoryStore(clock: Fixtures.clock)
        for (index, name) in hostile.enumerated() {
            let budget = try store.addBudget(Budget(name: name, limit: Money(cents: 10_000), createdAt: Fixtures.clock()))
            _ = try store.addExpense(
                Expense(name: name, amount: Money(cents: 4_200 + Int64(index)), date: Day(year: 2026, month: 11, day: 5),
                        budgetID: budget.id ?? 0, tags: ["\"quoted\" & <tag>"], createdAt: Fixtures.clock())
            )
        }
        return store
    }

    @Test func userTextIsEscaped() throws {
        let html = try HTMLRenderer().render(Fixtures.report(Self.hostileStore()))
        Previews.save(Data(html.utf8), as: "hostile.html")
        for name in Self.hostile {
            #expect(!html.contains(name))
        }
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;img src=x onerror=alert(2)&gt;"))
        #expect(html.contains("&quot;quoted&quot; &amp; &lt;tag&gt;"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
    }

    @Test func pageIsSelfContained() throws {
        let html = try HTMLRenderer().render(Fixtures.report(Fixtures.store()))
        Previews.save(Data(html.utf8), as: "report.html")
        #expect(!html.contains("http://"))
        #expect(!html.contains("https://"))
        #expect(!html.contains("<link"))
        #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == 3)
        #expect(html.contains("<meta name=\"viewport\""))
        #expect(html.contains("@media print"))
        #expect(html.contains("Eating out") && html.contains("1,695.65"))
    }

    @Test func aPeriodFromThe25thShowsItsDatesCarriedAndAvailable() throws {
        let html = try HTMLRenderer().render(Fixtures.report(Fixtures.periodStore()))
        Previews.save(Data(html.utf8), as: "periods.html")
        #expect(html.contains("<title>Tally report · November 2026 (25 Nov – 24 Dec)</title>"))
        #expect(html.contains("<time datetime=\"2026-11-25\">25 Nov – 24 Dec 2026</time>"))
        #expect(html.contains("<th scope=\"col\" class=\"num\">Carried</th><th scope=\"col\" class=\"num\">Available</th>"))
        #expect(html.contains("<td class=\"num\" data-label=\"Carried\">50.00</td>"))
        #expect(html.contains("<td class=\"num\" data-label=\"Available\">420.00</td>"))
        #expect(html.contains("<td class=\"num\" data-label=\"Carried\">-30.00</td>"))
        #expect(html.contains("<td class=\"num\" data-label=\"Available\">3,940.00</td>"), "the total")
        #expect(html.contains("year to date, 25 Jan – 24 Dec 2026"))
        #expect(html.contains("once, 1 Jul – 14 Jul 2026"))
        // Bars are spent against available: Groceries 180 of 420, Eating out over at 130 of 120.
        #expect(html.contains("style=\"width: 42%\""))
        #expect(html.components(separatedBy: "<tr class=\"budget over\">").count == 2)
        #expect(html.contains("class=\"name\">Eating out <span class=\"badge\">over</span>"))
        #expect(html.contains("limit 3,950.00 · carried 20.00"))
    }

    @Test func aCalendarMonthShowsItsDatesToo() throws {
        let html = try HTMLRenderer().render(Fixtures.report(Fixtures.store()))
        #expect(html.contains("<time datetime=\"2026-11-01\">1 Nov – 30 Nov 2026</time>"))
        #expect(html.contains("<title>Tally report · November 2026</title>"))
        #expect(!html.contains("class=\"sub coverage\""))
        #expect(!html.contains("limit 1,750.00 · carried"), "available equals the limit: no note")
    }

    @Test func aLedgerWithAccountsShowsMoneyInCards() throws {
        let page = try HTMLRenderer().render(Fixtures.report(Fixtures.accountsStore()))
        #expect(page.contains("aria-label=\"Money in\""))
        for text in ["3,200.00", "1,504.35", "savings rate 47.0%", "9,100.00", "unbudgeted 1,450.00"] {
            #expect(page.contains(text), "\(text)")
        }
        let plain = try HTMLRenderer().render(Fixtures.report(Fixtures.store()))
        #expect(!plain.contains("Money in"))
    }

    @Test func emptyMonthSaysSo() throws {
        let html = try HTMLRenderer().render(Fixtures.report(Fixtures.store(), month: Month(unsafe: "2027-04")))
        #expect(html.contains("No expenses in April 2027."))
        let none = try HTMLRenderer().render(Fixtures.report(InMemoryStore(clock: Fixtures.clock)))
        #expect(none.contains("No budgets yet."))
    }

    @Test func templatesAreEmbeddedInTheBinary() {
        #expect(HTMLRenderer.templateNames.contains("report.html"))
        #expect(HTMLRenderer.templateNames.contains("styles"))
    }

    @Test func userTemplateRendersWithTheBuiltInPartials() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("mine.mustache")
        try Data("<h1>{{monthName}}</h1>{{#budgets}}<p>{{name}}={{spent}}</p>{{/budgets}}".utf8).write(to: URL(fileURLWithPath: path))
        let html = try HTMLRenderer(templateAt: path).render(Fixtures.report(Self.hostileStore()))
        #expect(html.hasPrefix("<h1>November 2026</h1><p>&lt;img src=x onerror=alert(2)&gt;=42.01</p>"))
    }

    @Test func unreadableOrBrokenTemplatesAreClearErrors() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("missing.mustache")
        #expect(throws: ReportError.templateUnreadable(path: missing, reason: "no such file")) {
            try HTMLRenderer(templateAt: missing)
        }
        let broken = directory.path("broken.mustache")
        try Data("{{#budgets}}never closed".utf8).write(to: URL(fileURLWithPath: broken))
        do {
            _ = try HTMLRenderer(templateAt: broken)
            Issue.record("a broken template was accepted")
        } catch {
            guard case .invalidTemplate(let path, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == broken)
            #expect(error.errorDescription?.contains("is not valid Mustache") == true)
            #expect(error.errorDescription?.contains("\n") == false)
        }
    }
}
