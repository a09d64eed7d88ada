import Testing

@testable import LifecycleCore

@Suite("§6 Background execution")
struct DeviceBackgroundTests {
    @Test("§6 beginBackgroundTask gives a task id; the app keeps running while it is unfinished")
    func taskKeepsRunning() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        let began = try sim.on("a", .task("upload"))
        #expect(began.entries.map(\.body) == [.backgroundTask(event: .began, task: 1, name: "upload")])
        try sim.on("a", .task())
        #expect(sim.app("a").backgroundTasks.map(\.id) == [1, 2])
        try sim.onDevice(.homeButton, .wait(100))
        #expect(sim.state("a") == .background)
        try sim.on("a", .endBackgroundTask(task: 1))
        #expect(sim.state("a") == .background)
        try sim.on("a", .endBackgroundTask(task: 2))
        #expect(sim.state("a") == .suspended)
        #expect(sim.last.entries.map(\.line) == ["task ended 2", "state background→suspended"])
    }

    @Test("§6 ending an unknown task is refused")
    func unknownTask() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.rejection("a", .endBackgroundTask(task: 9))?.code == .invalidTransition)
    }

    @Test("§6 only a running app from 4.0 can begin a background task")
    func taskPreconditions() throws {
        var old = Sim(ios: "3.1")
        old.add("old")
        try old.on("old", .foregroundLaunch)
        #expect(old.rejection("old", .task())?.code == .invalidTransition)
        var sim = Sim(ios: "7.0")
        sim.add("a")
        #expect(sim.rejection("a", .task())?.state == .notRunning)
        try sim.on("a", .foregroundLaunch, .homeButton)
        #expect(sim.rejection("a", .task())?.state == .suspended)
        #expect(sim.rejection("a", .task(duration: -1)) != nil)
    }

    @Test("§6 duration is when the app ends the task itself")
    func taskDuration() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task("sync", duration: 60), .homeButton)
        #expect(sim.device.nextDeadline == 60)
        let outcome = try sim.onDevice(.wait(61))
        #expect(outcome.entries.map(\.line) == ["device advanceTime", "task ended 1", "state background→suspended"])
        #expect(outcome.entries[1].time == 60)
        #expect(sim.time == 61)
    }

    @Test("§6 backgroundTimeRemaining is null in the foreground and counts down from entering the background")
    func timeRemaining() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task())
        #expect(sim.device.backgroundTimeRemaining(of: sim.app("a")) == nil)
        try sim.onDevice(.wait(50), .homeButton, .wait(30))
        #expect(sim.device.backgroundTimeRemaining(of: sim.app("a")) == 150)
    }

    @Test("§6 all tasks share one budget: each expiration handler runs with its task name, then the app suspends")
    func sharedBudgetExpires() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .task("one"), .homeButton, .wait(20), .task("two"))
        let outcome = try sim.onDevice(.wait(10))
        #expect(
            outcome.entries.map(\.line) == [
                "device advanceTime",
                "call backgroundTaskExpirationHandler [background]",
                "call backgroundTaskExpirationHandler [background]",
                "task expired 1",
                "task expired 2",
                "state background→suspended",
            ])
        #expect(outcome.entries.callbackArgs(of: "a") == [["task": 1, "name": "one"], ["task": 2, "name": "two"]])
        #expect(outcome.entries.dropFirst().allSatisfy { $0.time == 30 })
    }

    @Test("§6 a used-up budget refuses new tasks until the foreground")
    func budgetUsedUp() throws {
        var sim = Sim(ios: "13.0")
        sim.add("a", backgroundModes: ["audio"])
        try sim.on("a", .foregroundLaunch, .startBackgroundActivity(mode: "audio"), .task(), .homeButton, .wait(30))
        #expect(sim.state("a") == .background)
        #expect(sim.rejection("a", .task()) != nil)
        try sim.on("a", .activate(session: nil), .task())
        #expect(sim.app("a").backgroundTasks.count == 1)
    }

    @Test("§6 with endsTasksOnExpiration false the app is killed: backgroundTaskExpired, 0x2182bad2")
    func expiryKills() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", endsTasksOnExpiration: false)
        try sim.on("a", .foregroundLaunch, .task("long"), .homeButton)
        let outcome = try sim.onDevice(.wait(200))
        #expect(
            outcome.entries.trace(of: "a") == [
                "call backgroundTaskExpirationHandler [background]",
                "state background→notRunning",
                "end backgroundTaskExpired notified:false 0x2182bad2",
            ])
        #expect(
            sim.app("a").termination
                == Termination(reason: .backgroundTaskExpired, time: 180, notified: false, foreground: false))
        #expect(sim.app("a").backgroundTasks.isEmpty)
    }

    @Test("§6 a declared background mode keeps the app running until stopBackgroundActivity")
    func backgroundActivity() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", backgroundModes: ["location"])
        try sim.on("a", .foregroundLaunch, .startBackgroundActivity(mode: "location"), .homeButton, .wait(10_000))
        #expect(sim.state("a") == .background)
        #expect(sim.app("a").backgroundActivities == ["location"])
        try sim.on("a", .stopBackgroundActivity(mode: "location"))
        #expect(sim.state("a") == .suspended)
    }

    @Test("§6 a mode not declared is 409; a mode that is not continuous is 400")
    func undeclaredMode() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", backgroundModes: ["audio", "fetch"])
        try sim.on("a", .foregroundLaunch)
        let before = sim.device
        #expect(sim.rejection("a", .startBackgroundActivity(mode: "voip"))?.code == .invalidTransition)
        #expect(sim.rejection("a", .startBackgroundActivity(mode: "fetch"))?.code == .invalidField)
        #expect(sim.device == before)
    }

    @Test("§6 backgroundFetch needs the fetch mode")
    func fetchNeedsMode() {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        #expect(sim.rejection("a", .backgroundFetch)?.code == .invalidTransition)
    }

    @Test("§6 backgroundFetch wakes a suspended app for its window, queue first, then suspends")
    func fetchWakesSuspended() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", backgroundModes: ["fetch"], durations: [Selector.performFetch: 12])
        try sim.on("a", .foregroundLaunch, .homeButton, .change(kind: .locale, value: "fr_FR"))
        try sim.on("a", .backgroundFetch)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "state suspended→background",
                "queued NSCurrentLocaleDidChangeNotification",
                "call application:performFetchWithCompletionHandler: [background]",
            ])
        #expect(sim.device.nextDeadline == 12)
        #expect(sim.time == 0)
        let outcome = try sim.onDevice(.wait(20))
        #expect(outcome.entries.trace(of: "a") == ["state background→suspended"])
        #expect(outcome.entries.last?.time == 12)
    }

    @Test("§6 backgroundFetch launches a not-running app into the background")
    func fetchLaunches() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", backgroundModes: ["fetch"])
        try sim.on("a", .backgroundFetch)
        #expect(sim.selectors("a") == Launch.ios6 + [Selector.performFetch])
        #expect(sim.callbackStates("a") == [.background, .background, .background])
        #expect(sim.state("a") == .suspended)
    }

    @Test("§6 a content-available push needs remote-notification and wakes the app in the background")
    func contentAvailable() throws {
        var sim = Sim(ios: "7.0")
        sim.add("plain")
        sim.add(
            "a", backgroundModes: ["remote-notification"], durations: [Selector.didReceiveRemoteNotificationFetch: 5])
        #expect(sim.rejection("plain", .contentAvailablePush)?.code == .invalidTransition)
        try sim.on("a", .remoteNotification(payload: ["k": 1], contentAvailable: true))
        #expect(sim.selectors("a") == Launch.ios6 + [Selector.didReceiveRemoteNotificationFetch])
        #expect(sim.entries.callbackArgs(of: "a")[0]["remoteNotification"] == ["k": 1])
        #expect(sim.state("a") == .background)
        try sim.onDevice(.wait(5))
        #expect(sim.state("a") == .suspended)
    }

    @Test("§6 a push without content-available for an app not in front is not heard")
    func pushNotHeard() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton)
        let outcome = try sim.on("a", .remoteNotification(payload: nil, contentAvailable: false))
        #expect(outcome == Outcome(entries: [], changed: false))
    }
}
