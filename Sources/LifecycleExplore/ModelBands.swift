import Foundation
package import LifecycleCore
import LifecycleJSON
import Locking

/// The OS bands the model distinguishes and what it can produce on each, found from the core itself: probe
/// worlds (an app-delegate phone with a passcode and two apps, one with background modes; a scene app on an
/// iPad with several scenes) explored by the same short seeded walks on every candidate version, MAJOR.MINOR for
/// MAJOR from 2 to `newestMajor` and MINOR from 0 to 3. Two neighbouring versions whose walks give the same
/// timelines, entry for entry, are in one band; a band begins where they differ. A band's universe is what its
/// walks exercised (states, transitions, events by catalogue type, callbacks, scene states): what the model
/// can produce there, as far as a bounded exploration reaches: longer walks on its first version. docs/TESTING.md, "Coverage".
package struct ModelBands: Sendable {
    package struct Band: Sendable {
        /// The first version of the band, and the first of the next (nil: the last band).
        package var from: Version
        package var until: Version?
        package var universe: CoverageTally

        package var label: String { until.map { "\(from)-<\($0)" } ?? "\(from)+" }

        package func contains(_ version: Version) -> Bool { version >= from && until.map { version < $0 } ?? true }
    }

    package var bands: [Band]

    /// The last major version tried: past the newest gate of the core, so its last band is seen to go on.
    package static let newestMajor = 30
    /// Walks per probe world and version, and their length: what bounds the universe.
    package static let walks = 12
    package static let steps = 40
    /// The shorter walks that tell whether two versions behave alike.
    static let probeWalks = (walks: 3, steps: 20)

    /// The candidate versions, oldest first.
    package static var candidates: [Version] {
        (Version.oldest.major...newestMajor).flatMap { major in (0...3).map { Version(major, $0) } }
    }

    /// The probe worlds on `version`.
    static func probes(on version: Version) -> [ExploreWorld] {
        let v = "\"iosVersion\": \"\(version)\""
        let sceneInfo =
            #""info": {"sceneManifest": {"supportsMultipleScenes": true, "configurations": [{"name": "Default Configuration"}]}}, "delegate": {"returns": {"application:configurationForConnectingSceneSession:options:": "Default Configuration"}}"#
        var worlds = [
            [
                #"{"do": "POST /v1/devices", "body": {"id": "d", \#(v), "passcode": true}}"#,
                #"{"do": "POST /v1/apps", "body": {"id": "a", "device": "d", "bundleId": "com.example.a", "info": {"backgroundModes": ["audio", "fetch", "remote-notification"]}}}"#,
                #"{"do": "POST /v1/apps", "body": {"id": "b", "device": "d", "bundleId": "com.example.b"}}"#,
            ],
            [
                #"{"do": "POST /v1/devices", "body": {"id": "p", \#(v), "idiom": "pad"}}"#,
                #"{"do": "POST /v1/apps", "body": {"id": "s", "device": "p", "bundleId": "com.example.s", \#(sceneInfo)}}"#,
            ],
        ]
        // BGTaskScheduler's requests are a delegate's actions, not events: an app that submits every kind its OS
        // has (an app cannot be made with a kind newer than its OS), so that each kind's gate is seen.
        let kinds = ScheduledTaskKind.allCases.filter { version >= $0.since }
        if !kinds.isEmpty {
            let submits = kinds.map {
                #"{"do": "submitTask", "kind": "\#($0.rawValue)", "identifier": "com.example.t.\#($0.rawValue)"}"#
            }
            let selector = kinds.contains(.continued) ? "touchesEnded:withEvent:" : "applicationDidEnterBackground:"
            worlds.append([
                #"{"do": "POST /v1/devices", "body": {"id": "t", \#(v)}}"#,
                #"{"do": "POST /v1/apps", "body": {"id": "t", "device": "t", "bundleId": "com.example.t", "info": {"backgroundModes": ["fetch", "processing"], "bgTaskIdentifiers": ["com.example.t.*"]}, "delegate": {"actions": {"\#(selector)": [\#(submits.joined(separator: ", "))]}}}}"#,
            ])
        }
        return worlds.map { steps in
            ExploreWorld(
                name: "probe", source: "ModelBands",
                setup: steps.compactMap { try? JSONParser.parse(Array($0.utf8)) })
        }
    }

    /// What the probe walks do on `version`: every walk's timelines, and what they exercised.
    static func explore(on version: Version, walks: Int = walks, steps: Int = steps) -> (
        timelines: [[TimelineEntry]], tally: CoverageTally
    ) {
        var timelines: [[TimelineEntry]] = []
        var tally = CoverageTally()
        for world in probes(on: version) {
            guard let start = try? world.start(on: nil) else { continue }
            for walk in 0..<walks {
                var state = start
                var walker = Walker(seed: Walker.seed(of: walk, in: 1))
                var stuck = 0
                var taken = 0
                while taken < steps, stuck < Walker.stuck {
                    guard let step = walker.step(&state) else {
                        stuck += 1
                        continue
                    }
                    stuck = 0
                    taken += 1
                    tally.events.insert(step.event.eventType.name)
                }
                for timeline in state.timelines {
                    timelines.append(timeline)
                    for entry in timeline { tally.add(entry) }
                }
            }
        }
        return (timelines, tally)
    }

    /// The bands of this build's core, derived once per process, when first asked (the core is the same for the
    /// process's life): what `check --coverage`, `check --versions` and the daemon's coverage and versions reads use.
    package static let known = derive()

    /// The bands, each with its universe. Each version's walks are its own (the core is pure), so they run side by
    /// side, on every core, and the bands are read off in order after.
    package static func derive() -> ModelBands {
        let versions = candidates
        let probed = inParallel(versions.count) {
            explore(on: versions[$0], walks: probeWalks.walks, steps: probeWalks.steps).timelines
        }
        let starts = versions.indices.filter { $0 == 0 || probed[$0] != probed[$0 - 1] }
        let universes = inParallel(starts.count) { explore(on: versions[starts[$0]]).tally }
        return ModelBands(
            bands: starts.indices.map { band in
                Band(
                    from: versions[starts[band]], until: band + 1 < starts.count ? versions[starts[band + 1]] : nil,
                    universe: universes[band])
            })
    }

    /// `body` of 0..<count on one thread of its own a core (`sideBySide`), the results in order.
    private static func inParallel<Result: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Result)
        -> [Result]
    {
        sideBySide(count, threads: max(1, ProcessInfo.processInfo.activeProcessorCount), body)
    }

    /// The band of `version`.
    package func band(of version: Version) -> Int? { bands.firstIndex { $0.contains(version) } }
}
