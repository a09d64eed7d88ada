// Micro-benchmarks of LifecycleCore's Device: the cost of the state machine alone, with no HTTP,
// JSON or journal. Each benchmark runs `scaledIterations` (scaling factor kilo) inner iterations, so
// the `*` metrics in the output are per inner iteration; the notes below say how many events one
// inner iteration applies.
import Benchmark
import LifecycleCore

private let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal]

private func iOS7Device(_ id: String) -> Device {
    var configuration = DeviceConfiguration()
    configuration.iosVersion = Version(7, 0)
    configuration.memoryMB = 1_048_576  // room for every app: no memory pressure terminations
    return try! Device(id: id, configuration: configuration)
}

private func addApps(_ count: Int, to device: inout Device, backgroundModes: [String] = []) {
    for index in 0..<count {
        var configuration = AppConfiguration(bundleId: "com.example.app\(index)")
        configuration.info = InfoPlist(backgroundModes: backgroundModes)
        configuration.memoryMB = 10
        try! device.addApp(id: "a\(index)", configuration: configuration)
    }
}

private let launch = Event.launch(background: false, url: nil, sourceApplication: nil)

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: metrics, timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3),
        maxIterations: 1_000)

    // One inner iteration = 2 events (launch, then homeButton) applied as two separate `apply` calls
    // on a device holding a single iOS 7 app: the hot path of POST /v1/apps/{id}/events.
    Benchmark("launch+homeButton, 1 app (2 events per iteration)") { benchmark in
        var device = iOS7Device("d1")
        addApps(1, to: &device)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! device.apply([launch], app: "a0", now: 0))
            blackHole(try! device.apply([.homeButton], app: "a0", now: 0))
        }
    }

    // One inner iteration = 1 advanceTime(1 s) over a device whose 100 apps all sit in the background
    // (each plays audio, a continuous background mode, so none is suspended).
    Benchmark("advanceTime, 100 background apps (1 event per iteration)") { benchmark in
        var device = iOS7Device("d1")
        addApps(100, to: &device, backgroundModes: ["audio"])
        for index in 0..<100 {
            _ = try! device.apply([launch], app: "a\(index)", now: 0)
            _ = try! device.apply([.startBackgroundActivity(mode: "audio")], app: "a\(index)", now: 0)
            _ = try! device.apply([.homeButton], app: "a\(index)", now: 0)
        }
        let states = Set(device.appsInOrder.map(\.state))
        precondition(states == [.background], "setup: every app must be in the background, saw \(states)")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! device.apply([.advanceTime(seconds: 1)], app: nil, now: 0))
        }
    }

    // One inner iteration = 2 events (launch, then homeButton) on one app of a device holding N apps,
    // cycling over them, every app launched and suspended once before measuring: what the device's size
    // costs per apply, to compare with the 1-app row.
    for appCount in [100, 1_000] {
        Benchmark("launch+homeButton, device with \(appCount) apps (2 events per iteration)") { benchmark in
            var device = iOS7Device("d1")
            addApps(appCount, to: &device)
            let ids = (0..<appCount).map { "a\($0)" }
            for app in ids {
                _ = try! device.apply([launch], app: app, now: 0)
                _ = try! device.apply([.homeButton], app: app, now: 0)
            }
            var index = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let app = ids[index]
                index = (index + 1) % ids.count
                blackHole(try! device.apply([launch], app: app, now: 0))
                blackHole(try! device.apply([.homeButton], app: app, now: 0))
            }
        }
    }
}
