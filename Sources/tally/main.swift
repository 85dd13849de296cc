import Foundation
import TallyCLI

exit(Tally.run(arguments: Array(CommandLine.arguments.dropFirst())))
