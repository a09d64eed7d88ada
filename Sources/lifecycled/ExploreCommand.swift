import ArgumentParser
import Foundation
import LifecycleApplication
import LifecycleCore
import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios

/// `lifecycled explore`: seeded random walks of the catalogue's events against an app described as in a
/// scenario file, its properties held after each step, the first found false shrunk and written as a scenario
/// (docs/EXPLORE.md).
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Search for event sequences that break a property: seeded random walks, shrunk to a scenario.",
        discussion: """
            The app and its device are those the --scenario file makes (its POST /v1/devices, POST /v1/apps and \
            POST .../events steps, in order; the device's clock manual). The properties are the reads with an \
            expect of that file and of each --property file: \(ExploreWorld.reads), with the scenario format's \
            patterns ($none: what never appears; $followedBy: what must follow what, within how many seconds; \
            docs/SCENARIOS.md). Each walk draws events the core takes in the state it is in (every type of the \
            catalogue: app, scene and device events, time passing, interruptions, reboots, memory pressure, \
            background wakes) and checks the properties after each step (--check-at end: at its end). The same \
            seed gives the same walks. The first walk that finds a property false is shrunk (events deleted, \
            values made simpler) and written as a scenario (--out FILE, else printed) that `lifecycled check` \
            fails the same way. With --url the walks run on that daemon too, in --namespace (emptied before each walk): \
            the same walks, each event posted there and the properties read from it. Exit status: 0 every property held, 1 one was found false, 2 a file is not a \
            scenario explore can run, 64 a wrong option.
            """)

    @Option(help: "The scenario file that makes the device and the app (and may state properties).")
    var scenario: String

    @Option(
        name: .customLong("property"),
        help: "A scenario file whose reads with an expect are properties (repeat for more).")
    var properties: [String] = []

    @Option(help: "The seed of the walks (a whole number from 0 to 2^64-1).")
    var seed: UInt64 = 1

    @Option(help: "How many walks (1 to 1000000).")
    var walks = 100

    @Option(help: "The most events in a walk (1 to 100000).")
    var steps = 50

    @Option(help: "iOS versions the walks run on in turn, comma-separated (e.g. 9.0,13.0,17.0); default: the device's.")
    var versions: String?

    @Option(help: "When the properties are checked: step (after each event) or end (at the end of each walk).")
    var checkAt = "step"

    @Option(help: "Write the shrunk scenario to this file (else it is printed).")
    var out: String?

    @Flag(help: "Print every walk's events, one scenario step a line.")
    var printWalks = false

    @Option(
        help:
            "Run the walks on the daemon at this root URL too (e.g. http://127.0.0.1:8080): the same walks, the events posted and the properties read there."
    )
    var url: String?

    @Option(help: "With --url: the namespace the walks empty and fill, each in turn (not default).")
    var namespace = "explore"

    @Option(help: "With --url: send Authorization: Bearer TOKEN with every request.")
    var token: String?

    @Option(
        help:
            "Aim the walks at what these scenarios (files or folders, as check takes them) do not cover, and write scenarios that cover what the walks reached (into the --out folder, else printed); repeat for more."
    )
    var aim: [String] = []

    /// Exit status 2: a file is not a scenario explore can run.
    static let unusable = ExitCode(2)

    func validate() throws {
        guard ExploreOptions.walkRange.contains(walks) else {
            throw ValidationError("--walks must be from 1 to \(ExploreOptions.walkRange.upperBound), not \(walks)")
        }
        guard ExploreOptions.stepRange.contains(steps) else {
            throw ValidationError("--steps must be from 1 to \(ExploreOptions.stepRange.upperBound), not \(steps)")
        }
        guard ["step", "end"].contains(checkAt) else {
            throw ValidationError("--check-at must be step or end, not \(checkAt)")
        }
        _ = try parsedVersions()
        if let url, URL(string: url)?.host == nil { throw ValidationError("--url \(url) is not a URL with a host") }
        guard NamespaceName.isValid(namespace), namespace != "default" else {
            throw ValidationError(
                "--namespace \(namespace) is not one explore can empty before each walk: a namespace name "
                    + "(\(NamespaceName.pattern)) other than default")
        }
        if url == nil, token != nil { throw ValidationError("--token goes with --url") }
        if !aim.isEmpty, url != nil || printWalks || checkAt != "step" {
            throw ValidationError(
                "--aim runs in process, properties unchecked: not with --url, --print-walks or --check-at")
        }
    }

    private func parsedVersions() throws -> [Version] {
        guard let versions else { return [] }
        return try versions.split(separator: ",", omittingEmptySubsequences: false).map { text in
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let version = Version(trimmed) else {
                throw ValidationError(
                    "--versions: \(trimmed.isEmpty ? "an empty item" : trimmed) is not an iOS version (MAJOR.MINOR, "
                        + "e.g. 9.0,13.0,17.0)")
            }
            return version
        }
    }

    /// A file held to the scenario format, and its `source`; every problem printed and exit status 2 otherwise.
    private func read(_ file: String) throws -> (Scenario, String) {
        guard let data = FileManager.default.contents(atPath: file) else {
            print("INVALID \(file): cannot read it")
            throw Self.unusable
        }
        do {
            let scenario = try ScenarioFormat.scenario(file: file, bytes: Array(data))
            let source = (try? JSONParser.parse(Array(data)))?["source"]?.stringValue ?? ""
            return (scenario, source)
        } catch {
            for problem in error.problems { print("INVALID \(file): \(problem)") }
            throw Self.unusable
        }
    }

    func run() throws {
        let (world, source) = try read(scenario)
        let explored: ExploreWorld
        var options = ExploreOptions()
        options.seed = seed
        options.walks = walks
        options.steps = steps
        options.versions = try parsedVersions()
        options.everyStep = checkAt == "step"
        do {
            var made = try ExploreWorld(
                scenario: world, source: source, properties: try properties.map { try read($0).0 },
                needingProperty: aim.isEmpty)
            if let url {
                made.daemon = try ExploreDaemon(
                    transport: URLSessionScenarioTransport(root: url), namespace: namespace, token: token)
            }
            explored = made
            // Every version builds the world before any walk: a version the device or the app refuses is named.
            for version in options.versions.isEmpty ? [nil] : options.versions.map(Optional.some) {
                _ = try explored.start(on: version)
            }
        } catch let error as ExploreError {
            print("UNUSABLE \(scenario): \(error)")
            throw Self.unusable
        }
        if !aim.isEmpty { return try aiming(explored, options) }
        let explorer = Explorer(world: explored, options: options)
        let started = ContinuousClock.now
        let report: ExploreReport
        do {
            report = try explorer.run(keepingWalks: printWalks)
        } catch {
            print("UNUSABLE \(scenario): \(error)")
            throw Self.unusable
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let on =
            options.versions.isEmpty ? "" : " on iOS \(options.versions.map(\.description).joined(separator: ", "))"
        if printWalks {
            for (index, walk) in report.walkSteps.enumerated() {
                let devices = explored.deviceIDs(on: explorer.version(of: index))
                print("walk \(index)\(explorer.version(of: index).map { " (iOS \($0))" } ?? ""): \(walk.count) events")
                for step in walk { print("  " + explored.line(step, devices: devices)) }
            }
        }
        print(
            "explored \(report.walks) walk\(report.walks == 1 ? "" : "s") of up to \(steps) events, seed \(seed)\(on): "
                + "\(report.events) events, \(report.refused) drawn and refused")
        FileHandle.standardError.write(
            Data(
                String(
                    format: "explore: %.2f s, %.0f events a second\n", seconds,
                    Double(report.events) / max(seconds, 1e-9)
                ).utf8))
        guard let finding = report.failure else {
            print("HELD every property (\(explored.properties.count))")
            return
        }
        FileHandle.standardError.write(
            Data(
                String(format: "explore: shrunk in %.3f s (%d replays)\n", finding.shrinkSeconds, finding.replays).utf8)
        )
        let property = explored.propertyLabel(finding.failure.property)
        print("FALSE \(property.label) (\(property.request))")
        print("     \(finding.failure.message)")
        if let lists = finding.failure.mismatch.lists {
            print(ScenarioReport.sideBySide(lists.expected, lists.actual, marking: lists.index))
        }
        let devices = explored.deviceIDs(on: finding.version)
        print(
            "     walk \(finding.walk)\(finding.version.map { " on iOS \($0)" } ?? "") found it after "
                + "\(finding.steps.count) event\(finding.steps.count == 1 ? "" : "s"); shrunk to "
                + "\(finding.shrunk.count) in \(finding.replays) replays:")
        for step in finding.shrunk { print("       " + explored.line(step, devices: devices)) }
        let written = explored.scenario(of: finding, seed: seed)
        if let out {
            try Data(written.utf8).write(to: URL(fileURLWithPath: out))
            print("wrote \(out): lifecycled check \(out) fails the same way")
        } else {
            print(written, terminator: "")
        }
        throw ExitCode.failure
    }

    /// `--aim`: the suite's coverage, walks aimed at what it misses, the walks that reached something new
    /// written as scenarios, and the coverage before and after.
    private func aiming(_ world: ExploreWorld, _ options: ExploreOptions) throws {
        let (before, failed) = try CheckCommand.coverage(of: aim)
        print(
            "coverage of \(aim.joined(separator: ", ")) before\(failed > 0 ? " (\(failed) scenario(s) failed)" : ""):")
        print(before.text())
        let report: AimedExploration.Report
        do {
            report = try AimedExploration(world: world, options: options, before: before).run()
        } catch {
            print("UNUSABLE \(scenario): \(error)")
            throw Self.unusable
        }
        print(
            "aimed \(options.walks) walk\(options.walks == 1 ? "" : "s") of up to \(steps) events, seed \(seed): "
                + "\(report.events) events; \(report.walks.count) reached what the suite had not")
        if let out { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
        for (number, walk) in report.walks.enumerated() {
            let items = walk.added.keys.sorted().flatMap { band in walk.added[band]!.items.map { "\($0) (iOS \(band))" }
            }
            let text = world.scenario(
                titled:
                    "\(world.name): walk \(walk.index) aimed at what \(aim.joined(separator: ", ")) had not covered "
                    + "(seed \(seed)\(walk.version.map { ", iOS \($0)" } ?? "")): \(items.joined(separator: ", "))",
                version: walk.version, steps: walk.steps, closing: [])
            print("     walk \(walk.index): \(walk.steps.count) events; covers \(items.joined(separator: ", "))")
            if let out {
                let file = (out as NSString).appendingPathComponent("aimed-\(number + 1).json")
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))
                print("     wrote \(file)")
            } else {
                print(text, terminator: "")
            }
        }
        print("coverage after, with \(out.map { "the scenarios of \($0)" } ?? "those scenarios"):")
        print(report.after.text())
    }
}
