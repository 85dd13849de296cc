import Foundation
import TallyCore
import TallyUseCases
import Testing

/// The real thing: headless Chromium on a phone-sized screen, driven over its DevTools pipe
/// by `scripts/serve-browser`, adds, edits and undoes through the forms and adds a budget (no
/// JavaScript of the page's own: the script only fills fields and submits, as a person would), then screenshots
/// every view at phone and desktop sizes (into $TALLY_SERVE_SHOTS when set, to look at).
@Suite struct ServeBrowserTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "needs Debian's chromium (scripts/install-deps)"))
    func addEditAndUndoInChromium() async throws {
        let harness = try Harness()
        try harness.seed()
        try await harness.start()
        let shots = ProcessInfo.processInfo.environment["TALLY_SERVE_SHOTS"] ?? harness.folder.appendingPathComponent("shots").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.packageRoot.appendingPathComponent("scripts/serve-browser").path, "http://127.0.0.1:\(harness.port)", shots]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = try await offPool {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return data
        }
        let seen = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
        #expect(process.terminationStatus == 0, "\(seen)")
        #expect((seen["dashboardTitle"] as? String)?.hasPrefix("Tally report") == true)
        // Food: 300 − 3.50 − 12.00 − 20.50.
        #expect(seen["remaining"] as? String == "264.00")
        #expect((seen["editedRow"] as? String)?.contains("31.00") == true)
        #expect(seen["undoNotice"] as? String == "Undid the last change.")
        #expect((seen["rowAfterUndo"] as? String)?.contains("20.50") == true)
        #expect(seen["budgetNotice"] as? String == "Added the budget.")
        #expect((seen["budgetRow"] as? String)?.contains("75.00") == true)
        for view in ["report", "budgets", "expenses", "range", "upcoming", "add", "rules", "budget-new"] {
            #expect(seen["\(view)FitsPhone"] as? Bool == true, "\(view) is wider than a phone")
            #expect(FileManager.default.fileExists(atPath: shots + "/\(view)-desktop.png"))
        }
        await harness.stop()
    }
}
