import Foundation
import Hummingbird
import TallyCore

/// Query strings and `application/x-www-form-urlencoded` bodies, read the same way: `+` is a
/// space, percent escapes are UTF-8, and a malformed escape is kept as typed.
struct Parameters: Sendable {
    private(set) var values: [String: [String]] = [:]

    init(encoded: Substring) {
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            values[name, default: []].append(parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    init(query request: Request) {
        self.init(encoded: Substring(request.uri.query ?? ""))
    }

    subscript(_ name: String) -> String? { values[name]?.first }

    /// Each name's first value.
    var fields: [String: String] { values.compactMapValues(\.first) }

    /// A value with its surrounding spaces trimmed; empty is absent.
    func text(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// `month=`: an ISO month or a phrase such as `last`, as `--month` takes them.
    func period(today: Day) throws -> PeriodChoice {
        guard let text = text("month") else { return .current }
        if let month = try? Month(parsing: text) { return .month(month) }
        do {
            return try PeriodChoice(phrase: text, today: today)
        } catch {
            throw HTTPError(.badRequest, message: describe(error))
        }
    }

    /// A positive whole number, or `fallback` when absent.
    func number(_ name: String, fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = text(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError(.badRequest, message: "invalid \(name) \(quoted(text)): use \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

extension Request {
    /// The body, refused with 413 past ``Limits/body``: at once when `Content-Length` says so,
    /// else as soon as the bytes read pass it.
    mutating func boundedBody() async throws -> String {
        let tooLarge = HTTPError(.contentTooLarge, message: "the request body is over \(Limits.body / 1024) KB")
        if let length = headers[.contentLength].flatMap({ Int($0) }), length > Limits.body { throw tooLarge }
        var collected = ByteBuffer()
        for try await chunk in body {
            guard collected.readableBytes + chunk.readableBytes <= Limits.body else { throw tooLarge }
            var chunk = chunk
            collected.writeBuffer(&chunk)
        }
        return String(buffer: collected)
    }
}
