// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
        .executable(name: "tally-postgres", targets: ["tally-postgres"]),
        .executable(name: "tally-serve", targets: ["tally-serve"]),
        .library(name: "TallyCore", targets: ["TallyCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // postgres-nio's own logging package, named so the store can silence it.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.3"),
        // `tally serve`'s HTTP server and its TLS; only `tally-serve` links them.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Named for the certificate types and the listening channel the server reads.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.4.0"),
    ],
    targets: [
        // Models and their rules, Money, Day, Month, errors, and the DataAccess boundary.
        .target(name: "TallyCore"),
        // The stores: each a separate target, as isowords keeps its live and test clients.
        .target(name: "TallyInMemory", dependencies: ["TallyCore"]),
        .target(
            name: "TallySQLite",
            dependencies: [
                "TallyCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The PostgreSQL store: only the `tally-postgres` executable links it, so `tally` never loads NIO.
        .target(
            name: "TallyPostgres",
            dependencies: ["TallyCore", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")]
        ),
        // The one place that turns a location into a store.
        .target(name: "TallyStores", dependencies: ["TallyCore", "TallyInMemory", "TallySQLite"]),
        .target(
            name: "TallyImportExport",
            dependencies: ["TallyCore", "CLibXML2", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // libxml2's reader, declared by hand and opened when the first XML statement is read (see shim.h).
        .systemLibrary(name: "CLibXML2", providers: [.apt(["libxml2-dev"])]),
        // libgd's headers; the library itself is opened when the first picture is drawn (see shim.h).
        .systemLibrary(name: "CGD", providers: [.apt(["libgd-dev"])]),
        .target(
            name: "TallyReports",
            dependencies: ["TallyCore", "CGD", .product(name: "Mustache", package: "swift-mustache")],
            plugins: ["EmbedTemplates"]
        ),
        // One type per user action: validates, calls the rules and the store, returns a value.
        .target(name: "TallyUseCases", dependencies: ["TallyCore", "TallyStores", "TallyImportExport", "TallyReports"]),
        .executableTarget(name: "TemplateEmbedder", path: "Plugins/TemplateEmbedder"),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["TemplateEmbedder"]),
        .target(
            name: "TallyCLI",
            dependencies: [
                "TallyCore", "TallyStores", "TallyUseCases", "TallyReports", "TallyImportExport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .executableTarget(name: "tally", dependencies: ["TallyCLI"]),
        // The browser dashboard and JSON API on Hummingbird: only `tally-serve` links it.
        .target(
            name: "TallyServer",
            dependencies: [
                "TallyCore", "TallyStores", "TallyUseCases", "TallyReports", "TallyPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["EmbedTemplates"]
        ),
        // `tally` with the server and the PostgreSQL store; `tally serve` is handed over to it.
        .executableTarget(
            name: "tally-serve", dependencies: ["TallyCLI", "TallyCore", "TallyStores", "TallyServer", "TallyPostgres"]
        ),
        // `tally` with the PostgreSQL store; `tally` hands server locations over to it.
        .executableTarget(name: "tally-postgres", dependencies: ["TallyCLI", "TallyCore", "TallyStores", "TallyPostgres"]),
        // What several test targets share; only test targets depend on it.
        .target(name: "TallyTestSupport", path: "Tests/TallyTestSupport"),
        // What every DataAccess must do, as checks each store's test target runs with its own factory.
        // The in-memory store is the differential test's reference for the others.
        .target(name: "TallyStoreContract", dependencies: ["TallyCore", "TallyInMemory", "TallyTestSupport"], path: "Tests/TallyStoreContract"),
        .testTarget(name: "TallyCoreTests", dependencies: ["TallyCore", "TallyTestSupport"]),
        .testTarget(
            name: "TallySQLiteTests", dependencies: ["TallyCore", "TallyInMemory", "TallySQLite", "TallyTestSupport", "TallyStoreContract"], resources: [.copy("Fixtures")]
        ),
        // The contract and the server's own faults, against a real PostgreSQL the tests start.
        .testTarget(
            name: "TallyPostgresTests",
            dependencies: ["TallyCore", "TallyInMemory", "TallyPostgres", "TallyTestSupport", "TallyStoreContract"]
        ),
        .testTarget(name: "TallyInMemoryTests", dependencies: ["TallyCore", "TallyInMemory", "TallyStoreContract"]),
        .testTarget(
            name: "TallyReportsTests", dependencies: ["TallyCore", "TallyInMemory", "TallyReports", "CGD"], resources: [.copy("Golden")],
            // The tests decode the PNGs with libgd itself, linked as usual.
            linkerSettings: [.linkedLibrary("gd")]
        ),
        .testTarget(
            name: "TallyCLITests", dependencies: ["TallyCore", "TallyCLI", "tally", "tally-postgres", "tally-serve", "TallyTestSupport"],
            resources: [.copy("Golden"), .copy("Fixtures")]
        ),
        // Every user action in-process, on the in-memory store.
        .testTarget(
            name: "TallyUseCasesTests",
            // TallyPostgres for the history's property test on a real server as well.
            dependencies: [
                "TallyCore", "TallyInMemory", "TallyStores", "TallyUseCases", "TallyImportExport", "TallyReports", "TallyTestSupport", "TallyPostgres",
            ]
        ),
        // The server in-process on a random loopback port, and a headless Chromium against it.
        .testTarget(
            name: "TallyServerTests",
            dependencies: [
                "TallyCore", "TallyCLI", "TallyServer", "TallyStores", "TallyUseCases", "TallyReports", "TallyPostgres", "TallyTestSupport", "tally",
                "tally-serve",
                "tally-postgres",
            ]
        ),
        .testTarget(
            name: "TallyImportExportTests", dependencies: ["TallyCore", "TallyImportExport", "TallyTestSupport"], resources: [.copy("Fixtures")]
        ),
    ]
)
