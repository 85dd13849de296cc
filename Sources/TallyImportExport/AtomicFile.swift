import Foundation
import TallyCore

/// Writes a file under a temporary name beside it and renames it into place once complete,
/// so a failed export never leaves half a file, nor destroys the one it would have replaced.
///
/// A `durable` file (an export: the ledger's own data) is also synced to the disk before the
/// rename, so it survives a power loss. A file Tally can make again from the ledger (a report,
/// a calendar) is not: losing it to a power cut costs a rerun, and its sync cost every report
/// about 1.5 ms, a sixth of a month's report. The rename still replaces it whole or not at all.
public enum AtomicFile {
    public static func write<T>(to path: String, durable: Bool = true, _ body: (any ByteSink) throws(TallyError) -> T) throws(TallyError) -> T {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            // A device, pipe or terminal (`/dev/null`, `/dev/stdout`, a shell's `>(gzip)`) is
            // written in place: a rename would put a plain file where it was.
            return try writeInPlace(to: path, body)
        }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do throws(TallyError) {
            let result = try body(FileDescriptorSink(fileDescriptor: descriptor))
            if durable, fsync(descriptor) != 0 { throw TallyError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
            closed = true
            guard close(descriptor) == 0, rename(temporary, path) == 0 else {
                throw TallyError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            return result
        } catch {
            unlink(temporary)
            throw error
        }
    }

    private static func writeInPlace<T>(to path: String, _ body: (any ByteSink) throws(TallyError) -> T) throws(TallyError) -> T {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        let result = try body(FileDescriptorSink(fileDescriptor: descriptor))
        closed = true
        guard close(descriptor) == 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        return result
    }

    /// `bytes` as the file at `path` (see `durable`).
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool) throws(TallyError) {
        try write(to: path, durable: durable) { (sink: any ByteSink) throws(TallyError) in
            try sink.write(bytes)
            try sink.flush()
        }
    }
}
