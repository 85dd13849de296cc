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
        writeToStandardError("tally: warning: \(message)\n")
    }

    static func error(_ message: String) {
        fflush(nil)
        writeToStandardError("tally: error: \(message)\n")
    }

    /// Asks on stderr and reads the answer from stdin, only when a person is at both;
    /// a script piping into tally never gets stuck on a prompt and never says yes by accident.
    static func confirm(_ question: String) -> Bool {
        guard isatty(STDIN_FILENO) == 1, isatty(STDERR_FILENO) == 1 else { return false }
        fflush(nil)
        writeToStandardError("\(question) [y/N] ")
        guard let answer = readLine() else { return false }
        let normalized = answer.trimmingCharacters(in: .whitespaces).lowercased()
        return normalized == "y" || normalized == "yes"
    }

    /// Straight to the descriptor: `FileHandle` and `Data` add setup a fresh `tally add` need not pay.
    private static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, start + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
