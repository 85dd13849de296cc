import Foundation
import TallyCLI
import TallyCore
import TallyPostgres
import TallyStores

// `tally` with the PostgreSQL store: what `tally` hands a command over to when its location is
// a server URL (see ServerHandOver), so that only this executable links NIO.
StoreLocation.serverStores = { (location: ServerLocation) throws(TallyError) -> any DataAccess in try PostgresStore(location: location) }
exit(Tally.run(arguments: Array(CommandLine.arguments.dropFirst())))
