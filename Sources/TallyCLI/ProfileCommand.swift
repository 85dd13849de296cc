import ArgumentParser
import TallyCore
import TallyReports
import TallyUseCases

/// `tally profile`: saved ways of reading a bank's exports (`import --save-profile`, `--profile`).
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "List, show or remove saved import profiles.",
        discussion: "Save one with 'tally import FILE … --save-profile NAME'; use it with 'tally import FILE --profile NAME'.",
        subcommands: [List.self, Show.self, Remove.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the saved import profiles.")

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let profiles = try ListProfiles().run(in: store.ledger)
            if output.json {
                Console.write(try ListJSON.encode(profiles.map(ListJSON.ProfileItem.init)))
            } else if profiles.isEmpty {
                Console.write("No import profiles yet. Save one with 'tally import FILE … --save-profile NAME'.")
            } else {
                Console.write(ListRenderers.profilesAsTable(profiles))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one import profile's settings.")

        @Argument(help: "The profile's name, ignoring case and accents.", completion: .profileNames)
        var name: String

        @OptionGroup var output: OutputOptions
        @OptionGroup var store: CommonOptions

        func run() throws {
            let profile = try ShowProfile(name: name).run(in: store.ledger)
            if output.json {
                Console.write(try ListJSON.encode(ListJSON.ProfileItem(profile)))
            } else {
                Console.write(ListRenderers.profileDetail(profile))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an import profile.")

        @Argument(help: "The profile's name, ignoring case and accents.", completion: .profileNames)
        var name: String

        @OptionGroup var store: CommonOptions

        func run() throws {
            try RemoveProfile(name: name).run(in: store.ledger)
            Console.write("Removed import profile \(quoted(name)).")
        }
    }
}
