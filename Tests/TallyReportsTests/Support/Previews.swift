import Foundation

/// Writes rendered files to `$TALLY_REPORT_PREVIEW_DIR` when set, so a person can look at them.
enum Previews {
    static func save(_ data: Data, as name: String) {
        guard let directory = ProcessInfo.processInfo.environment["TALLY_REPORT_PREVIEW_DIR"], !directory.isEmpty else { return }
        try? data.write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }
}
