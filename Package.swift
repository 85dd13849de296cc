// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
        .library(name: "TallyCore", targets: ["TallyCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.0"),
    ],
    targets: [
        .target(name: "TallyCore"),
        .target(
            name: "TallySQLite",
            dependencies: [
                "TallyCore", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(name: "TallyExchange", dependencies: ["TallyCore"]),
        // libgd's headers; the library itself is opened when the first picture is drawn (see shim.h).
        .systemLibrary(name: "CGD", providers: [.apt(["libgd-dev"])]),
        .target(
            name: "TallyReports",
            dependencies: ["TallyCore", "CGD", .product(name: "Mustache", package: "swift-mustache")],
            plugins: ["EmbedTemplates"]
        ),
        .executableTarget(name: "TemplateEmbedder", path: "Plugins/TemplateEmbedder"),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["TemplateEmbedder"]),
        .target(
            name: "TallyCLI",
            dependencies: [
                "TallyCore", "TallySQLite", "TallyReports", "TallyExchange",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "tally", dependencies: ["TallyCLI"]),
        // What several test targets share; only test targets depend on it.
        .target(name: "TallyTestSupport", path: "Tests/TallyTestSupport"),
        .testTarget(name: "TallyCoreTests", dependencies: ["TallyCore", "TallyTestSupport"]),
        .testTarget(
            name: "TallySQLiteTests", dependencies: ["TallyCore", "TallySQLite", "TallyTestSupport"], resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TallyReportsTests", dependencies: ["TallyCore", "TallyReports", "CGD"], resources: [.copy("Golden")],
            // The tests decode the PNGs with libgd itself, linked as usual.
            linkerSettings: [.linkedLibrary("gd")]
        ),
        .testTarget(
            name: "TallyCLITests", dependencies: ["TallyCore", "TallyCLI", "tally", "TallyTestSupport"],
            resources: [.copy("Golden"), .copy("Fixtures")]
        ),
        .testTarget(name: "TallyExchangeTests", dependencies: ["TallyCore", "TallyExchange", "TallyTestSupport"]),
    ]
)
