import Testing

@testable import LifecycleCore

@Suite("Applying events")
struct DeviceApplyTests {
    @Test(
        "a batch is applied in order, all or nothing; the rejection names the failing event and the state after the rollback"
    )
    func batchAllOrNothing() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        let before = sim.device
        let rejection = sim.rejection("a", .foregroundLaunch, .homeButton, .unlock)
        #expect(rejection?.index == 2)
        #expect(rejection?.code == .invalidTransition)
        // Mid-batch the app was suspended; the rollback put it back where it was (API.md, invalid-transition).
        #expect(rejection?.state == .notRunning)
        #expect(sim.device == before)
        #expect(sim.entries.isEmpty)
    }

    @Test("a rejected batch restores every device field it moved: clock, lock, settings, interruption, task ids")
    func rollbackRestoresTheWholeDevice() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch)
        let before = sim.device
        let rejection = sim.rejection(
            "a", .beginBackgroundTask(name: "t", duration: 5), .advanceTime(seconds: 3),
            .change(kind: .orientation, value: "landscapeLeft"), .interruptionBegan(kind: .call),
            .interruptionEnded(accepted: false), .lock, .endBackgroundTask(task: 99))
        #expect(rejection?.index == 6)
        #expect(sim.device == before)
        // The next task id is the one the rejected batch had taken.
        try sim.on("a", .beginBackgroundTask(name: "t", duration: nil))
        #expect(sim.app("a").backgroundTasks.map(\.id) == [1])
    }

    @Test("seq increases by one per entry across apps and inputs of a device")
    func seqPerDevice() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch)
        try sim.on("b", .foregroundLaunch)
        try sim.onDevice(.homeButton)
        #expect(sim.entries.map(\.seq) == Array(1...UInt64(sim.entries.count)))
        #expect(sim.device.lastSeq == UInt64(sim.entries.count))
        #expect(sim.app("a").lastSeq == sim.entries.of("a").last?.seq)
    }

    @Test("an app event on the device's path is refused; a device event on an app's path goes to the device")
    func paths() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        #expect(sim.rejection(nil, .foregroundLaunch)?.field == "type")
        #expect(sim.rejection("ghost", .foregroundLaunch)?.code == .notFound)
        try sim.on("a", .lock)
        #expect(sim.device.locked)
    }

    @Test("changed is false when a legal event changes nothing")
    func changedFlag() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        #expect(try sim.onDevice(.homeButton).changed == false)
        #expect(try sim.on("a", .foregroundLaunch).changed)
        #expect(try sim.on("a", .crash).changed)
        #expect(try sim.on("a", .crash).changed == false)
    }

    @Test("device and app configurations are validated")
    func validation() throws {
        var device = DeviceConfiguration()
        device.memoryMB = 0
        #expect(throws: Rejection.self) { try Device(id: "d", configuration: device) }
        var sim = Sim()
        var app = AppConfiguration(bundleId: "")
        #expect(throws: Rejection.self) { try sim.device.addApp(id: "x", configuration: app) }
        app = AppConfiguration(bundleId: "b")
        app.info.backgroundModes = ["teleport"]
        #expect(throws: Rejection.self) { try sim.device.addApp(id: "x", configuration: app) }
        sim.add("a")
        #expect(throws: Rejection.self) {
            try sim.device.addApp(id: "a", configuration: AppConfiguration(bundleId: "b"))
        }
    }

    @Test("an app takes its device's iosVersion unless it has its own")
    func appVersion() {
        var sim = Sim(ios: "6.1")
        sim.add("a")
        sim.add("b", ios: "4.2")
        #expect(sim.app("a").iosVersion == Version(6, 1))
        #expect(sim.app("b").iosVersion == Version(4, 2))
    }

    @Test("removing an app drops it without a callback and frees the foreground slot")
    func removeApp() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.device.removeApp(id: "a")
        #expect(sim.device.foregroundApp == nil)
        #expect(sim.device.app("a") == nil)
        #expect(throws: Rejection.self) { try sim.device.removeApp(id: "a") }
    }

    @Test("the same inputs give the same outputs")
    func deterministic() throws {
        func run() throws -> Sim {
            var sim = Sim(ios: "7.0", passcode: true)
            sim.add("a", backgroundModes: ["fetch"])
            sim.add("b")
            try sim.on("a", .foregroundLaunch, .task(duration: 9), .homeButton, .wait(3), .lock)
            try sim.on("a", .backgroundFetch)
            try sim.on("b", .backgroundLaunch, .unlock, .wait(20))
            return sim
        }
        let first = try run()
        let second = try run()
        #expect(first.entries == second.entries)
        #expect(first.device == second.device)
    }
}
