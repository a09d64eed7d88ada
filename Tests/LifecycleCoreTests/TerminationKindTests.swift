import Testing

@testable import LifecycleCore

/// §9.1 How apps die: each termination's code, signal and category from one table, whether the app was in front,
/// the jetsam reason of a memory kill, the file lock held into suspension, and the counts MetricKit keeps.
@Suite("§9.1 How apps die")
struct TerminationKindTests {
    @Test("§9.1 the table: each reason's code (hex), signal, category and jetsam reason")
    func table() {
        let rows: [(TerminationReason, String?, TerminationSignal?, TerminationCategory)] = [
            (.watchdog, "0x8badf00d", .kill, .watchdog),
            (.backgroundTaskExpired, "0x2182bad2", .kill, .taskTimeout),
            (.suspendedWithLockedFile, "0xdead10cc", .kill, .fileLock),
            (.sharedResourceInUse, "0xdead10cc", .kill, .fileLock),
            (.forceQuit, "0xdeadfa11", .kill, .normal),
            (.memoryPressure, nil, .kill, .systemPressure),
            (.crash, nil, .abort, .abnormal),
            (.gpuInBackground, nil, .segmentationFault, .badAccess),
            (.sceneLifecycleRequired, nil, .trap, .illegalInstruction),
            (.exited, nil, nil, .normal),
        ]
        for (reason, code, signal, category) in rows {
            #expect(reason.kind.code == code, "\(reason)")
            #expect(reason.kind.signal == signal, "\(reason)")
            #expect(reason.kind.category == category, "\(reason)")
        }
        for reason in TerminationReason.allCases {
            let isMemoryKill = reason.kind.category == .systemPressure || reason.kind.category == .memoryLimit
            #expect((reason.kind.jetsamReason != nil) == isMemoryKill, "\(reason)")
            if let code = reason.kind.code {
                #expect(code.count == 10 && code.hasPrefix("0x") && code.dropFirst(2).allSatisfy(\.isHexDigit))
            }
        }
        #expect(TerminationReason.memoryPressure.kind.jetsamReason == .pageShortage)
        #expect(JetsamReason.pageShortage.rawValue == "vm-pageshortage")
    }

    @Test("§9.1 a watchdog kill in applicationDidEnterBackground: is 0x8badf00d, SIGKILL, watchdog, in the background")
    func watchdogInBackground() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", durations: [Selector.didEnterBackground: 7])
        try sim.on("a", .foregroundLaunch, .homeButton)
        let end = try #require(sim.last.entries.of("a").last)
        #expect(end.body == .termination(reason: .watchdog, notified: false, foreground: false))
        #expect(sim.app("a").termination?.code == "0x8badf00d")
        #expect(sim.app("a").exits.count(.watchdog, foreground: false) == 1)
        #expect(sim.app("a").exits.count(.watchdog, foreground: true) == 0)
    }

    @Test("§9.1 a launch watchdog kill and a crash in front are foreground exits")
    func foregroundExits() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a", durations: [Selector.didFinishLaunchingWithOptions: 25])
        sim.add("b")
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").termination?.foreground == true)
        #expect(sim.app("a").termination?.reason == .watchdog)
        try sim.on("b", .foregroundLaunch, .crash)
        try sim.on("b", .foregroundLaunch, .forceQuit)
        #expect(sim.app("b").exits.count(.abnormal, foreground: true) == 1)
        #expect(sim.app("b").exits.count(.normal, foreground: true) == 1)
        #expect(sim.last.entries.trace(of: "b").last == "end forceQuit notified:false 0xdeadfa11")
    }

    @Test("§9.1 a file lock still held when the app is suspended gets it killed: 0xdead10cc, fileLock")
    func fileLockHeldIntoSuspension() throws {
        var sim = Sim(ios: "14.0")
        sim.add("a", actions: [Selector.didBecomeActive: [.acquire(resource: .fileLock)]])
        try sim.on("a", .foregroundLaunch)
        #expect(sim.app("a").resources == [.fileLock])
        try sim.on("a", .homeButton)
        #expect(
            sim.last.entries.trace(of: "a").suffix(3) == [
                "state background→suspended", "state suspended→notRunning",
                "end suspendedWithLockedFile notified:false 0xdead10cc",
            ])
        #expect(sim.app("a").termination?.foreground == false)
        #expect(sim.app("a").resources.isEmpty)
        #expect(sim.app("a").exits.count(.fileLock, foreground: false) == 1)
    }

    @Test("§9.1 a file lock let go before suspension, or held only while a background task runs, kills nothing")
    func fileLockReleasedInTime() throws {
        var released = Sim(ios: "14.0")
        released.add(
            "a",
            actions: [
                Selector.didBecomeActive: [.acquire(resource: .fileLock)],
                Selector.didEnterBackground: [.release(resource: .fileLock)],
            ])
        try released.on("a", .foregroundLaunch, .homeButton)
        #expect(released.state("a") == .suspended)
        #expect(released.app("a").termination == nil)
        // A background task keeps it running: the lock is checked when it is suspended, at the task's end.
        var task = Sim(ios: "14.0")
        task.add(
            "a",
            actions: [
                Selector.didBecomeActive: [.acquire(resource: .fileLock)],
                Selector.didEnterBackground: [.beginBackgroundTask(name: "save", duration: 8)],
            ])
        try task.on("a", .foregroundLaunch, .homeButton)
        #expect(task.state("a") == .background)
        try task.onDevice(.wait(8))
        #expect(task.app("a").termination?.reason == .suspendedWithLockedFile)
    }

    @Test("§9.1 memory kills: a purge while suspended is a background systemPressure exit (vm-pageshortage)")
    func memoryKill() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton)
        try sim.onDevice(.memoryPressure(level: .critical))
        #expect(sim.app("a").termination?.reason == .memoryPressure)
        #expect(sim.app("a").termination?.foreground == false)
        #expect(sim.app("a").exits.count(.systemPressure, foreground: false) == 1)
    }
}
