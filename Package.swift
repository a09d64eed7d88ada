// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "lifecycled",
    // Synchronization's Mutex and Atomic need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lifecycled", targets: ["lifecycled"]),
        .library(name: "LifecycleCore", targets: ["LifecycleCore"]),
        // For the fuzz package under Fuzz/ (JSONParser, BodyDecoding).
        .library(name: "LifecycleServer", targets: ["LifecycleServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        // The lifecycle rules: a pure state machine. Standard library and Foundation value types only.
        .target(name: "LifecycleCore"),

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
                .product(name: "Logging", package: "swift-log"),
            ]
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
            ]
        ),

        // zlib, seen only by the snapshot compression of LifecycleServer (Persistence/Deflate.swift).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // Hosting devices on Dispatch queues and the REST API over HTTPServer.
        .target(
            name: "LifecycleServer",
            dependencies: [
                "LifecycleCore",
                "HTTPServer",
                "LifecycleStore",
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            resources: [
                .copy("Resources/openapi.yaml"),
                // The dashboard is compiled into the binary (PackageResources), so it needs no files beside it.
                .embedInCode("Resources/dashboard/index.html"),
                .embedInCode("Resources/dashboard/dashboard.js"),
                .embedInCode("Resources/dashboard/api.js"),
                .embedInCode("Resources/dashboard/events.js"),
                .embedInCode("Resources/dashboard/timeline.js"),
                .embedInCode("Resources/dashboard/live.js"),
                .embedInCode("Resources/dashboard/dashboard.css"),
            ]
        ),
        .executableTarget(
            name: "lifecycled",
            dependencies: [
                "LifecycleServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        .testTarget(name: "LifecycleCoreTests", dependencies: ["LifecycleCore"]),
        // Counts instructions per event and per read for scripts/instruction-budget (run under callgrind).
        .executableTarget(
            name: "instruction-count",
            dependencies: [
                "LifecycleCore", "LifecycleServer", "HTTPServer", "LifecycleStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/InstructionCount"
        ),
        // A small blocking HTTP client shared by the live tests.
        .target(name: "HTTPTestClient", path: "Tests/HTTPTestClient"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPTestClient"]),
        .testTarget(
            name: "LifecycleStoreTests",
            dependencies: ["LifecycleStore", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "LifecycleServerTests",
            dependencies: [
                "LifecycleServer", "LifecycleCore", "HTTPServer", "LifecycleStore", "HTTPTestClient",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
