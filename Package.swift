// swift-tools-version:6.1
import PackageDescription

/// Every target: imports are internal unless a file says otherwise, a file imports the modules whose
/// members it uses, and existential types are spelled `any`.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "lifecycled",
    // Synchronization's Mutex and Atomic need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lifecycled", targets: ["lifecycled"]),
        .library(name: "LifecycleCore", targets: ["LifecycleCore"]),
        // For the fuzz package under Fuzz/ (JSONParser, BodyDecoding).
        .library(name: "LifecycleWire", targets: ["LifecycleWire", "LifecycleJSON"]),
        // A daemon in another program's process (and its tests).
        .library(name: "LifecycleDaemon", targets: ["LifecycleDaemon"]),
        // For other teams' tests: the client of a running daemon, and the same client over a daemon in process.
        .library(name: "LifecycleClient", targets: ["LifecycleClient"]),
        .library(name: "LifecycleEmbedded", targets: ["LifecycleEmbedded"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Settings from the environment and a JSON file (its default trait, JSON, only).
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        // The Swift client: the runtime of the generated code, and URLSession as its transport to a daemon.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // The layers, lowest first; each target imports only those below it (docs/ARCHITECTURE.md §1):
        //   LifecycleCore   the lifecycle rules, a pure state machine
        //   LifecycleStore  the journal (SQLite or memory)          Locking  the one lock box, work side by side
        //   LifecycleJSON   JSON text: the parser, the writer, content hashes            (Core)
        //   LifecycleWire   the API's encoders and decoders, the one problem type        (Core, JSON)
        //   LifecycleExplore seeded walks of the catalogue's events, properties, shrinking  (Core, JSON, Wire, Scenarios, Locking)
        //   HTTPServer      libmicrohttpd, its only importer                             (Locking)
        //   LifecyclePersistence every stored format and its versions: records, markers, snapshots (Core, JSON, Wire)
        //   LifecycleHosting devices on their queues, what readers see, commit and replay
        //                   (Core, Store, JSON, Persistence, Locking)
        //   LifecycleApplication the business with no HTTP: namespaces, access, the journal's writer, the change feed,
        //                   export and import policy (Core, Store, JSON, Wire, Persistence, Hosting, Scenarios, Locking)
        //   LifecycleServer the API over HTTP: routes, handlers, event streams          (all of the above)
        //   LifecycleDaemon builds a daemon from one configuration value (the composition root)
        //   lifecycled      the executable: its command line
        //   LifecycleOpenAPI the API's types and operations, generated from api/openapi.yaml (scripts/swift-client)
        //   LifecycleClient  the client for people's tests, over URLSession; explore  (OpenAPI, Core, Wire, JSON, Scenarios, Explore)
        //   LifecycleEmbedded the same client over a daemon in process                 (Client, Daemon, HTTPServer)
        .target(name: "LifecycleCore", swiftSettings: strict),
        .target(name: "Locking", swiftSettings: strict),

        // GNU libmicrohttpd, seen only by HTTPServer.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(
            name: "HTTPServer",
            dependencies: [
                "CMicroHTTPD",
                "Locking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),

        // SQLite, seen only by LifecycleStore.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "LifecycleStore",
            dependencies: [
                "CSQLite",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),

        // JSON text, both ways: the parser and the writer (every JSON text written by hand), and content hashes.
        .target(name: "LifecycleJSON", dependencies: ["LifecycleCore"], swiftSettings: strict),
        .target(name: "LifecycleWire", dependencies: ["LifecycleCore", "LifecycleJSON"], swiftSettings: strict),

        // zlib, seen only by the snapshots' compression (LifecyclePersistence/Deflate.swift).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Every stored format, each with its versions: journal records of devices and namespaces, import
        // markers, snapshots, the retained entries' compact form (docs/ARCHITECTURE.md, "Stored formats").
        .target(
            name: "LifecyclePersistence",
            dependencies: ["LifecycleCore", "LifecycleJSON", "LifecycleWire", "CZlib"],
            swiftSettings: strict
        ),
        .target(
            name: "LifecycleHosting",
            dependencies: ["LifecycleCore", "LifecycleStore", "LifecycleJSON", "LifecyclePersistence", "Locking"],
            swiftSettings: strict
        ),

        // The business with no HTTP in it: namespaces, access, recovery and the journal's writing, the change
        // feed, export and import policy. LifecycleServer is its HTTP adapter.
        .target(
            name: "LifecycleApplication",
            dependencies: [
                "LifecycleCore",
                "LifecycleStore",
                "LifecycleJSON",
                "LifecycleWire",
                "LifecyclePersistence",
                "LifecycleHosting",
                "LifecycleScenarios",
                "LifecycleExplore",
                "Locking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // The revision a build was made from (-Xcc -DLIFECYCLED_REVISION=...), seen only by BuildInfo.
        .systemLibrary(name: "CBuildInfo"),
        // The REST API over HTTPServer.
        .target(
            name: "LifecycleServer",
            dependencies: [
                "LifecycleCore",
                "LifecycleStore",
                "LifecycleJSON",
                "LifecycleWire",
                "LifecyclePersistence",
                "LifecycleHosting",
                "LifecycleScenarios",
                "LifecycleExplore",
                "LifecycleApplication",
                "HTTPServer",
                "Locking",
                "CBuildInfo",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            resources: [
                // Every resource is compiled into the binary (PackageResources): it needs no files beside it,
                // and finds none through the folder it was built in (scripts/package-test runs it alone).
                .embedInCode("Resources/openapi.yaml"),
                .embedInCode("Resources/dashboard/index.html"),
                .embedInCode("Resources/dashboard/dashboard.js"),
                .embedInCode("Resources/dashboard/api.js"),
                .embedInCode("Resources/dashboard/events.js"),
                .embedInCode("Resources/dashboard/timeline.js"),
                .embedInCode("Resources/dashboard/live.js"),
                .embedInCode("Resources/dashboard/compare.js"),
                .embedInCode("Resources/dashboard/dashboard.css"),
            ],
            swiftSettings: strict
        ),
        // The composition root: a daemon built from one configuration value with one set of defaults.
        .target(
            name: "LifecycleDaemon",
            dependencies: [
                "LifecycleApplication", "LifecycleServer", "HTTPServer", "LifecycleStore", "Locking",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Scenario files run against a daemon: the format's patterns, the runner, the reports (docs/SCENARIOS.md).
        // The format's JSON Schema (docs/scenario.schema.json links to it) is compiled in: every reader holds files to it.
        .target(
            name: "LifecycleScenarios",
            dependencies: ["LifecycleCore", "LifecycleJSON"],
            resources: [.embedInCode("Resources/scenario.schema.json")],
            swiftSettings: strict
        ),
        // Seeded random walks of the catalogue's events against an app described as in a scenario file, its
        // properties held in the format's patterns, a failing walk shrunk and written as a scenario
        // (docs/EXPLORE.md); in process, or on a daemon too through a ScenarioTransport.
        .target(
            name: "LifecycleExplore",
            dependencies: ["LifecycleCore", "LifecycleJSON", "LifecycleWire", "LifecycleScenarios", "Locking"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "lifecycled",
            dependencies: [
                "LifecycleDaemon",
                "LifecycleExplore",
                "LifecycleCore",
                "LifecycleJSON",
                "LifecycleScenarios",
                "LifecycleApplication",
                "LifecycleServer",
                "LifecycleWire",
                "HTTPServer",
                "Locking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),

        // Prints the spec's sections made from the catalogue of events and `ProblemCode` (scripts/contract).
        .executableTarget(
            name: "lifecycle-contract", dependencies: ["LifecycleCore", "LifecycleWire"], swiftSettings: strict),

        // Generated by scripts/swift-client, never edited. Its imports are the generator's (public, as Swift 6
        // has them by default), so it builds without InternalImportsByDefault; the other two settings hold.
        .target(
            name: "LifecycleOpenAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility"), .enableUpcomingFeature("ExistentialAny")]
        ),
        .target(
            name: "LifecycleClient",
            dependencies: [
                "LifecycleOpenAPI", "LifecycleCore", "LifecycleWire", "LifecycleJSON", "LifecycleScenarios",
                "LifecycleExplore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LifecycleEmbedded",
            dependencies: [
                "LifecycleClient", "LifecycleDaemon", "LifecycleServer", "HTTPServer", "Locking",
                "LifecycleCore", "LifecycleWire", "LifecycleApplication", "LifecycleOpenAPI", "LifecycleExplore",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // What every test target shares, with no daemon behind it (the core's, the store's and the HTTP
        // server's tests link only this): the one eventually, temporary folder and lock box's test methods, and
        // the raw HTTP and event-stream clients of the live tests.
        .target(name: "TestSupport", dependencies: ["Locking"], path: "Tests/TestSupport", swiftSettings: strict),
        // The testing library of the daemon: the daemon in process or live on port 0 behind one interface
        // (TestDaemon), answering the same Reply either way.
        .target(
            name: "LifecycleTesting",
            dependencies: [
                "TestSupport", "LifecycleDaemon", "LifecycleApplication", "LifecycleServer", "HTTPServer",
                "LifecycleStore",
                "Locking",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/LifecycleTesting",
            swiftSettings: strict
        ),
        .testTarget(name: "LifecycleCoreTests", dependencies: ["LifecycleCore", "TestSupport"], swiftSettings: strict),
        // Counts instructions per event and per read for scripts/instruction-budget (run under callgrind).
        .executableTarget(
            name: "instruction-count",
            dependencies: [
                "LifecycleCore", "LifecycleApplication", "LifecycleServer", "HTTPServer", "LifecycleStore",
                "LifecycleWire", "LifecycleHosting", "LifecycleJSON", "LifecycleDaemon", "LifecycleScenarios",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/InstructionCount",
            // The scripts that ask the daemon itself and read callgrind's counts (scripts/instruction-budget).
            exclude: ["callgrind_costs.py", "daemon_requests.py"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifecycleScenariosTests", dependencies: ["LifecycleScenarios", "LifecycleCore", "LifecycleJSON"],
            swiftSettings: strict),
        .testTarget(
            name: "LifecycleExploreTests",
            dependencies: ["LifecycleExplore", "LifecycleScenarios", "LifecycleCore", "LifecycleJSON"],
            swiftSettings: strict),
        .testTarget(
            name: "LifecycleClientTests",
            dependencies: [
                "LifecycleClient", "LifecycleEmbedded", "LifecycleOpenAPI", "LifecycleCore", "LifecycleApplication",
                "LifecycleServer", "LifecycleDaemon", "LifecycleTesting", "TestSupport", "Locking",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: [
                "CMicroHTTPD", "HTTPServer", "TestSupport", "Locking", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifecycleStoreTests",
            dependencies: [
                "LifecycleStore", "TestSupport", "Locking", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The stored formats alone: every version of every format read from its fixture (Tests/Fixtures/formats).
        .testTarget(
            name: "LifecyclePersistenceTests",
            dependencies: ["LifecyclePersistence", "LifecycleCore", "LifecycleJSON", "LifecycleWire", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifecycleApplicationTests",
            dependencies: [
                "LifecycleApplication", "LifecycleCore", "LifecycleStore", "LifecycleWire", "LifecycleHosting",
                "LifecyclePersistence",
                "TestSupport", "Locking", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LifecycleServerTests",
            dependencies: [
                "LifecycleApplication", "LifecycleServer", "LifecycleCore", "HTTPServer", "LifecycleStore",
                "LifecycleWire", "LifecyclePersistence", "LifecycleHosting", "Locking", "LifecycleTesting",
                "TestSupport",
                "LifecycleDaemon",
                "LifecycleJSON",
                "LifecycleScenarios", "LifecycleExplore", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
