import Testing

@testable import LifecycleCore

/// The app table changes apps in place and keeps its records (undo, changed ids, clocked apps, memory) by
/// marks on each app's box: these check that copies, rollbacks and a driver's readers still see the right apps.
@Suite("App table")
struct AppTableTests {
    static func twoApps() throws -> Sim {
        var sim = Sim(ios: "7.0")
        sim.add("a", memoryMB: 100)
        sim.add("b", memoryMB: 250)
        return sim
    }

    @Test("a rejected batch puts back every app it changed, however often it changed them, and the totals")
    func rollbackRestoresAppsAndTotals() throws {
        var sim = try Self.twoApps()
        try sim.on("b", .foregroundLaunch, .beginBackgroundTask(name: "t", duration: nil))
        let before = sim.device
        // a launches (b leaves the front), b's task ends, a goes Home; then an unknown task ends: refused.
        let rejection = sim.rejection(
            "a", .foregroundLaunch, .homeButton, .foregroundLaunch, .endBackgroundTask(task: 99))
        #expect(rejection?.index == 3)
        #expect(sim.device == before)
        #expect(sim.device.memoryInUseMB == 250)
        #expect(sim.device.apps.bookkeepingFailure == nil)
        #expect(sim.device.apps.clocked == before.apps.clocked)
    }

    @Test("a copy taken before a change keeps the apps as they were")
    func copiesDoNotSeeLaterChanges() throws {
        var sim = try Self.twoApps()
        try sim.on("a", .foregroundLaunch)
        let copy = sim.device
        try sim.on("a", .homeButton)
        #expect(copy.app("a")?.state == .active)
        #expect(sim.app("a").state == .suspended)
        // And changing the copy leaves the original alone.
        var other = copy
        _ = try other.apply([.homeButton], app: nil, now: 0)
        #expect(copy.app("a")?.state == .active)
        #expect(other.app("a")?.state == .suspended)
        #expect(other.apps.bookkeepingFailure == nil)
        #expect(copy.apps.bookkeepingFailure == nil)
    }

    @Test("changed ids: every app changed since the last call, also one changed again after a call")
    func changedIdsAcrossCalls() throws {
        var sim = try Self.twoApps()
        _ = sim.device.takeChangedApps()
        try sim.on("a", .foregroundLaunch)
        #expect(sim.device.takeChangedApps() == ["a"])
        #expect(sim.device.takeChangedApps() == [])
        try sim.on("a", .homeButton)
        try sim.on("b", .foregroundLaunch)
        #expect(sim.device.takeChangedApps() == ["a", "b"])
        // A rejected batch that touched an app still names it: its readers must take it again (unchanged).
        _ = sim.rejection("b", .homeButton, .endBackgroundTask(task: 42))
        #expect(sim.device.takeChangedApps().contains("b"))
    }

    @Test("a reader catching up with only the changed apps ends up equal to the state machine")
    func readerCatchUp() throws {
        var sim = try Self.twoApps()
        var reader = sim.device
        _ = sim.device.takeChangedApps()
        for events: [Event] in [
            [.foregroundLaunch], [.homeButton], [.foregroundLaunch, .beginBackgroundTask(name: nil, duration: 3)],
        ] {
            _ = try sim.device.apply(events, app: "a", now: 0)
            let changed = sim.device.takeChangedApps()
            reader.catchUp(with: sim.device.changes(of: changed), apps: changed)
            #expect(reader == sim.device)
            #expect(reader.apps.bookkeepingFailure == nil)
        }
        _ = try sim.device.apply([.homeButton, .advanceTime(seconds: 10)], app: "b", now: 0)
        let changed = sim.device.takeChangedApps()
        reader.catchUp(with: sim.device.changes(of: changed), apps: changed)
        #expect(reader == sim.device)
        #expect(reader.nextDeadline == sim.device.nextDeadline)
    }

    // MARK: The memo of the app last changed or focused

    static let coldStart = Launch.ios6 + [Selector.didBecomeActive]
    static let warmStart = [Selector.willEnterForeground, Selector.didBecomeActive]
    static let warnedAndSentHome = [
        Selector.didReceiveMemoryWarning, Selector.willResignActive, Selector.didEnterBackground,
    ]

    /// Apps a to f, not running; a launched in front, then g added (not running).
    static func sevenApps() throws -> Sim {
        var sim = Sim(ios: "7.0")
        for id in ["a", "b", "c", "d", "e", "f"] { sim.add(id) }
        try sim.on("a", .foregroundLaunch)
        sim.add("g")
        return sim
    }

