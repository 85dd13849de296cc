import TallyCore

// The CSV reader's errors, each with the physical line it names, and the one-line
// `TallyError` an import reports for each.
/// What makes a file not RFC 4180 CSV; each case names the physical line (1-based) where it happens.
public enum CSVError: Error, Equatable, Sendable {
    /// A quoted field is still open at the end of the file; the line is where it opened.
    case unterminatedQuote(line: Int)
    /// A `"` inside a field that did not start with one.
    case unexpectedQuote(line: Int)
    /// Something other than a delimiter or a line end right after a closing quote.
    case textAfterClosingQuote(line: Int)
    /// A carriage return outside quotes that is not part of a CRLF line end.
    case bareCarriageReturn(line: Int)
    /// Bytes that are not UTF-8.
    case invalidUTF8(line: Int)
    /// One record is larger than the reader is allowed to hold in memory.
    case recordTooLarge(line: Int, maximumBytes: Int)
    /// The source could not be read.
    case source(TallyError)

    /// Where the problem is, when it is in the file.
    public var line: Int? {
        switch self {
        case .unterminatedQuote(let line), .unexpectedQuote(let line), .textAfterClosingQuote(let line),
            .bareCarriageReturn(let line), .invalidUTF8(let line), .recordTooLarge(let line, _):
            line
        case .source: nil
        }
    }

    /// The same failure as a `TallyError`, for the one-line message a user sees.
    public var tallyError: TallyError {
        switch self {
        case .unterminatedQuote(let line):
            .importFile(line: line, reason: "a quoted field is not closed before the end of the file")
        case .unexpectedQuote(let line):
            .importFile(line: line, reason: "a '\"' inside a field that is not quoted (quote the field and double the '\"')")
        case .textAfterClosingQuote(let line):
            .importFile(line: line, reason: "text after the closing '\"' of a quoted field")
        case .bareCarriageReturn(let line):
            .importFile(line: line, reason: "a carriage return outside quotes (lines must end with LF or CRLF)")
        case .invalidUTF8(let line):
            .importFile(line: line, reason: "the text is not UTF-8", hint: .encoding)
        case .recordTooLarge(let line, let maximum):
            .importFile(line: line, reason: "a record is larger than \(maximum / (1024 * 1024)) MiB")
        case .source(let error):
            error
        }
    }
}
