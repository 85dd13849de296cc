import ArgumentParser
import Foundation
import TallyCore
import TallyStores

/// `tally` never loads NIO: a command whose location is a server URL is run by `tally-postgres`,
/// the same CLI linked with the server store, and `tally serve` by `tally-serve`, the same CLI
/// linked with the HTTP server and both stores; both are installed beside it. The checks are a
/// comparison of the first argument and a prefix test on the location the command will use, so
/// the file path pays nothing.
enum ServerHandOver {
    static func handOverIfNeeded(arguments: [String]) throws {
        if arguments.first == "serve", ServeHook.serve == nil {
            try execSibling("tally-serve", arguments: arguments, needed: "tally serve needs")
        }
        guard StoreLocation.serverStores == nil else { return }
        let location = CommonOptions.resolvedPath(db: GlobalOptions.value(of: "--db", in: arguments))
        // `db copy SOURCE DEST` names its locations as arguments.
        guard let url = ([location] + arguments).first(where: ServerLocation.isServerURL) else { return }
        // A malformed URL is a usage error here too, whether or not tally-postgres is installed.
        if case .unusableServer(let reason) = StoreLocation(url) { throw ValidationError(reason) }
        try execSibling("tally-postgres", arguments: arguments, needed: "PostgreSQL locations need")
    }

    private static func execSibling(_ name: String, arguments: [String], needed: String) throws {
        let executable = siblingExecutable(name)
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(executable, argv)
        // Only returns when it failed.
        let reason = String(cString: strerror(errno))
        throw TallyError.storage("\(needed) \(name) beside tally (\(executable): \(reason))")
    }

    /// `name` in the folder of the running `tally` (`/proc/self/exe`, else argv[0]).
    private static func siblingExecutable(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        let own = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        return (own as NSString).deletingLastPathComponent + "/" + name
    }
}
