import Foundation
import Testing

@testable import LifecycleCore

/// A live delegate in the tests: a closure answers each callback, and every callback asked is kept.
final class ClosureAnswerer: CallbackAnswering, @unchecked Sendable {
    private let body: (PendingCallback) -> CallbackAnswer
    private(set) var asked: [PendingCallback] = []

    init(_ body: @escaping (PendingCallback) -> CallbackAnswer) { self.body = body }

    func answer(_ callback: PendingCallback) -> CallbackAnswer {
        asked.append(callback)
        return body(callback)
    }

    /// Answers as a script would: the behaviour's durations, returns, actions and methods not implemented; an
    /// expiration handler ends its task when the script says it does.
    static func script(_ script: DelegateBehaviour) -> ClosureAnswerer {
        ClosureAnswerer { callback in
            guard callback.selector != Selector.backgroundTaskExpirationHandler else {
                guard script.endsTasksOnExpiration, case .number(let task)? = callback.args["task"] else {
                    return CallbackAnswer()
                }
                return CallbackAnswer(actions: [.endBackgroundTask(task: Int(task))])
            }
            guard script.implements(callback.selector) else { return .notImplemented }
            return CallbackAnswer(
                returns: script.returns[callback.selector], duration: script.duration(of: callback.selector),
                actions: script.actions(inside: callback.selector))
        }
    }
}

/// §13: live delegates, answered at each callback by the rules a script's answers go through.
@Suite struct LiveDelegateTests {
    static func liveSim(ios: String = "17.0", restorable: Bool = false, scenes: SceneManifest? = nil) -> Sim {
        var sim = Sim(ios: ios)
        var configuration = AppConfiguration(bundleId: "com.example.live")
        configuration.delegate.live = true
        configuration.info.sceneManifest = scenes
        if restorable { configuration.restorableState = .object(["draft": .string("hello")]) }
        try! sim.device.addApp(id: "a", configuration: configuration)
        return sim
    }

    static let journey: [(String?, [Event])] = [
        ("a", [.foregroundLaunch]), (nil, [.homeButton]), (nil, [.wait(200)]), ("a", [.terminate]),
        ("a", [.foregroundLaunch]), (nil, [.homeButton]),
    ]

    static func run(_ sim: inout Sim, answering: (any CallbackAnswering)?) throws -> [[CallbackAnswer]] {
        var answers: [[CallbackAnswer]] = []
        for (app, events) in journey {
            let outcome = try sim.device.apply(events, app: app, now: 0, answering: answering)
            answers.append(outcome.answers)
        }
        return answers
    }

    @Test("§13 a live delegate answering what a script says gives the script's timeline, entry for entry")
    func liveEqualsScript() throws {
        var script = DelegateBehaviour(
            notImplemented: [Selector.willFinishLaunchingWithOptions], durations: [Selector.didEnterBackground: 2],
            returns: [Selector.shouldRestoreApplicationState: true])
        script.actions = [Selector.didEnterBackground: [.beginBackgroundTask(name: "save", duration: nil)]]
        var scripted = Sim(ios: "7.0")
        var configuration = AppConfiguration(bundleId: "com.example.live")
        configuration.delegate = script
        configuration.restorableState = .object(["draft": .string("hello")])
        try scripted.device.addApp(id: "a", configuration: configuration)
        var live = Sim(ios: "7.0")
        configuration.delegate = DelegateBehaviour()
        configuration.delegate.live = true
        try live.device.addApp(id: "a", configuration: configuration)

        var scriptedEntries: [TimelineEntry] = []
        for (app, events) in Self.journey {
            let outcome = try scripted.device.apply(events, app: app, now: 0)
            #expect(outcome.answers.isEmpty)
            scriptedEntries += outcome.entries
        }
        let answerer = ClosureAnswerer.script(script)
        var liveEntries: [TimelineEntry] = []
        for (app, events) in Self.journey {
            liveEntries += try live.device.apply(events, app: app, now: 0, answering: answerer).entries
        }
        #expect(liveEntries == scriptedEntries)
        // The journey went through a task's expiration and a restoration: the comparison covers them.
        let lines = liveEntries.map(\.line)
        #expect(lines.contains("task expired 1"))
        #expect(lines.contains { $0.hasPrefix("call application:didDecodeRestorableStateWithCoder:") })
        // The method the delegate does not implement was asked, and answered so.
        #expect(answerer.asked.contains { $0.selector == Selector.willFinishLaunchingWithOptions })
    }

