import Foundation

/// The first 100 bytes of an SQLite file, read without SQLite (https://sqlite.org/fileformat.html).
struct FileHeader {
    private let bytes: [UInt8]

    /// `nil` when the file cannot be read or does not start like an SQLite database.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
        guard count == 100, bytes.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        self.bytes = bytes
    }

    /// The file size its page size and page count announce; `nil` when the count is stale, which
    /// the header shows by a change counter (offset 24) that differs from offset 92's.
    var announcedSize: Int? {
        guard integer(at: 24, length: 4) == integer(at: 92, length: 4) else { return nil }
        let pageSize = integer(at: 16, length: 2) == 1 ? 65_536 : integer(at: 16, length: 2)
        return pageSize * integer(at: 28, length: 4)
    }

    /// `PRAGMA user_version`.
    var userVersion: Int32 { Int32(truncatingIfNeeded: integer(at: 60, length: 4)) }

    /// `PRAGMA application_id`.
    var applicationID: Int32 { Int32(truncatingIfNeeded: integer(at: 68, length: 4)) }

    private func integer(at offset: Int, length: Int) -> Int {
        bytes[offset..<offset + length].reduce(0) { $0 << 8 | Int($1) }
    }
}
