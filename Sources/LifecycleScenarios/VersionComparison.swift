public import LifecycleCore

/// The same inputs run on several iOS versions: whether each run went through, and each app's callbacks side by
/// side with the first row at which they differ (`ScenarioReport.firstDifference`). What `lifecycled check
/// --versions` reports for a scenario and `GET /v1/apps/{id}/versions` for an app's recorded inputs.
public struct VersionComparison: Sendable {
    /// One app's callbacks on each version, in the order of `versions`.
    public struct App: Sendable {
        public var app: String
        public var callbacks: [[String]]
        /// The first callback (from 0) at which the versions differ; nil when they are the same.
        public var firstDifference: Int?
    }

    public var versions: [Version]
    /// Per version, where its run stopped (nil: it ran every input).
    public var stopped: [String?]
    /// By app id.
    public var apps: [App]

    /// The most versions one comparison takes: what bounds a daemon's answer.
    public static let maxVersions = 16

    /// `callbacks`: per version, each app's selectors in order; an app missing from a version has none there.
    public init(versions: [Version], stopped: [String?], callbacks: [[String: [String]]]) {
        self.versions = versions
        self.stopped = stopped
        apps = Set(callbacks.flatMap(\.keys)).sorted().map { app in
            let lists = callbacks.map { $0[app] ?? [] }
            return App(
                app: app, callbacks: lists,
                firstDifference: ScenarioReport.firstDifference(lists.map { $0.map(JSONValue.string) }))
        }
    }

    /// Whether a run stopped or an app's callbacks differ.
    public var differs: Bool { stopped.contains { $0 != nil } || apps.contains { $0.firstDifference != nil } }

    /// The versions a comma-separated list names, in its order (`9.0,13.0,17.0`); the problem names the item
    /// that is no version and what a version is.
    public static func versions(_ list: String) -> Result<[Version], VersionListProblem> {
        let items = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard items.count <= maxVersions else {
            return .failure(
                VersionListProblem("\(items.count) versions: at most \(maxVersions) are compared at once"))
        }
        var versions: [Version] = []
        for item in items {
            guard let version = Version(item) else {
                return .failure(
                    VersionListProblem(
                        "\(item.isEmpty ? "an empty item" : "\"\(item)\"") is not an iOS version: give MAJOR.MINOR "
                            + "(or MAJOR, MAJOR.MINOR.PATCH) from \(Version.oldest) up, each number at most 4 "
                            + "digits, separated by commas, e.g. 9.0,13.0,17.0"))
            }
            versions.append(version)
        }
        return .success(versions)
    }

    /// The report's lines: each version's run, then each app's callbacks side by side, the first difference marked.
    public func lines() -> [String] {
        var text: [String] = []
        for (index, version) in versions.enumerated() {
            text.append("     iOS \(version): " + (stopped[index].map { "stopped at \($0)" } ?? "ran every step"))
        }
        for app in apps {
            text.append(
                "     \(app.app): "
                    + (app.firstDifference.map { "callback \($0 + 1) differs" } ?? "the same on every version"))
            text.append(
                ScenarioReport.columns(
                    versions.map { "iOS \($0)" }, app.callbacks.map { $0.map(JSONValue.string) },
                    marking: app.firstDifference))
        }
        return text
    }

    /// The comparison as JSON: `versions`, `stopped` (per version, nil when it ran every input) and `apps`, each
    /// with `app`, `callbacks` by version and `firstDifference` (from 0, null when none).
    public var json: [String: JSONValue] {
        [
            "versions": .array(versions.map { .string($0.description) }),
            "stopped": .array(stopped.map { $0.map(JSONValue.string) ?? .null }),
            "apps": .array(
                apps.map { app in
                    var byVersion: [String: JSONValue] = [:]
                    for (index, version) in versions.enumerated() {
                        byVersion[version.description] = .array(app.callbacks[index].map(JSONValue.string))
                    }
                    return .object([
                        "app": .string(app.app), "callbacks": .object(byVersion),
                        "firstDifference": app.firstDifference.map { .number(Double($0)) } ?? .null,
                    ])
                }),
        ]
    }
}

/// Why a list of versions was refused: what was wrong and what is allowed.
public struct VersionListProblem: Error, Sendable {
    public var detail: String

    public init(_ detail: String) { self.detail = detail }
}
