import Foundation
import TallyCore

/// Writes a file under a temporary name beside it and renames it into place once complete,
/// so a failed export never leaves half a file, nor destroys the one it would have replaced.
public enum AtomicFile {
    public static func write<T>(to path: String, _ body: (any ByteSink) throws(TallyError) -> T) throws(TallyError) -> T {
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
            guard fsync(descriptor) == 0 else { throw TallyError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
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
}
