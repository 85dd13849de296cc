import Foundation
import Hummingbird
import Mustache
import TallyCore
import TallyReports

/// The server's pages, from `templates/serve/` (compiled in by the EmbedTemplates plugin).
/// Every value goes through `{{…}}`, which escapes it for HTML.
struct Pages: Sendable {
    private let library: MustacheLibrary
    let guardian: FormGuard
    /// `/static/style.css`: the report's styles and the server's own.
    let styles: String

    init(guardian: FormGuard) throws {
        var library = MustacheLibrary()
        for (name, text) in EmbeddedTemplates.all { try library.register(text, named: name) }
        self.library = library
        self.guardian = guardian
        styles = HTMLRenderer.styles + "\n" + (EmbeddedTemplates.all["style"] ?? "")
    }

    /// What every page's header and navigation need.
    func frame(_ context: ServeContext, title: String, month: Month?, query: String = "") -> [String: Any] {
        var values: [String: Any] = [
            "title": title, "csrf": guardian.token(for: context.subject),
            "canAdd": (context.permission ?? .view) >= .add, "canManage": (context.permission ?? .view) >= .manage,
        ]
        if let month {
            values["month"] = month.isoString
            values["hasMonths"] = true
            values["previousMonth"] = month.adding(months: -1).isoString
            values["nextMonth"] = month.adding(months: 1).isoString
            values["query"] = query
        }
        return values
    }

    func page(_ name: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(values, withTemplate: name) ?? "missing page \(name)"
        return Self.html(html, status: status)
    }

    /// The navigation alone, as a partial for the report renderers' templates.
    func navigation(_ values: [String: Any]) -> String {
        "<link rel=\"stylesheet\" href=\"/static/style.css\">\n" + (library.render(values, withTemplate: "nav") ?? "")
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// 303 to a page of this site.
    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

/// A URL query value: everything but unreserved characters escaped.
func urlEncoded(_ text: String) -> String {
    let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
}
