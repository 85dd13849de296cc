import TallyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes libxml2 reads, from the statement's source. Before they reach libxml2 their
/// prolog is checked for a DOCTYPE, so a document that declares entities (an external one
/// naming a local file, or billion laughs) is refused before libxml2 has read a declaration;
/// the reader's own check of the node type stays behind it for encodings this byte check
/// cannot see (UTF-16).
final class XMLInput {
    private var source: any ByteSource
    /// What went wrong reading, for the reader to throw instead of libxml2's message.
    private(set) var failure: TallyError?
    private(set) var byteCount = 0
    /// Whether the source has ended: an error then on its last line is most likely a truncated file.
    private(set) var reachedEnd = false
    /// The lines read so far, for telling a truncated file from one malformed earlier on.
    private(set) var lineCount = 1
    private var prolog = Prolog.text

    /// Where the prolog scan stands: in text, after `<`, or after `<!`.
    private enum Prolog { case text, open, declaration, done }

    init(_ source: any ByteSource) {
        self.source = source
    }

    /// Fills `buffer`; 0 at the end, -1 on a failure (kept in `failure`).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard failure == nil else { return -1 }
        let count: Int
        do throws(TallyError) {
            count = try source.read(into: buffer)
        } catch {
            failure = error
            return -1
        }
        if count == 0 { reachedEnd = true }
        byteCount += count
        countLines(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        if prolog != .done {
            for byte in buffer[0..<count] where prolog != .done {
                if let refused = scan(byte) {
                    failure = refused
                    return -1
                }
            }
        }
        return count
    }

    /// memchr, as a loop over every byte would cost seconds on a large file in a debug build.
    private func countLines(_ bytes: UnsafeRawBufferPointer) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0, let newline = memchr(next, 0x0A, remaining) {
            lineCount += 1
            let step = UnsafeRawPointer(newline) - next + 1
            next += step
            remaining -= step
        }
    }

    /// Follows the prolog (the XML declaration, comments, processing instructions) up to the
    /// root element's start; a `<!D` in it is a DOCTYPE.
    private func scan(_ byte: UInt8) -> TallyError? {
        switch prolog {
        case .text:
            if byte == UInt8(ascii: "<") { prolog = .open }
        case .open:
            if byte == UInt8(ascii: "!") {
                prolog = .declaration
            } else if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "<") {
                prolog = byte == UInt8(ascii: "<") ? .open : .text
            } else {
                prolog = .done  // the root element starts: no DOCTYPE can follow
            }
        case .declaration:
            if byte == UInt8(ascii: "D") || byte == UInt8(ascii: "d") {
                return .importFile(line: nil, reason: "the XML has a DOCTYPE, which no bank statement has")
            }
            prolog = .text
        case .done:
            break
        }
        return nil
    }
}
