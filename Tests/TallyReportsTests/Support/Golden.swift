import Foundation
import Testing

/// Compares rendered text with a file in `Golden/`; `TALLY_UPDATE_GOLDEN=1` rewrites the file
/// in the source tree instead.
enum Golden {
    static func check(_ actual: String, against name: String, sourceFile: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if ProcessInfo.processInfo.environment["TALLY_UPDATE_GOLDEN"] == "1" {
            var directory = URL(fileURLWithPath: sourceFile).deletingLastPathComponent()
            while directory.lastPathComponent != "TallyReportsTests", directory.path != "/" {
                directory.deleteLastPathComponent()
            }
            try Data(actual.utf8).write(to: directory.appendingPathComponent("Golden").appendingPathComponent(name))
            return
        }
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden"), sourceLocation: sourceLocation)
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "golden file \(name) differs; rerun with TALLY_UPDATE_GOLDEN=1 after checking the change", sourceLocation: sourceLocation)
    }
}
