import Testing

@testable import LifecycleCore

/// §5: a call the user answered stays in progress until it hangs up, and before iOS 13 an app in front
/// meanwhile sees the taller status bar (seed 000 §3.2).
@Suite struct InCallStatusBarTests {
    static let grow = [
        "call application:willChangeStatusBarFrame: [inactive]",
        "post UIApplicationWillChangeStatusBarFrameNotification",
        "call application:didChangeStatusBarFrame: [inactive]",
        "post UIApplicationDidChangeStatusBarFrameNotification",
    ]

    /// `a` in front on a device running `ios` takes a call and answers it.
    static func answered(ios: String) throws -> Sim {
        var sim = Sim(ios: ios)
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        try sim.onDevice(.interruptionBegan(kind: .call), .interruptionEnded(accepted: true), now: 0)
        return sim
    }

    @Test("§5 answering a call starts one; declining, or answering another kind, does not")
    func answeringStartsACall() throws {
        var sim = try Self.answered(ios: "7.0")
        #expect(sim.device.callSince == 0)
        #expect(sim.state("a") == .suspended)
        try sim.onDevice(.wait(5), .callEnded)
        #expect(sim.device.callSince == nil)
        for (kind, accepted) in [(InterruptionKind.call, false), (.sms, true), (.alarm, true)] {
            var other = Sim(ios: "7.0")
            other.add("a")
            try other.on("a", .foregroundLaunch)
            try other.onDevice(.interruptionBegan(kind: kind), .interruptionEnded(accepted: accepted))
            #expect(other.device.callSince == nil, "\(kind) \(accepted)")
            #expect(other.rejection(nil, .callEnded)?.code == .invalidTransition)
        }
    }

    @Test("§5 back in the app during the call: the status bar grows while the app is inactive, then it becomes active")
    func returningDuringTheCall() throws {
        var sim = try Self.answered(ios: "7.0")
        try sim.on("a", .activate(session: nil))
        let trace = sim.last.entries.trace(of: "a")
        let inactive = try #require(trace.firstIndex(of: "state background→inactive"))
        #expect(Array(trace[(inactive + 1)...(inactive + 4)]) == Self.grow)
        #expect(trace.suffix(3).first == "state inactive→active")
        let args = sim.last.entries.of("a").compactMap { entry -> JSONValue? in
            if case .callback(_, _, let args, _) = entry.body { return args["value"] }
            return nil
        }
        #expect(args == [["height": 40], ["height": 40]])
    }

    @Test("§5 the call hangs up: the app in front sees the status bar shrink; one in the background hears nothing")
    func hangingUp() throws {
        var sim = try Self.answered(ios: "7.0")
        try sim.on("a", .activate(session: nil))
        try sim.onDevice(.callEnded)
        #expect(
            sim.last.entries.trace(of: "a") == [
                "call application:willChangeStatusBarFrame: [active]",
                "post UIApplicationWillChangeStatusBarFrameNotification",
                "call application:didChangeStatusBarFrame: [active]",
                "post UIApplicationDidChangeStatusBarFrameNotification",
            ])
        #expect(sim.last.entries.callbackArgs(of: "a") == [["value": ["height": 20]], ["value": ["height": 20]]])
        var away = try Self.answered(ios: "7.0")
        try away.onDevice(.callEnded)
        #expect(away.last.entries.of("a").isEmpty)
        try away.on("a", .activate(session: nil))
        #expect(!away.last.entries.trace(of: "a").contains(Self.grow[0]))
    }

    /// The heights the status-bar callbacks of the newest event carried to `id`.
    static func heights(_ sim: Sim, _ id: String) -> [JSONValue] {
        sim.last.entries.of(id).compactMap { entry -> JSONValue? in
            if case .callback(_, _, let args, _) = entry.body { return args["value"]?["height"] }
            return nil
        }
    }

    @Test("§5 each app hears the bar by what it last heard: away when the call ended, it sees the bar shrink on return")
    func awayWhenTheCallEnded() throws {
        var sim = try Self.answered(ios: "7.0")
        try sim.on("a", .activate(session: nil))
        #expect(Self.heights(sim, "a") == [40, 40])
        try sim.on("a", .homeButton)
        try sim.onDevice(.callEnded)
        #expect(sim.last.entries.of("a").isEmpty)
        try sim.on("a", .activate(session: nil))
        let trace = sim.last.entries.trace(of: "a")
        let inactive = try #require(trace.firstIndex(of: "state background→inactive"))
        #expect(Array(trace.dropFirst(inactive + 1).prefix(4)) == Self.grow)
        #expect(Self.heights(sim, "a") == [20, 20])
        #expect(trace.suffix(3).first == "state inactive→active")
    }

    @Test("§5 back in the app again during the same call: it already shows the taller bar, so nothing changes")
    func backAgainDuringTheCall() throws {
        var sim = try Self.answered(ios: "7.0")
        try sim.on("a", .activate(session: nil), .homeButton, .activate(session: nil))
        #expect(Self.heights(sim, "a") == [40, 40])
        try sim.on("a", .homeButton)
        try sim.on("a", .activate(session: nil))
        #expect(Self.heights(sim, "a").isEmpty)
        // A new process has heard nothing: launched again during the call, it sees the bar grow.
        try sim.on("a", .crash)
        try sim.on("a", .foregroundLaunch)
        #expect(Self.heights(sim, "a") == [40, 40])
    }

    @Test("§5 before iOS 4 the answered call ends the app; launching it during the call shows the taller bar")
    func launchDuringTheCall() throws {
        var sim = try Self.answered(ios: "3.0")
        #expect(sim.state("a") == .notRunning)
        try sim.on("a", .foregroundLaunch)
        let trace = sim.last.entries.trace(of: "a")
        let grows = try #require(trace.firstIndex(of: "call application:willChangeStatusBarFrame: [inactive]"))
        #expect(trace[grows - 1] == "post UIApplicationDidFinishLaunchingNotification")
        #expect(trace.firstIndex(of: "state inactive→active")! > grows)
    }

    @Test("§5 (chosen) from iOS 13 the call keeps the status bar's frame; a reboot ends the call")
    func fromIOS13() throws {
        var sim = try Self.answered(ios: "13.0")
        try sim.on("a", .activate(session: nil))
        #expect(!sim.last.entries.trace(of: "a").contains(Self.grow[0]))
        #expect(sim.device.callSince != nil)
        try sim.onDevice(.reboot)
        #expect(sim.device.callSince == nil)
    }
}
