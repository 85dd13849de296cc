import Foundation
import TallyCore
import TallySQLite

/// A ledger file that does not exist yet, built beside its final path under a name of its own and
/// linked into place, whole, only when the command that creates it succeeds: a failing command
/// leaves no database behind, and no other process ever opens a half-made one.
///
/// Checking everything before creating the file would cost a first import a second read of the
/// whole file.
public final class StagedLedger {
    public let store: any DataAccess
    private let stagingPath: String
    private let finalPath: String

    init(finalPath: String) throws(TallyError) {
        let folder = (finalPath as NSString).deletingLastPathComponent
        let name = (finalPath as NSString).lastPathComponent
        stagingPath = (folder.isEmpty ? "" : folder + "/") + ".\(name).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.finalPath = finalPath
        do {
            store = try SQLiteStore(path: stagingPath)
        } catch {
            Self.remove(stagingPath)
            // Messages name the ledger the user asked for, not the file it is built in.
            guard case .storage(let message) = error else { throw error }
            throw .storage(message.replacingOccurrences(of: quoted(stagingPath), with: quoted(finalPath)))
        }
    }

    /// Closes the store and links its file into place. Returns false, and removes the staged
    /// file, when another process created the ledger meanwhile: the command then runs again on
    /// that one.
    public func publish() throws(TallyError) -> Bool {
        // Closing the last connection folds the WAL into the file and removes it.
        try store.close()
        defer { Self.remove(stagingPath) }
        if link(stagingPath, finalPath) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        // A file system without hard links: a rename, which cannot refuse an existing file,
        // only when none is there.
        if code == EPERM || code == ENOTSUP || code == ENOSYS, !FileManager.default.fileExists(atPath: finalPath),
            rename(stagingPath, finalPath) == 0
        {
            return true
        }
        if FileManager.default.fileExists(atPath: finalPath) { return false }
        throw .storage("cannot create database at \(quoted(finalPath)): \(String(cString: strerror(code)))")
    }

    /// Closes the store and removes the staged file: the command failed.
    public func discard() {
        try? store.close()
        Self.remove(stagingPath)
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}

extension StoreLocation {
    /// The ledger that is there, or a ``StagedLedger`` when there is none yet.
    public enum Opening {
        case existing(any DataAccess)
        case staged(StagedLedger)
    }

    /// Opens the ledger, or stages a new one to publish when the command succeeds.
    public func openOrStage() throws(TallyError) -> Opening {
        switch self {
        case .file(let path) where !FileManager.default.fileExists(atPath: path):
            .staged(try StagedLedger(finalPath: path))
        default:
            .existing(try open())
        }
    }
}