    @Test("§13 recorded answers replay a live session byte for byte, with no live code")
    func replay() throws {
        var live = Self.liveSim(ios: "7.0", restorable: true)
        let answerer = ClosureAnswerer { callback in
            switch callback.selector {
            case Selector.didEnterBackground:
                return CallbackAnswer(
                    duration: 1.5, actions: [.beginBackgroundTask(name: "save", duration: nil)])
            case Selector.backgroundTaskExpirationHandler:
                return CallbackAnswer(actions: [.endBackgroundTask(task: 1)])
            case Selector.shouldSaveApplicationState, Selector.shouldRestoreApplicationState:
                return CallbackAnswer(returns: true)
            default:
                return CallbackAnswer(duration: 0.25)
            }
        }
        let recorded = try Self.run(&live, answering: answerer)
        #expect(recorded.joined().count == answerer.asked.count)
        var replayed = Self.liveSim(ios: "7.0", restorable: true)
        for ((app, events), answers) in zip(Self.journey, recorded) {
            let answering = RecordedAnswers(answers)
            let outcome = try replayed.device.apply(events, app: app, now: 0, answering: answering)
            #expect(outcome.answers == answers)
            #expect(answering.unused == 0)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(replayed.device) == encoder.encode(live.device))
        #expect(replayed.device == live.device)
    }

    @Test("§13 a live callback that takes longer than its watchdog is killed with 0x8badf00d, as a script's")
    func watchdog() throws {
        var sim = Self.liveSim()
        let answerer = ClosureAnswerer { callback in
            CallbackAnswer(duration: callback.selector == Selector.sceneDidEnterBackground ? 6 : 0)
        }
        var scenes = Self.liveSim(scenes: SceneManifest(configurations: [SceneConfiguration(name: "Default")]))
        _ = try scenes.device.apply([.foregroundLaunch], app: "a", now: 0, answering: answerer)
        let outcome = try scenes.device.apply([.homeButton], app: nil, now: 0, answering: answerer)
        let end = try #require(scenes.app("a").termination)
        #expect(end.reason == .watchdog)
        #expect(end.reason.kind.code == "0x8badf00d")
        #expect(outcome.entries.map(\.line).contains("end watchdog notified:false 0x8badf00d"))
        // The app-delegate path: applicationDidEnterBackground: for 6 s, over its 5 s.
        let slow = ClosureAnswerer { CallbackAnswer(duration: $0.selector == Selector.didEnterBackground ? 6 : 0) }
        _ = try sim.device.apply([.foregroundLaunch], app: "a", now: 0, answering: slow)
        let before = sim.device.time
        _ = try sim.device.apply([.homeButton], app: nil, now: 0, answering: slow)
        #expect(sim.app("a").termination?.reason == .watchdog)
        #expect(sim.device.time == before + 5)
    }

    @Test("§13 with nobody answering, a live callback hangs: the watchdog ends the launch at its limit")
    func hangsWithoutAnswerer() throws {
        var sim = Self.liveSim()
        let outcome = try sim.device.apply([.foregroundLaunch], app: "a", now: 0)
        #expect(outcome.answers == [.hang])
        #expect(sim.app("a").termination?.reason == .watchdog)
        #expect(sim.device.time == Device.hangLimit)
        // The hung callback's entry shows the time it ran: the limit.
        #expect(outcome.entries.map(\.line).contains("call application:willFinishLaunchingWithOptions: [inactive]"))
    }

    @Test("§13 the callback asked shows the app's state, its background time and the task id it would get")
    func pendingCallback() throws {
        var sim = Self.liveSim(ios: "7.0")
        let answerer = ClosureAnswerer { callback in
            callback.selector == Selector.didEnterBackground
                ? CallbackAnswer(actions: [.beginBackgroundTask(name: nil, duration: nil)]) : CallbackAnswer()
        }
        _ = try sim.device.apply([.foregroundLaunch], app: "a", now: 0, answering: answerer)
        _ = try sim.device.apply([.homeButton], app: nil, now: 0, answering: answerer)
        let background = try #require(answerer.asked.first { $0.selector == Selector.didEnterBackground })
        #expect(background.state == .background)
        #expect(background.limit == 5)
        #expect(background.nextBackgroundTask == 1)
        #expect(background.backgroundTimeRemaining == 180)
        #expect(sim.app("a").backgroundTasks.map(\.id) == [1])
        // An expiration handler that does not end its task gets the app killed.
        _ = try sim.device.apply([.wait(200)], app: nil, now: 0, answering: answerer)
        #expect(sim.app("a").termination?.reason == .backgroundTaskExpired)
    }

    @Test("§13 a live BOOL answer is what the method returned: NO from didFinishLaunching skips the URL callback")
    func returns() throws {
        var sim = Self.liveSim(ios: "7.0")
        let answerer = ClosureAnswerer { callback in
            callback.selector == Selector.didFinishLaunchingWithOptions
                ? CallbackAnswer(returns: false) : CallbackAnswer()
        }
        _ = try sim.device.apply([.urlLaunch("live://x")], app: "a", now: 0, answering: answerer)
        #expect(
            !answerer.asked.contains {
                [Selector.openURLSourceApplication, Selector.handleOpenURL].contains($0.selector)
            })
    }

    @Test("§13 a live delegate takes none of the script's fields")
    func validation() {
        var configuration = AppConfiguration(bundleId: "com.example.live")
        configuration.delegate.live = true
        #expect(configuration.validationFailure() == nil)
        configuration.delegate.durations = [Selector.didEnterBackground: 1]
        #expect(configuration.validationFailure()?.field == "delegate.live")
        #expect(CallbackAnswer(duration: -1).validationFailure()?.field == "duration")
        #expect(CallbackAnswer(duration: 1).validationFailure() == nil)
    }
}
