// swift-tools-version:6.1
// swift-openapi-generator, pinned, for scripts/swift-client: it writes the Swift client's generated half
// (Sources/LifecycleOpenAPI) from api/openapi.yaml and api/openapi-generator-config.yaml. A package of its own
// so that building lifecycled never builds the generator.
import PackageDescription

let package = Package(
    name: "swift-generator",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")]
)
