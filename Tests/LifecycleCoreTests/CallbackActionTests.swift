import Testing

@testable import LifecycleCore

/// §6: what an app does inside its callbacks (`delegate.actions`), and what the system does about it
/// (seed 000 §3.3 (1)–(3), (6), §3.5).
@Suite struct CallbackActionTests {
    static let save = CallbackAction.beginBackgroundTask(name: "save", duration: 8)

    static func sim(ios: String = "7.0", _ actions: [String: [CallbackAction]], modes: [String] = []) -> Sim {
        var sim = Sim(ios: ios)
        sim.add("a", backgroundModes: modes, actions: actions)
        return sim
    }

    @Test("§6 a task begun inside applicationDidEnterBackground: keeps the app running until it ends (suspendDelay 0)")
    func taskFromDidEnterBackground() throws {
        var sim = Self.sim([Selector.didEnterBackground: [Self.save]])
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.state("a") == .background)
        let trace = sim.last.entries.trace(of: "a")
        let call = try #require(trace.firstIndex(of: "call applicationDidEnterBackground: [background]"))
        #expect(trace[call + 1] == "task began 1")
        #expect(trace[call + 2] == "post UIApplicationDidEnterBackgroundNotification")
        try sim.onDevice(.wait(8))
        #expect(sim.last.entries.trace(of: "a").suffix(2) == ["task ended 1", "state background→suspended"])
        // Without the action, the same Home suspends it at once.
        var plain = Self.sim([:])
        try plain.on("a", .foregroundLaunch, .homeButton)
        #expect(plain.state("a") == .suspended)
    }

    @Test("§6 applicationWillTerminate: cannot ask for more time: the task is refused (task 0) and the app ends")
    func noMoreTimeInWillTerminate() throws {
        var sim = Self.sim([Selector.willTerminate: [Self.save]])
        try sim.on("a", .foregroundLaunch, .terminate)
        let trace = sim.last.entries.trace(of: "a")
        let call = try #require(trace.firstIndex(of: "call applicationWillTerminate: [active]"))
        #expect(
            Array(trace[call...]) == [
                "call applicationWillTerminate: [active]", "task refused 0",
                "post UIApplicationWillTerminateNotification", "state active→notRunning",
                "end terminated notified:true",
            ])
        #expect(sim.state("a") == .notRunning)
        #expect(sim.app("a").backgroundTasks.isEmpty)
    }

    @Test("§6 where the event would be refused, the action is too: before iOS 4.0 there are no background tasks")
    func refusedBeforeIOS4() throws {
        var sim = Self.sim(ios: "3.0", [Selector.didBecomeActive: [Self.save]])
        try sim.on("a", .foregroundLaunch)
        #expect(sim.last.entries.trace(of: "a").contains("task refused 0"))
        #expect(sim.app("a").backgroundTasks.isEmpty)
    }

    @Test(
        "§6 OpenGL ES in the background kills the app at once; in front it is fine",
        arguments: [
            (Selector.didEnterBackground, true), (Selector.didBecomeActive, false), (Selector.willResignActive, false),
        ])
    func gpu(_ selector: String, kills: Bool) throws {
        var sim = Self.sim([selector: [.useGPU]])
        try sim.on("a", .foregroundLaunch, .homeButton)
        let trace = sim.entries.trace(of: "a")
        #expect(trace.contains("end gpuInBackground notified:false") == kills)
        if kills {
            // The callback never returns: no notification after it, no suspension.
            #expect(
                trace.suffix(3) == [
                    "call applicationDidEnterBackground: [background]", "state background→notRunning",
                    "end gpuInBackground notified:false",
                ])
            #expect(sim.app("a").termination?.reason == .gpuInBackground)
        } else {
            #expect(sim.state("a") == .suspended)
        }
    }

    @Test(
        "§6 applicationWillEnterForeground: runs in the background: drawing there ends the app before it comes in front"
    )
    func gpuInWillEnterForeground() throws {
        var sim = Self.sim([Selector.willEnterForeground: [.useGPU]])
        try sim.on("a", .foregroundLaunch, .homeButton, .activate(session: nil))
        #expect(sim.state("a") == .notRunning)
        #expect(sim.device.foregroundApp == nil)
        #expect(!sim.last.entries.trace(of: "a").contains("post UIApplicationWillEnterForegroundNotification"))
    }

    @Test("§6 the Address Book or Calendar still held at suspension gets the app killed; let go in time, it suspends")
    func sharedResources() throws {
        for resource in [AppResource.addressBook, .calendar] {
            var held = Self.sim([Selector.didBecomeActive: [.acquire(resource: resource)]])
            try held.on("a", .foregroundLaunch)
            #expect(held.app("a").resources == [resource])
            try held.on("a", .homeButton)
            #expect(
                held.last.entries.trace(of: "a").suffix(3) == [
                    "state background→suspended", "state suspended→notRunning",
                    "end sharedResourceInUse notified:false 0xdead10cc",
                ])
            #expect(held.app("a").resources.isEmpty)
            var released = Self.sim([
                Selector.didBecomeActive: [.acquire(resource: resource)],
                Selector.didEnterBackground: [.release(resource: resource)],
            ])
            try released.on("a", .foregroundLaunch, .homeButton)
            #expect(released.state("a") == .suspended)
            #expect(released.last.entries.trace(of: "a").contains("resource \(resource) released"))
        }
    }

    @Test("§6 a Bonjour service or listening socket still open at suspension is closed by the system; the app suspends")
    func closedAtSuspension() throws {
        var sim = Self.sim([
            Selector.didBecomeActive: [.acquire(resource: .bonjourService), .acquire(resource: .listeningSocket)]
        ])
        try sim.on("a", .foregroundLaunch)
        #expect(
            sim.last.entries.trace(of: "a").filter { $0.hasPrefix("resource") } == [
                "resource bonjourService acquired", "resource listeningSocket acquired",
            ])
        try sim.on("a", .homeButton)
        #expect(
            sim.last.entries.trace(of: "a").suffix(3) == [
                "state background→suspended", "resource bonjourService closedBySystem",
                "resource listeningSocket closedBySystem",
            ])
        #expect(sim.state("a") == .suspended)
        #expect(sim.app("a").resources.isEmpty)
        // Taking up what it holds, or letting go of what it does not, changes nothing.
        var twice = Self.sim([
            Selector.didBecomeActive: [
                .acquire(resource: .calendar), .acquire(resource: .calendar),
                .release(resource: .addressBook),
            ]
        ])
        try twice.on("a", .foregroundLaunch)
        #expect(twice.last.entries.trace(of: "a").filter { $0.hasPrefix("resource") } == ["resource calendar acquired"])
    }

    @Test("§6 a fetch and a scene's sceneDidEnterBackground: take actions too")
    func otherCallbacks() throws {
        var fetch = Self.sim([Selector.performFetch: [.useGPU]], modes: ["fetch"])
        try fetch.on("a", .backgroundFetch)
        #expect(fetch.app("a").termination?.reason == .gpuInBackground)
        var scene = Sim(ios: "13.0")
        scene.add("a", scenes: .standard, actions: [Selector.sceneDidEnterBackground: [Self.save]])
        try scene.on("a", .foregroundLaunch, .homeButton)
        #expect(scene.state("a") == .background)
        #expect(scene.app("a").backgroundTasks.map(\.name) == ["save"])
    }
}
