import Foundation
import TallyCore
import TallyTestSupport
import Testing

@testable import TallyImportExport

/// A file is replaced whole or not at all; what is not a plain file is written in place.
@Suite(.ownThreads) struct AtomicFileTests {
    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "atomic-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aFileIsReplacedWholeAndAFailureKeepsTheOldOne() throws {
        let path = try folder() + "/out.csv"
        try AtomicFile.write(Array("old\n".utf8), to: path, durable: true)
        #expect(throws: TallyError.self) {
            try AtomicFile.write(to: path) { (sink: any ByteSink) throws(TallyError) in
                try sink.write(Array("half".utf8))
                throw TallyError.storage("stopped")
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent) == ["out.csv"])
        try AtomicFile.write(Array("new\n".utf8), to: path, durable: false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    }

    /// Renaming over `/dev/null` as root would leave a plain file in its place for every program.
    @Test func aDeviceStaysADevice() throws {
        try AtomicFile.write(Array("report\n".utf8), to: "/dev/null", durable: true)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    /// A named pipe, as a shell's `>(gzip)` gives, is written through to its reader.
    @Test func aPipeIsWrittenThrough() throws {
        let path = try folder() + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        let reader = Thread.detachNewThreadWithResult { FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() }
        try AtomicFile.write(Array("through\n".utf8), to: path, durable: true)
        #expect(reader.value().flatMap { $0 }.flatMap { String(data: $0, encoding: .utf8) } == "through\n")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aFolderIsRefusedNamingIt() throws {
        let path = try folder()
        #expect(throws: TallyError.self) { try AtomicFile.write(Array("x".utf8), to: path, durable: false) }
    }
}

extension Thread {
    /// Runs `body` on a thread of its own; `value()` waits for its result.
    fileprivate static func detachNewThreadWithResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> Pending<T> {
        let pending = Pending<T>()
        Thread.detachNewThread { pending.finish(body()) }
        return pending
    }
}

fileprivate final class Pending<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: T?

    func finish(_ value: T) {
        result = value
        done.signal()
    }

    func value() -> T? {
        done.wait()
        return result
    }
}
