import Foundation
import TallyCore

/// What can go wrong drawing a report or a list, in the renderers' own terms.
public enum ReportError: Error, LocalizedError, Equatable, Sendable {
    /// A report template file could not be read.
    case templateUnreadable(path: String, reason: String)
    /// A report template is not valid Mustache.
    case invalidTemplate(path: String, reason: String)
    /// A chart could not be drawn: libgd is missing, the image cannot be allocated or encoded.
    case drawingFailed(String)
    /// A document could not be encoded.
    case encodingFailed(String)

    public var errorDescription: String? {
        switch self {
        case .templateUnreadable(let path, let reason):
            "cannot read template \(quoted(path)): \(oneLine(reason))"
        case .invalidTemplate(let path, let reason):
            "template \(quoted(path)) is not valid Mustache: \(oneLine(reason))"
        case .drawingFailed(let message), .encodingFailed(let message):
            oneLine(message)
        }
    }
}
