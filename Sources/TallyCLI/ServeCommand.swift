import ArgumentParser
import Foundation
import TallyCore
import TallyStores
import TallyUseCases

/// What `tally-serve` plugs in: `tally` itself links neither the HTTP server nor a SHA-256, so
/// `serve` and its token commands are handed over to `tally-serve` (see ``ServerHandOver``).
public enum ServeHook {
    /// Runs the server until SIGINT or SIGTERM.
    nonisolated(unsafe) public static var serve: ((ServeSettings) throws -> Void)?
    /// A new random token and its stored hash.
    nonisolated(unsafe) public static var makeToken: (() -> (token: String, hash: String))?
}

extension ServePermission: ExpressibleByArgument {}

/// `tally serve`: the ledger's dashboard, quick entry and JSON API in a browser.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the ledger's dashboard, quick entry and JSON API over HTTP.",
        discussion: """
            Binds 127.0.0.1:8420 by default and prints the address to open; one line per request \
            goes to stderr. On loopback no token is needed unless --require-token; any other \
            --bind needs one (create it with serve token create). --tls-cert and --tls-key \
            (PEM) turn on HTTPS. SIGINT or SIGTERM stop it once requests in flight finish.
            """,
        subcommands: [Run.self, Token.self],
        defaultSubcommand: Run.self
    )

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the server (the default).")

        @Option(help: "Listen on this port (0 picks a free one).")
        var port: Int = 8420

        @Option(help: ArgumentHelp("Listen on this address; anything but loopback needs tokens.", valueName: "address"))
        var bind: String = "127.0.0.1"

        @Option(help: ArgumentHelp("Serve HTTPS with this PEM certificate (with --tls-key).", valueName: "path"))
        var tlsCert: String?

        @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "path"))
        var tlsKey: String?

        @Flag(help: "Ask for a token on loopback too.")
        var requireToken = false

        @OptionGroup var store: CommonOptions

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("invalid port \(port): use 0 to 65535") }
            guard !bind.isEmpty else { throw ValidationError("--bind needs an address") }
            guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        }

        func run() throws {
            guard let serve = ServeHook.serve else { throw TallyError.storage("tally serve needs tally-serve beside tally") }
            // The web has no budget forms: an empty ledger made here could only be served empty.
            guard store.ledger.exists else {
                throw ValidationError("no ledger at \(store.location): add a budget first with tally budget add NAME --limit AMOUNT")
            }
            let settings = ServeSettings(
                location: store.location, port: port, bind: bind, tlsCertificate: tlsCert, tlsKey: tlsKey, requireTokens: requireToken)
            if settings.requireTokens, try ServeTokens.list(in: store.ledger).isEmpty {
                throw ValidationError("serving \(bind) needs a token: create one with tally serve token create NAME --can view|add|manage")
            }
            try serve(settings)
        }
    }

    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token", abstract: "Create, list and revoke the server's access tokens.", subcommands: [Create.self, List.self, Revoke.self])

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "create", abstract: "Make a token and print it once; only its hash is stored.")

            @Argument(help: "A name for whoever holds it.")
            var name: String

            @Option(help: "What it allows: view, add (expenses too) or manage (undo, budgets and rules too).")
            var can: ServePermission

            @OptionGroup var store: CommonOptions

            func run() throws {
                guard let makeToken = ServeHook.makeToken else { throw TallyError.storage("tally serve needs tally-serve beside tally") }
                let made = makeToken()
                let token = try ServeTokens.create(name: name, permission: can, hash: made.hash, in: store.ledger)
                Console.write("""
                    Token \(quoted(token.name)) (\(token.permission.rawValue)): \(made.token)
                    Sign-in link, works once: /login?token=\(made.token)
                    It is shown only now; send it as Authorization: Bearer TOKEN, or open the link.
                    """)
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the tokens by name (never the tokens themselves).")

            @OptionGroup var store: CommonOptions

            func run() throws {
                let tokens = try ServeTokens.list(in: store.ledger)
                guard !tokens.isEmpty else { return Console.write("No tokens yet. Create one with: tally serve token create NAME --can view") }
                Console.write(tokens.map { token in
                    let created = Date(timeIntervalSince1970: Double(token.createdAt) / 1000)
                    return "\(token.name)\t\(token.permission.rawValue)\t\(ISO8601DateFormatter().string(from: created))\(token.linkUsed ? "\tlink used" : "")"
                }.joined(separator: "\n"))
            }
        }

        struct Revoke: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token; its cookie stops working too.")

            @Argument(help: "The token's name.")
            var name: String

            @OptionGroup var store: CommonOptions

            func run() throws {
                try ServeTokens.revoke(name: name, in: store.ledger)
                Console.write("Revoked token \(quoted(name)).")
            }
        }
    }
}
