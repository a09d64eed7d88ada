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
}
