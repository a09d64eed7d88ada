import Testing

@testable import LifecycleCore

@Suite("§8 The main run loop")
struct DeviceRunLoopTests {
    /// Whether `input` is delivered to an app in `state`, with the given background activity.
    static func delivered(_ input: RunLoopEvent, in state: AppState, activity: String? = nil) throws -> Bool {
        var sim = Sim(ios: "7.0")
        sim.add("a", backgroundModes: ["audio", "location"])
        switch state {
        case .notRunning:
            break
        case .active:
            try sim.on("a", .foregroundLaunch)
        case .inactive:
            try sim.on("a", .foregroundLaunch, .interruptionBegan(kind: .call))
        case .background:
            try sim.on("a", .foregroundLaunch, .startBackgroundActivity(mode: activity ?? "audio"), .homeButton)
        case .suspended:
            try sim.on("a", .foregroundLaunch, .homeButton)
        }
        #expect(sim.state("a") == state)
        let outcome = try sim.on("a", .runLoop(input))
        #expect(outcome.entries.count == 1)
        return outcome.entries.runLoop(of: "a") == [true]
    }

    @Test("§8 touch and shake are delivered only to an active app", arguments: [RunLoopEvent.touch, .shake])
    func touchAndShake(input: RunLoopEvent) throws {
        #expect(try Self.delivered(input, in: .active))
        #expect(try !Self.delivered(input, in: .inactive))
        #expect(try !Self.delivered(input, in: .background))
        #expect(try !Self.delivered(input, in: .suspended))
        #expect(try !Self.delivered(input, in: .notRunning))
    }

    @Test("§8 motion is delivered to an active or inactive app")
    func motion() throws {
        #expect(try Self.delivered(.motion, in: .active))
        #expect(try Self.delivered(.motion, in: .inactive))
        #expect(try !Self.delivered(.motion, in: .background))
    }

    @Test("§8 remoteControl goes to an active app or one playing audio in the background")
    func remoteControl() throws {
        #expect(try Self.delivered(.remoteControl, in: .active))
        #expect(try !Self.delivered(.remoteControl, in: .inactive))
        #expect(try Self.delivered(.remoteControl, in: .background, activity: "audio"))
        #expect(try !Self.delivered(.remoteControl, in: .background, activity: "location"))
    }

    @Test("§8 location goes to a foreground app or one with location activity")
    func location() throws {
        #expect(try Self.delivered(.location, in: .active))
        #expect(try Self.delivered(.location, in: .inactive))
        #expect(try Self.delivered(.location, in: .background, activity: "location"))
        #expect(try !Self.delivered(.location, in: .background, activity: "audio"))
        #expect(try !Self.delivered(.location, in: .suspended))
    }

    @Test("§8 redraw is drawn in the foreground")
    func redrawForeground() throws {
        #expect(try Self.delivered(.redraw, in: .active))
        #expect(try Self.delivered(.redraw, in: .inactive))
    }

    @Test("§8 redraws in the background coalesce into one redraw after the app becomes active")
    func redrawCoalesced() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch, .homeButton, .runLoop(.redraw), .runLoop(.redraw), .runLoop(.redraw))
        #expect(sim.entries.runLoop(of: "a") == [false, false, false])
        try sim.on("a", .activate(session: nil))
        #expect(
            sim.last.entries.trace(of: "a").suffix(3) == [
                "call applicationDidBecomeActive: [active]",
                "post UIApplicationDidBecomeActiveNotification",
                "runloop redraw true ×3",
            ])
        try sim.onDevice(.homeButton)
        try sim.on("a", .activate(session: nil))
        #expect(!sim.last.entries.trace(of: "a").contains { $0.hasPrefix("runloop") })
    }

    @Test("§8 events are handled one at a time in arrival order")
    func arrivalOrder() throws {
        var sim = Sim(ios: "7.0")
        sim.add("a")
        try sim.on("a", .foregroundLaunch)
        let outcome = try sim.on("a", .touch, .runLoop(.shake), .runLoop(.motion))
        #expect(
            outcome.entries.map(\.body) == [
                .runLoop(event: .touch, delivered: true, coalesced: nil),
                .runLoop(event: .shake, delivered: true, coalesced: nil),
                .runLoop(event: .motion, delivered: true, coalesced: nil),
            ])
    }
}
