// swift-tools-version:6.1
// A team's package of tests that drive lifecycled through its Swift client (docs/CLIENTS.md, "Swift: adding
// the package"). scripts/dependency-test builds it against this checkout, from a folder of another name.
import PackageDescription

let package = Package(
    name: "mail-app-tests",
    platforms: [.macOS(.v15)],
    dependencies: [
        // A checkout of lifecycled, wherever it is and whatever its folder is called: `name:` is the name that
        // the products below are found by (SwiftPM would otherwise take the folder's name).
        .package(name: "lifecycled", path: "../lifecycled")
        // Or a release, by its tag: .package(url: "https://YOUR-GIT-HOST/lifecycled.git", from: "1.0.0"),
    ],
    targets: [
        .testTarget(
            name: "MailAppTests",
            dependencies: [
                .product(name: "LifecycleClient", package: "lifecycled"),
                .product(name: "LifecycleEmbedded", package: "lifecycled"),
            ]
        )
    ]
)
