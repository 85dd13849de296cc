import Hummingbird
import TallyCore

/// What the server knows about one request once its access is checked.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// What the request may do; `nil` until the access check has run.
    var permission: ServePermission?
    /// Who the forms' anti-forgery token is made for: the token's hash, or `loopback`.
    var subject = "loopback"
    /// The token's name, offered as who spent an expense.
    var holder: String?

    init(source: Source) {
        coreContext = .init(source: source)
    }

    /// Bodies are read by hand, up to ``Limits/body``.
    var maxUploadSize: Int { Limits.body }
}

enum Limits {
    /// The largest request body: a quick add is a few hundred bytes.
    static let body = 64 * 1024
}
