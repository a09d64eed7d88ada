import Testing

@testable import LifecycleCore

@Suite("§1 States")
struct AppStateTests {
    @Test("§1 a new app is notRunning, with no termination and no entries")
    func newAppIsNotRunning() {
        var sim = Sim()
        sim.add("a")
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").termination == nil)
        #expect(sim.app("a").lastSeq == 0)
        #expect(sim.device.lastSeq == 0)
    }

    @Test("§1 inactive and active are the foreground; background and suspended are not")
    func foregroundStates() {
        #expect(AppState.allCases.filter(\.isForeground) == [.inactive, .active])
        #expect(AppState.allCases.filter(\.isRunning) == [.inactive, .active, .background])
    }

    @Test("§1 at most one app per device is in the foreground")
    func oneForegroundApp() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.device.foregroundApp == "a")
        try sim.on("b", .foregroundLaunch)
        #expect(sim.device.foregroundApp == "b")
        #expect(sim.state("a") == .suspended)
        #expect(sim.state("b") == .active)
    }

    @Test("§1 the system suspends an app without telling it")
    func suspensionIsSilent() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(
            sim.last.entries.trace(of: "a").suffix(3) == [
                "call applicationDidEnterBackground: [background]",
                "post UIApplicationDidEnterBackgroundNotification",
                "state background→suspended",
            ])
    }

    @Test("§1 the system purges a suspended app without telling it")
    func purgeIsSilent() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.onDevice(.memoryPressure(level: .critical))
        #expect(sim.last.entries.trace(of: "a") == ["state suspended→notRunning", "end memoryPressure notified:false"])
    }
}
