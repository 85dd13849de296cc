import CGD
import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

/// A decoded PNG, freed with the value.
final class DecodedImage {
    private let image: gdImagePtr

    init?(_ data: Data) {
        let decoded = data.withUnsafeBytes { bytes in
            gdImageCreateFromPngPtr(Int32(bytes.count), UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
        guard let decoded else { return nil }
        image = decoded
    }

    deinit { gdImageDestroy(image) }

    var width: Int { Int(image.pointee.sx) }
    var height: Int { Int(image.pointee.sy) }

    /// The pixel's colour as `0xRRGGBB`.
    func pixel(x: Double, y: Double, scale: Int = 1) -> UInt32 {
        UInt32(gdImageGetTrueColorPixel(image, Int32(x * Double(scale)), Int32(y * Double(scale)))) & 0xFFFFFF
    }
}

struct PNGRendererTests {
    @Test func aMissingLibgdIsNamedWithThePackageToInstall() {
        guard case .failure(let error) = GD.load(name: "libtally-absent.so.3", fallback: "libtally-absent.so") else {
            Issue.record("a library that does not exist loaded")
            return
        }
        let message = error.localizedDescription
        #expect(message.contains("apt-get install libgd3"), "\(message)")
        #expect(message.contains("libtally-absent.so.3:"), "\(message)")
        #expect(!message.contains("libtally-absent.so:"), "\(message)")
    }

    @Test func theInstalledLibgdLoadsByItsRuntimeName() throws {
        _ = try GD.load(name: "libgd.so.3", fallback: "libtally-absent.so").get()
    }

    @Test func dashboardDecodesAtTheLayoutSize() throws {
        let report = try Fixtures.report(Fixtures.store())
        let data = try PNGRenderer().render(report)
        Previews.save(data, as: "dashboard.png")
        let image = try #require(DecodedImage(data))
        let layout = DashboardLayout(report: report)
        #expect(image.width == Int(DashboardLayout.width))
        #expect(image.height == Int(layout.height))
    }

    @Test func aLedgerWithAccountsAddsAMoneyInRowOfCards() throws {
        let plain = DashboardLayout(report: try Fixtures.report(Fixtures.store()))
        #expect(plain.moneyCards.isEmpty && plain.budgetsTitleY == 226)
        let report = try Fixtures.report(Fixtures.accountsStore())
        let layout = DashboardLayout(report: report)
        #expect(layout.moneyCards.count == 3)
        #expect(layout.moneyCards.allSatisfy { $0.y > layout.cards[0].maxY && $0.maxY < layout.budgetsTitleY - 20 })
        #expect(layout.height == plain.height + 92)
        let data = try PNGRenderer().render(report)
        Previews.save(data, as: "dashboard-accounts.png")
        let image = try #require(DecodedImage(data))
        #expect(image.height == Int(layout.height))
        for card in layout.moneyCards {
            #expect(image.pixel(x: card.x + 8, y: card.midY) == 0xF4F6F9)
            // The card's value is drawn in ink.
            var inked = 0
            for x in stride(from: card.x + 18, to: card.x + 120, by: 1) where image.pixel(x: x, y: card.y + 52) == 0x1F2933 { inked += 1 }
            #expect(inked > 3, "\(inked) ink pixels in \(card)")
        }
    }

    @Test func overBudgetBarsHaveTheOverBudgetColour() throws {
        let report = try Fixtures.report(Fixtures.store())
        let layout = DashboardLayout(report: report)
        let image = try #require(DecodedImage(PNGRenderer().render(report)))
        let over = UInt32(bitPattern: Palette.over.gdValue)
        for (line, row) in zip(report.budgets, layout.rows) {
            let colour = image.pixel(x: row.fill.midX, y: row.fill.midY)
            if line.isOver {
                #expect(colour == over, "\(line.name)")
            } else {
                #expect(colour != over, "\(line.name)")
            }
        }
        #expect(report.budgets.filter(\.isOver).count == 1)
    }

    @Test func barsAreSpentAgainstAvailable() throws {
        let report = try Fixtures.report(Fixtures.periodStore(), today: Day(parsing: "2026-12-03"))
        let layout = DashboardLayout(report: report)
        let data = try PNGRenderer().render(report)
        Previews.save(data, as: "periods.png")
        let image = try #require(DecodedImage(data))
        let over = UInt32(bitPattern: Palette.over.gdValue)
        let eatingOut = try #require(zip(report.budgets, layout.rows).first { $0.0.name == "Eating out" })
        #expect(eatingOut.0.spent < eatingOut.0.limit && eatingOut.0.isOver, "over only against what was available")
        #expect(image.pixel(x: eatingOut.1.fill.midX, y: eatingOut.1.fill.midY) == over)
        let groceries = try #require(zip(report.budgets, layout.rows).first { $0.0.name == "Groceries" })
        #expect(abs(groceries.1.fill.width / groceries.1.track.width - 0.4285) < 0.0001)
        #expect(DashboardLayout.amountText(groceries.0) == "180.00 / 420.00")
        #expect(layout.rows.map(\.label) == ["Eating out", "Groceries", "Holidays · year to date", "Paris trip · once"])
    }

    @Test func scaleTwoDoublesBothDimensions() throws {
        let report = try Fixtures.report(Fixtures.store())
        let single = try #require(DecodedImage(PNGRenderer(scale: 1).render(report)))
        let data = try PNGRenderer(scale: 2).render(report)
        Previews.save(data, as: "dashboard@2x.png")
        let double = try #require(DecodedImage(data))
        #expect(double.width == 2 * single.width)
        #expect(double.height == 2 * single.height)
        let layout = DashboardLayout(report: report)
        let overRow = try #require(zip(report.budgets, layout.rows).first { $0.0.isOver }?.1)
        #expect(double.pixel(x: overRow.fill.midX, y: overRow.fill.midY, scale: 2) == UInt32(bitPattern: Palette.over.gdValue))
    }

    @Test func fortyBudgetsGrowTheImageWithoutOverlappingRows() throws {
        let few = try Fixtures.report(Fixtures.manyBudgets(1))
        let many = try Fixtures.report(Fixtures.manyBudgets(40))
        let data = try PNGRenderer().render(many)
        Previews.save(data, as: "forty.png")
        Previews.save(try PNGRenderer().render(few), as: "one.png")
        let image = try #require(DecodedImage(data))
        let layout = DashboardLayout(report: many)
        #expect(image.height == Int(layout.height))
        #expect(layout.height > DashboardLayout(report: few).height + 39 * 30)
        for (upper, lower) in zip(layout.rows, layout.rows.dropFirst()) {
            #expect(lower.track.y - upper.track.maxY >= 20)
        }
        let long = try #require(layout.rows.first)
        #expect(long.label.hasSuffix("…"))
        #expect(Typesetter.layout.width(of: long.label, size: DashboardLayout.nameSize) <= long.track.x - long.labelX)
        #expect(layout.rows.allSatisfy { $0.track.y > layout.cards[0].maxY && $0.track.maxY < layout.cumulativeChart.y })
    }

    @Test func emptyMonthAndNoBudgetsRender() throws {
        let quiet = try Fixtures.report(Fixtures.store(), month: Month(unsafe: "2027-04"))
        #expect(quiet.hasNoExpenses)
        let data = try PNGRenderer().render(quiet)
        Previews.save(data, as: "empty-month.png")
        #expect(DecodedImage(data) != nil)
        let nothing = try Fixtures.report(InMemoryStore(clock: Fixtures.clock))
        let empty = try PNGRenderer().render(nothing)
        Previews.save(empty, as: "no-budgets.png")
        let image = try #require(DecodedImage(empty))
        #expect(image.height == Int(DashboardLayout(report: nothing).height))
        #expect(DashboardLayout(report: nothing).emptyBudgets != nil)
    }

    @Test func nonLatinNamesRender() throws {
        let report = try Fixtures.report(Fixtures.internationalStore())
        let data = try PNGRenderer().render(report)
        Previews.save(data, as: "international.png")
        #expect(DecodedImage(data) != nil)
    }

    @Test func singleChartsRenderForTheHTMLPage() throws {
        let report = try Fixtures.report(Fixtures.store())
        for chart in [PNGRenderer.Chart.cumulative, .trend] {
            let image = try #require(DecodedImage(PNGRenderer(scale: 2).render(chart, of: report, width: 500, height: 300)))
            #expect(image.width == 1000)
            #expect(image.height == 600)
        }
    }
}
