// swift-tools-version:6.1
// libFuzzer harness for the JSON parser and the request decoders. Built apart from the daemon:
//   swift build --package-path Fuzz --scratch-path .build-fuzz \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// scripts/fuzz builds and runs it.
import PackageDescription

let package = Package(
    name: "lifecycled-fuzz",
    dependencies: [.package(name: "lifecycled", path: "..")],
    targets: [
        .executableTarget(
            name: "BodyFuzzer",
            dependencies: [
                .product(name: "LifecycleWire", package: "lifecycled"),
                .product(name: "LifecycleCore", package: "lifecycled"),
            ]
        )
    ]
)
