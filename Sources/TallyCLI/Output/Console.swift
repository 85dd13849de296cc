import Foundation

/// The only place that writes to the terminal. Commands build their whole output first and
/// write it once, so a failure never leaves half a table on stdout.
enum Console {
    static func write(_ text: String) {
        print(text)
    }

    /// A line on stderr, after flushing stdout so the two streams keep their order.
    static func warn(_ message: String) {
        fflush(nil)
        FileHandle.standardError.write(Data("tally: warning: \(message)\n".utf8))
    }

    static func error(_ message: String) {
        fflush(nil)
        FileHandle.standardError.write(Data("tally: error: \(message)\n".utf8))
    }

    /// Asks on stderr and reads the answer from stdin, only when a person is at both;
    /// a script piping into tally never gets stuck on a prompt and never says yes by accident.
    static func confirm(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return false }
        fflush(nil)
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        guard let answer = readLine() else { return false }
        let normalized = answer.trimmingCharacters(in: .whitespaces).lowercased()
        return normalized == "y" || normalized == "yes"
    }
}
