// swift-tools-version: 6.1
// Micro-benchmarks of LifecycleCore (the pure state machine) with ordo-one's Benchmark package.
// A separate package so the main one carries no benchmark dependency. Run: swift package benchmark
import Foundation
import PackageDescription

/// A dependency given by path is known by its directory's name: whatever the checkout is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "CoreBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "LifecycleCoreBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "LifecycleCore", package: root),
            ],
            path: "Benchmarks/LifecycleCoreBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark")
            ]
        )
    ]
)
