import ArgumentParser

/// Chooses between the human table and one JSON document.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON document instead of a table.")
    var json = false
}