    /// Applies `events` on `id`'s path and checks they reached `id` only: every entry is about it (or the
    /// device), and every other app is as it was.
    @discardableResult
    static func only(
        _ id: String, _ events: [Event], in sim: inout Sim, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Outcome {
        let before = sim.device
        let outcome = try sim.apply(events, app: id, now: 0)
        #expect(Set(outcome.entries.compactMap(\.app)) == [id], sourceLocation: sourceLocation)
        for other in sim.device.appOrder where other != id {
            #expect(sim.device.app(other) == before.app(other), "\(other)", sourceLocation: sourceLocation)
        }
        #expect(sim.device.apps.bookkeepingFailure == nil, sourceLocation: sourceLocation)
        return outcome
    }

    /// Addresses each app in turn, another app added or removed between two of its events: the app just
    /// addressed is the table's memo then, and adding or removing an app may move it in the table.
    static func addressEachApp(in sim: inout Sim, warm: Set<String>) throws -> [String] {
        var handled: [String] = []
        for (step, id) in sim.device.appOrder.enumerated() {
            let launched = try only(id, [.foregroundLaunch], in: &sim)
            #expect(sim.state(id) == .active, "\(id)")
            #expect(launched.entries.selectors(of: id) == (warm.contains(id) ? warmStart : coldStart), "\(id)")
            if step.isMultiple(of: 2) {
                sim.add("new\(step)")
            } else {
                try sim.device.removeApp(id: handled.removeFirst())
            }
            let sent = try only(id, [.memoryWarning, .homeButton], in: &sim)
            #expect(sim.state(id) == .suspended, "\(id)")
            #expect(sent.entries.selectors(of: id) == warnedAndSentHome, "\(id)")
            handled.append(id)
        }
        return handled
    }

    @Test("after a rolled-back batch and apps removed and added, each event reaches the app it addresses")
    func eventsReachTheirAppsAfterARollback() throws {
        var sim = try Self.sevenApps()
        let before = sim.device
        // b launches (a leaves the front), c and then g are switched to, and b's unknown task ends: refused.
        let rejection = sim.rejection(
            "b", .foregroundLaunch, .switchApp(to: "c"), .switchApp(to: "g"), .endBackgroundTask(task: 99))
        #expect(rejection?.index == 3)
        #expect(sim.device == before)
        #expect(sim.state("a") == .active)
        for id in ["b", "c", "d", "e", "f", "g"] { #expect(sim.state(id) == .notRunning, "\(id)") }
        #expect(sim.device.memoryInUseMB == 100)

        // The app in front and one the batch touched go; the latter comes back as a new app, and h comes.
        try sim.device.removeApp(id: "a")
        try sim.device.removeApp(id: "c")
        sim.add("h")
        sim.add("c")
        #expect(sim.device.app("a") == nil)
        #expect(sim.device.appOrder == ["b", "d", "e", "f", "g", "h", "c"])
        #expect(sim.device.memoryInUseMB == 0)

        let kept = try Self.addressEachApp(in: &sim, warm: [])
        #expect(kept == ["f", "g", "h", "c"])
        #expect(sim.device.appOrder == ["f", "g", "h", "c", "new0", "new2", "new4", "new6"])
        for id in kept { #expect(sim.state(id) == .suspended, "\(id)") }
        for id in ["new0", "new2", "new4", "new6"] { #expect(sim.state(id) == .notRunning, "\(id)") }
        #expect(sim.device.memoryInUseMB == 400)
        #expect(sim.device.foregroundApp == nil)
    }

    @Test("after an accepted batch and apps removed and added, each event reaches the app it addresses")
    func eventsReachTheirAppsAfterACommit() throws {
        var sim = try Self.sevenApps()
        try sim.on("b", .foregroundLaunch, .switchApp(to: "c"), .switchApp(to: "g"), .homeButton)
        for id in ["a", "b", "c", "g"] { #expect(sim.state(id) == .suspended, "\(id)") }
        for id in ["d", "e", "f"] { #expect(sim.state(id) == .notRunning, "\(id)") }
        #expect(sim.selectors("c") == Self.coldStart + [Selector.willResignActive, Selector.didEnterBackground])
        #expect(sim.device.memoryInUseMB == 400)

        try sim.device.removeApp(id: "a")
        try sim.device.removeApp(id: "c")
        sim.add("h")
        sim.add("c")
        #expect(sim.state("c") == .notRunning)
        #expect(sim.device.memoryInUseMB == 200)

        // b and g come back from suspension; the others, the new c among them, start cold.
        let kept = try Self.addressEachApp(in: &sim, warm: ["b", "g"])
        #expect(kept == ["f", "g", "h", "c"])
        for id in kept { #expect(sim.state(id) == .suspended, "\(id)") }
        #expect(sim.device.memoryInUseMB == 400)
        #expect(sim.device.foregroundApp == nil)
    }
}
