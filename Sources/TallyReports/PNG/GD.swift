import CGD
import TallyCore

/// libgd's functions, looked up once, when the first picture is drawn (see `shim.h` for why).
enum GD {
    /// The functions, or a report error naming why libgd could not be loaded.
    static func functions() throws(ReportError) -> TallyGD { try loaded.get() }

    /// The functions if libgd could be loaded. Text measured without them is 0 wide, which is
    /// harmless: a picture is only drawn on a canvas, and a canvas throws `functions()`'s error.
    static var available: TallyGD? { try? loaded.get() }

    private static let loaded = load(name: "libgd.so.3", fallback: "libgd.so")

    static func load(name: String, fallback: String) -> Result<TallyGD, ReportError> {
        let table = UnsafeMutablePointer<TallyGD>.allocate(capacity: 1)
        defer { table.deallocate() }
        if let failure = tally_gd_load(table, name, fallback) {
            return .failure(.drawingFailed(
                "cannot load libgd to draw the charts (on Debian: apt-get install libgd3): \(String(cString: failure))"))
        }
        return .success(table.pointee)
    }
}
