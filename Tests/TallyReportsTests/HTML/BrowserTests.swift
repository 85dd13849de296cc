import Foundation
import TallyCore
import TallyInMemory
import Testing
@testable import TallyReports

/// Opens the HTML report in Debian's headless Chromium. Without a browser the test is skipped
/// on a developer machine but fails under CI, where `.ci/run` installs one.
@Suite(.enabled(if: Browser.path != nil || ProcessInfo.processInfo.environment["CI"] != nil))
struct BrowserTests {
    @Test func renderedPageHoldsEveryBudgetAndScreenshots() throws {
        let browser = try #require(Browser.path, "chromium is not installed; install Debian's chromium package")
        let directory = try TemporaryDirectory()
        let report = try Fixtures.report(Fixtures.internationalStore())
        let page = directory.path("report.html")
        try Data(HTMLRenderer().render(report).utf8).write(to: URL(fileURLWithPath: page))
        let url = URL(fileURLWithPath: page).absoluteString

        let dom = try Browser.run(browser, ["--dump-dom", url], profile: directory.path("profile-dom"))
        #expect(dom.status == 0)
        for line in report.budgets {
            #expect(dom.output.contains(line.name), "\(line.name)")
            #expect(dom.output.contains(line.spent.groupedString), "\(line.spent.groupedString)")
            #expect(dom.output.contains(line.limit.groupedString), "\(line.limit.groupedString)")
        }

        let screenshot = directory.path("screenshot.png")
        let shot = try Browser.run(browser, ["--screenshot=\(screenshot)", "--window-size=1000,1600", url], profile: directory.path("profile-shot"))
        #expect(shot.status == 0)
        let data = try #require(FileManager.default.contents(atPath: screenshot))
        Previews.save(data, as: "screenshot.png")
        let image = try #require(DecodedImage(data))
        #expect(image.width == 1000)
        #expect(image.height == 1600)
    }
}

/// Budget names wrap between words, never inside one ("Entertain|ment"), at a phone's width
/// and at a narrow desktop's, where the budget column is squeezed by the figures beside it.
@Suite(.enabled(if: Browser.path != nil || ProcessInfo.processInfo.environment["CI"] != nil))
struct NameWrappingTests {
    @Test(arguments: [390, 620, 800])
    func budgetNamesWrapAtWordBoundaries(width: Int) throws {
        let browser = try #require(Browser.path, "chromium is not installed; install Debian's chromium package")
        let directory = try TemporaryDirectory()
        let store = InMemoryStore(clock: Fixtures.clock)
        let names = ["Entertainment", "Subscriptions and memberships", "Household maintenance and repairs", "Groceries"]
        for (offset, name) in names.enumerated() {
            let budget = try store.addBudget(Budget(name: name, limit: Money(cents: 123_456_789), createdAt: Fixtures.clock()))
            _ = try store.addExpense(
                Expense(name: "Bill \(offset)", amount: Money(cents: 98_765_432), date: Day(year: 2026, month: 11, day: 3 + offset),
                    budgetID: budget.id ?? 0, createdAt: Fixtures.clock()))
        }
        // The page measures itself: every word of a budget name must lie on one line.
        let probe = """
            <script>
            const split = [];
            for (const cell of document.querySelectorAll('.budget-table tbody th.name')) {
              const text = cell.firstChild;
              let at = 0;
              for (const word of text.textContent.split(' ')) {
                const range = document.createRange();
                range.setStart(text, at); range.setEnd(text, at + word.length);
                const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (tops.size > 1) split.push(word);
                at += word.length + 1;
              }
            }
            document.body.setAttribute('data-split', split.join(',') || 'none');
            </script>
            """
        let html = try HTMLRenderer().render(Fixtures.report(store)).replacingOccurrences(of: "</body>", with: probe + "</body>")
        let page = directory.path("names.html")
        try Data(html.utf8).write(to: URL(fileURLWithPath: page))
        let dom = try Browser.run(
            browser, ["--dump-dom", "--window-size=\(width),900", URL(fileURLWithPath: page).absoluteString], profile: directory.path("profile"))
        #expect(dom.status == 0)
        #expect(dom.output.contains("data-split=\"none\""), "\(dom.output.components(separatedBy: "data-split=").dropFirst().first?.prefix(80) ?? "no probe ran")")
    }
}

