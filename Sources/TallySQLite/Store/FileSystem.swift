import Foundation

extension Error {
    /// A one-line reason for a message, without Foundation's boilerplate where possible.
    var reason: String {
        if let error = self as? FileSystem.Failure { return error.message }
        return oneLineDescription
    }

    private var oneLineDescription: String {
        (self as NSError).localizedDescription.replacingOccurrences(of: "\n", with: " ")
    }
}

/// The few POSIX calls that set the database's permissions exactly, whatever the umask.
enum FileSystem {
    struct Failure: Error {
        let message: String

        init(errno code: Int32) {
            message = String(cString: strerror(code))
        }
    }

    /// Creates `path` and its missing parents, each readable by its owner only.
    static func makeFolder(_ path: String) throws(Failure) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw Failure(errno: ENOTDIR) }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeFolder(parent) }
        if mkdir(path, 0o700) != 0 {
            let code = errno
            guard code == EEXIST else { throw Failure(errno: code) }
            return
        }
        guard chmod(path, 0o700) == 0 else { throw Failure(errno: errno) }
    }

    /// The size of the file at `path`, 0 when there is none. A bare `stat`: FileManager's
    /// attributes also look up the owner's name, which reads `/etc/passwd` on every open.
    static func size(_ path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    /// Creates an empty file with mode 0600; returns false when it already exists.
    static func createPrivateFile(_ path: String) throws(Failure) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { return false }
            throw Failure(errno: code)
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw Failure(errno: errno) }
        return true
    }

    /// Flushes a file, or a folder's entries, to the disk.
    static func sync(_ path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(errno: errno) }
    }
}
