import Foundation
import TallyCLI
import TallyCore
import TallyPostgres
import TallyServer
import TallyStores

// `tally` with the HTTP server and the PostgreSQL store: what `tally serve` is handed over to
// (see ServerHandOver), so that `tally` itself links neither NIO nor Hummingbird.
StoreLocation.serverStores = { (location: ServerLocation) throws(TallyError) -> any DataAccess in try PostgresStore(location: location) }
ServeHook.serve = { settings in try TallyServer.serve(settings) }
ServeHook.makeToken = { TokenHash.makeToken() }
exit(Tally.run(arguments: Array(CommandLine.arguments.dropFirst())))
