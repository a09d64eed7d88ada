import Testing

@testable import LifecycleCore

/// §6: the system's snapshot of the app's UI as its background callback returns, and the sensitive views
/// the app hid before it (seed 000 §3.3 (1), (10)).
@Suite struct SnapshotTests {
    static let views = ["balance", "cardNumber"]

    static func sim(_ actions: [String: [CallbackAction]] = [:], views: [String]? = views) -> Sim {
        var sim = Sim(ios: "7.0")
        sim.add("a", actions: actions, sensitiveViews: views)
        return sim
    }

    @Test("§6 the snapshot comes right after applicationDidEnterBackground: returns, showing what was not hidden")
    func afterDidEnterBackground() throws {
        var sim = Self.sim()
        try sim.on("a", .foregroundLaunch, .homeButton)
        let trace = sim.last.entries.trace(of: "a")
        let posted = try #require(trace.firstIndex(of: "post UIApplicationDidEnterBackgroundNotification"))
        #expect(trace[posted + 1] == "snapshot visible:balance,cardNumber hidden:")
        #expect(trace.filter { $0.hasPrefix("snapshot") }.count == 1)
    }

    @Test("§6 views hidden inside applicationDidEnterBackground: are hidden in the snapshot; shown again on return")
    func hiddenInTime() throws {
        var sim = Self.sim([
            Selector.didEnterBackground: [.hideViews(views: nil)],
            Selector.willEnterForeground: [.showViews(views: ["balance"])],
        ])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.last.entries.trace(of: "a").contains("snapshot visible: hidden:balance,cardNumber"))
        #expect(sim.app("a").hiddenViews == Self.views)
        try sim.on("a", .activate(session: nil))
        #expect(sim.app("a").hiddenViews == ["cardNumber"])
        // Inside applicationDidEnterBackground: it hides them all again.
        try sim.on("a", .homeButton)
        #expect(sim.last.entries.trace(of: "a").contains("snapshot visible: hidden:balance,cardNumber"))
    }

    @Test("§6 hidden earlier counts too; no views declared or no multitasking: no snapshot entry; a relaunch shows all")
    func earlierOrNone() throws {
        // Hiding in applicationWillResignActive: is in time too: the snapshot comes later.
        var early = Self.sim([Selector.willResignActive: [.hideViews(views: ["cardNumber"])]])
        try early.on("a", .foregroundLaunch, .homeButton)
        #expect(early.last.entries.trace(of: "a").contains("snapshot visible:balance hidden:cardNumber"))
        var none = Self.sim(views: nil)
        try none.on("a", .foregroundLaunch, .homeButton)
        #expect(!none.entries.trace(of: "a").contains { $0.hasPrefix("snapshot") })
        // An app that does not multitask takes no snapshot: it ends.
        var old = Sim(ios: "3.0")
        old.add("a", sensitiveViews: Self.views)
        try old.on("a", .foregroundLaunch, .homeButton)
        #expect(!old.entries.trace(of: "a").contains { $0.hasPrefix("snapshot") })
        // A relaunch starts with every view shown.
        var relaunched = Self.sim([Selector.didEnterBackground: [.hideViews(views: nil)]])
        try relaunched.on("a", .foregroundLaunch, .homeButton, .terminate)
        #expect(relaunched.app("a").hiddenViews == nil)
    }

    @Test("§6 a scene app: one snapshot per scene, after its sceneDidEnterBackground:")
    func scenes() throws {
        var sim = Sim(ios: "13.0", idiom: .pad)
        sim.add(
            "a", scenes: .multiple, actions: [Selector.sceneDidEnterBackground: [.hideViews(views: ["balance"])]],
            sensitiveViews: Self.views)
        try sim.on(
            "a", .foregroundLaunch, .openScene(session: nil, url: nil, sourceApplication: nil, placement: .split))
        try sim.on("a", .homeButton)
        let trace = sim.last.entries.trace(of: "a")
        #expect(trace.filter { $0.hasPrefix("snapshot") }.count == 2)
        let call = try #require(trace.firstIndex { $0.hasPrefix("call sceneDidEnterBackground:") })
        #expect(trace[call + 2].hasPrefix("snapshot visible:cardNumber hidden:balance"))
    }

    @Test("§6 an action may name only declared views; at most 64, each once")
    func validation() {
        var configuration = AppConfiguration(bundleId: "x")
        configuration.sensitiveViews = ["a"]
        configuration.delegate.actions = [Selector.didEnterBackground: [.hideViews(views: ["b"])]]
        #expect(configuration.validationFailure()?.field == "delegate.actions")
        configuration.delegate.actions = nil
        configuration.sensitiveViews = ["a", "a"]
        #expect(configuration.validationFailure()?.field == "sensitiveViews")
        configuration.sensitiveViews = (0...64).map { "v\($0)" }
        #expect(configuration.validationFailure()?.field == "sensitiveViews")
    }
}