enum Browser {
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    /// Runs headless Chromium and returns its exit status and stdout; it is killed if it hangs.
    static func run(_ browser: String, _ arguments: [String], profile: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// The report over time in the same browser, at a phone's width and a desktop's.
@Suite(.enabled(if: Browser.path != nil || ProcessInfo.processInfo.environment["CI"] != nil))
struct RangeBrowserTests {
    @Test(arguments: [(390, 844), (1280, 1000)])
    func rangePageRendersAtPhoneAndDesktopWidths(_ size: (width: Int, height: Int)) throws {
        let browser = try #require(Browser.path, "chromium is not installed; install Debian's chromium package")
        let directory = try TemporaryDirectory()
        let report = try RangeRendererTests.wideReport()
        let page = directory.path("range.html")
        try Data(RangeHTMLRenderer().render(report).utf8).write(to: URL(fileURLWithPath: page))
        let url = URL(fileURLWithPath: page).absoluteString

        let dom = try Browser.run(browser, ["--dump-dom", "--window-size=\(size.width),\(size.height)", url], profile: directory.path("profile-dom"))
        #expect(dom.status == 0)
        for row in report.rows + [report.total] {
            #expect(dom.output.contains(row.name), "\(row.name)")
            #expect(dom.output.contains(row.total.groupedString), "\(row.total.groupedString)")
        }

        let screenshot = directory.path("range-\(size.width).png")
        let shot = try Browser.run(browser, ["--screenshot=\(screenshot)", "--window-size=\(size.width),\(size.height)", url], profile: directory.path("profile-shot"))
        #expect(shot.status == 0)
        let data = try #require(FileManager.default.contents(atPath: screenshot))
        Previews.save(data, as: "range-\(size.width).png")
        let image = try #require(DecodedImage(data))
        #expect(image.width == size.width && image.height == size.height)
        // The title is drawn in ink near the top left, whatever the width.
        var inked = 0
        for y in stride(from: 20.0, to: 120, by: 1) {
            for x in stride(from: 10.0, to: 300, by: 1) where image.pixel(x: x, y: y) == 0x1F2933 { inked += 1 }
        }
        #expect(inked > 50, "\(inked) ink pixels in the title area")
    }

    @Test func moneyInShowsItsTableAndChartsInTheBrowser() throws {
        let browser = try #require(Browser.path, "chromium is not installed; install Debian's chromium package")
        let directory = try TemporaryDirectory()
        let report = try RangeRendererTests.accountsReport()
        let page = directory.path("range-accounts.html")
        try Data(RangeHTMLRenderer().render(report).utf8).write(to: URL(fileURLWithPath: page))
        let url = URL(fileURLWithPath: page).absoluteString

        let dom = try Browser.run(browser, ["--dump-dom", url], profile: directory.path("profile-dom"))
        #expect(dom.status == 0)
        for text in ["Money in", "Net worth", "Savings rate", "3,200.00", "9,100.00", "-400.00", "47.0%"] {
            #expect(dom.output.contains(text), "\(text)")
        }

        let screenshot = directory.path("range-accounts.png")
        let shot = try Browser.run(browser, ["--screenshot=\(screenshot)", "--window-size=1280,1400", url], profile: directory.path("profile-shot"))
        #expect(shot.status == 0)
        let data = try #require(FileManager.default.contents(atPath: screenshot))
        Previews.save(data, as: "range-accounts-browser.png")
        let image = try #require(DecodedImage(data))
        // The net worth line shows in the page's chart (scaled by the browser, so near its colour).
        var green = 0
        for y in stride(from: 0.0, to: 1400, by: 2) {
            for x in stride(from: 0.0, to: 1280, by: 2) {
                let pixel = image.pixel(x: x, y: y)
                let (red, greenValue, blue) = (Int(pixel >> 16), Int((pixel >> 8) & 0xFF), Int(pixel & 0xFF))
                if abs(red - 0x2E) < 24, abs(greenValue - 0x9E) < 24, abs(blue - 0x6B) < 24 { green += 1 }
            }
        }
        #expect(green > 20, "\(green) net worth pixels")
    }
}
