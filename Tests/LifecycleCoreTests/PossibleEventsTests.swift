import Testing

@testable import LifecycleCore

@Suite("The events possible now")
struct PossibleEventsTests {
    private func possibilities(_ sim: Sim, _ app: String = "a") -> [EventType: EventPossibility] {
        Dictionary(uniqueKeysWithValues: sim.device.possibleEvents(for: app)!.map { ($0.type, $0) })
    }

    @Test("every catalogue type once, in order; nil for an app the device does not have")
    func everyTypeOnce() {
        var sim = Sim()
        sim.add("a")
        #expect(sim.device.possibleEvents(for: "a")?.map(\.type) == EventType.allCases)
        #expect(sim.device.possibleEvents(for: "zz") == nil)
    }

    @Test("an app that is not running: launch possible; unlock, callEnded and endBackgroundTask refused, with why")
    func notRunning() throws {
        var sim = Sim()
        sim.add("a")
        let before = sim.device
        let now = possibilities(sim)
        #expect(now[.launch]?.isPossible == true)
        #expect(now[.launch]?.changes == true)
        #expect(now[.lock]?.isPossible == true)
        #expect(now[.advanceTime]?.isPossible == true)
        #expect(now[.unlock]?.rejection?.code == .invalidTransition)
        #expect(now[.unlock]?.rejection?.detail == "the device is not locked")
        #expect(now[.callEnded]?.rejection?.code == .invalidTransition)
        #expect(now[.interruptionEnded]?.rejection?.code == .invalidTransition)
        // No task to end, no other app to switch to: the field that has no value now is named.
        #expect(now[.endBackgroundTask]?.rejection?.field == "task")
        #expect(now[.switchApp]?.rejection?.field == "to")
        // Accepted, but it changes nothing.
        #expect(now[.terminate]?.isPossible == true)
        #expect(now[.terminate]?.changes == false)
        // Trying changed nothing.
        #expect(sim.device == before)
    }

    @Test(
        "what is possible follows the state: unlock once locked, endBackgroundTask once a task began, switchApp with another app"
    )
    func followsTheState() throws {
        var sim = Sim()
        sim.add("a")
        sim.add("b")
        try sim.on("a", .foregroundLaunch, .task("t"))
        var now = possibilities(sim)
        #expect(now[.endBackgroundTask]?.isPossible == true)
        #expect(now[.switchApp]?.isPossible == true)
        // Launch on an active app is accepted and changes nothing (API.md).
        #expect(now[.launch]?.isPossible == true)
        #expect(now[.launch]?.changes == false)
        #expect(now[.unlock]?.rejection?.state == .active)
        try sim.on("a", .lock)
        now = possibilities(sim)
        #expect(now[.unlock]?.isPossible == true)
        #expect(now[.lock]?.isPossible == true)
        try sim.on("a", .interruptionBegan(kind: .call))
        now = possibilities(sim)
        #expect(now[.interruptionEnded]?.isPossible == true)
        #expect(now[.interruptionBegan]?.rejection?.code == .invalidTransition)
    }

    @Test("scene events: refused for an app without scenes, possible for a scene app's sessions")
    func scenes() throws {
        var sim = Sim(ios: "17.0", idiom: .pad)
        sim.add("plain")
        sim.add("scened", scenes: .multiple)
        let plain = possibilities(sim, "plain")
        #expect(plain[.openScene]?.isPossible == false)
        #expect(plain[.closeScene]?.rejection?.field == "session")
        try sim.on("scened", .activate(session: nil))
        let scened = possibilities(sim, "scened")
        #expect(scened[.openScene]?.isPossible == true)
        #expect(scened[.closeScene]?.isPossible == true)
    }
}
