import TestSupport
import Testing

@testable import LifecycleCore

/// A seeded walk over random app and device events on several devices, checking the core's invariants
/// after every step.
struct RandomWalk {
    static let versions = [
        "2.2", "3.1", "4.0", "4.2", "4.3", "5.0", "6.0", "7.0", "8.4", "9.0", "12.4", "13.0", "17.0",
    ]
    static let modes = ["audio", "location", "voip", "fetch", "remote-notification"]
    static let optionalSelectors =
        [
            Selector.willFinishLaunchingWithOptions, Selector.didFinishLaunchingWithOptions, Selector.didBecomeActive,
            Selector.willResignActive, Selector.didEnterBackground, Selector.willEnterForeground,
            Selector.willTerminate,
            Selector.openURLOptions, Selector.openURLSourceApplication, Selector.didReceiveRemoteNotificationFetch,
            Selector.performFetch, Selector.handleEventsForBackgroundURLSession,
        ] + Selector.urlSessionSelectors
    static let sceneVersions = ["13.0", "17.0", "27.0"]

    var random: SplitMix64
    var devices: [Device] = []
    /// Wall-clock `now` fed to each device (realtime devices follow it).
    var now: [Double] = []
    /// Every accepted input's outcome, per device: what a replay must reproduce.
    var outcomes: [[Outcome]] = []
    /// App states as the `state` entries tell them, per device.
    var tracked: [[String: AppState]] = []
    /// Scene states as the `sceneState` entries tell them, per device, per app and session.
    var trackedScenes: [[String: [String: SceneState]]] = []
    /// Sessions seen to be discarded, per device and app: none may come back.
    var discarded: [[String: Set<String>]] = []
    /// `seq` and time of the newest entry seen, per device.
    var newest: [(seq: UInt64, time: Double)] = []
    var issues: [String] = []
    var rejections = 0
    /// Accepted `moveTo`s that applied a path, each checked against its path replayed as a batch.
    var moves = 0

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        for index in 0..<4 { makeDevice(index) }
    }

    mutating func makeDevice(_ index: Int) {
        var configuration = DeviceConfiguration()
        // The fourth device runs iOS 13 or later, often an iPad, with mostly scene apps (LIFECYCLE §11).
        let scenes = index == 3
        configuration.iosVersion = Version(random.pick(scenes ? Self.sceneVersions : Self.versions))!
        configuration.idiom = scenes && random.chance(70) ? .pad : .phone
        configuration.sceneDisconnectDelay = scenes ? random.pick([nil, 30]) : nil
        configuration.multitasking = random.chance(85)
        configuration.passcode = random.chance(50)
        configuration.memoryMB = random.pick([300, 600, 1024])
        configuration.clockMode = index == 2 ? .realtime : .manual
        configuration.suspendDelay = random.pick([0, 0, 2])
        var device = try! Device(id: "d\(index)", configuration: configuration)
        var states: [String: AppState] = [:]
        for appIndex in 0..<Int.random(in: 2...4, using: &random) {
            var app = AppConfiguration(bundleId: "com.example.app\(appIndex)")
            // A deployment target the device's OS can run (LIFECYCLE §2).
            let targets = (scenes ? Self.sceneVersions : Self.versions).filter {
                Version($0)! <= configuration.iosVersion
            }
            if random.chance(scenes && appIndex == 0 ? 0 : 60) { app.iosVersion = Version(random.pick(targets))! }
            if random.chance(scenes ? (appIndex == 0 ? 100 : 75) : 15) { app.info.sceneManifest = randomManifest() }
            if random.chance(scenes ? 30 : 15) {
                app.sdkVersion = Version(random.pick(scenes ? Self.sceneVersions : Self.versions))!
            }
            app.info.exitsOnSuspend = random.chance(10)
            app.info.backgroundModes = Self.modes.filter { _ in random.chance(40) }
            if random.chance(30) { app.info.urlSchemes = ["app\(appIndex)"] }
            let selectors = Self.optionalSelectors + Selector.sceneSelectors
            app.delegate.notImplemented = Set(selectors.filter { _ in random.chance(10) })
            for selector in selectors where random.chance(8) {
                app.delegate.durations[selector] = random.pick([0.5, 3, 6, 12, 25, 40])
            }
            if random.chance(15) { app.delegate.returns[Selector.didFinishLaunchingWithOptions] = false }
            var actions: [CallbackAction] = [
                .beginBackgroundTask(name: "t", duration: random.pick([nil, 2, 40])), .useGPU,
                .acquire(resource: random.pick(AppResource.allCases)),
                .release(resource: random.pick(AppResource.allCases)),
                .hideViews(views: random.pick([nil, ["secret"]])), .showViews(views: random.pick([nil, ["secret"]])),
                .showAlert(style: random.pick(AlertStyle.allCases), title: random.pick([nil, "t"])), .dismissAlerts,
            ]
            if device.configuration.iosVersion >= Version(7, 0) {
                actions.append(
                    .startBackgroundTransfer(
                        session: random.pick(["bg", "bg2"]), task: random.pick(TransferTask.allCases),
                        name: random.pick(["f1", "f2"])))
            }
            for selector in selectors where random.chance(6) {
                app.delegate.actions = app.delegate.actions ?? [:]
                app.delegate.actions![selector] = [random.pick(actions)]
            }
            if random.chance(20) { app.info.externalAccessoryProtocols = ["com.example.dock"] }
            if random.chance(20) { app.info.launchImages = ["Default", "Default-app\(appIndex)"] }
            if random.chance(25) { app.restorableState = .object(["screen": .string("s\(appIndex)")]) }
            app.sensitiveViews = ["secret", "other"]
            app.delegate.endsTasksOnExpiration = random.chance(75)
            app.memoryMB = random.pick([50, 100, 150, 250])
            if configuration.iosVersion >= Version(13, 0), random.chance(40) {
                // BGTaskScheduler (LIFECYCLE §15): requests submitted as the app leaves, a continued one on a tap.
                app.info.bgTaskIdentifiers = ["com.example.t.*"]
                var background: [CallbackAction] = [
                    .submitTask(request: .init(kind: .refresh, identifier: "com.example.t.r")),
                    .submitTask(
                        request: .init(
                            kind: .processing, identifier: "com.example.t.p",
                            requiresExternalPower: random.pick([nil, true]))),
                ]
                if random.chance(20) { background.append(.cancelTaskRequest(identifier: "com.example.t.r")) }
                app.delegate.actions = app.delegate.actions ?? [:]
                app.delegate.actions![Selector.didEnterBackground] = background
                app.delegate.durations[ScheduledTasks.launchHandler] = random.pick([0, 10, 40, 400])
                if configuration.iosVersion >= Version(26, 0) {
                    app.delegate.actions![ScheduledTasks.userAction] = [
                        .submitTask(
                            request: .init(
                                kind: .continued, identifier: "com.example.t.c\(appIndex)",
                                strategy: random.pick([nil, .fail])))
                    ]
                    app.delegate.actions![ScheduledTasks.launchHandler] = [.reportProgress(fraction: 0.5)]
                }
            }
            try! device.addApp(id: "app\(appIndex)", configuration: app)
            states["app\(appIndex)"] = .notRunning
        }
        devices.append(device)
        now.append(0)
        outcomes.append([])
        tracked.append(states)
        trackedScenes.append([:])
        discarded.append([:])
        newest.append((0, 0))
    }

    mutating func randomManifest() -> SceneManifest {
        var manifest = SceneManifest(supportsMultipleScenes: random.chance(60))
        if random.chance(90) {
            manifest.configurations = [
                SceneConfiguration(name: "Default", delegateClass: random.chance(90) ? "SceneDelegate" : nil)
            ]
        }
        return manifest
    }

    mutating func session(of device: Device, app: String) -> String {
        random.pick(device.app(app)!.sessions.map(\.id) + ["ghost"])
    }

    mutating func appEvent(on device: Device, app: String) -> Event {
        let modes = BackgroundMode.continuous.sorted() + ["fetch"]
        switch Int.random(in: 0..<26, using: &random) {
        case 0, 1: return .foregroundLaunch
        case 2: return .backgroundLaunch
        case 3: return .urlLaunch(random.pick(["\(app)://x", "other://y"]), from: "com.apple.mobilesafari")
        case 4, 5: return .activate(session: nil)
        case 6: return .open(random.pick(["\(app)://open", "zzz://no"]))
        case 7: return .terminate
        case 8: return .forceQuit
        case 9: return random.chance(30) ? .crash : .memoryWarning
        case 10: return .task(random.pick([nil, "sync"]), duration: random.pick([nil, 5, 60, 400]))
        case 11:
            let tasks = device.app(app)!.backgroundTasks.map(\.id)
            return .endBackgroundTask(task: tasks.isEmpty || random.chance(10) ? 999 : random.pick(tasks))
        case 12: return .startBackgroundActivity(mode: random.pick(modes))
        case 13: return .stopBackgroundActivity(mode: random.pick(modes))
        case 14:
            return .remoteNotification(payload: random.chance(50) ? ["k": 1] : nil, contentAvailable: random.chance(60))
        case 15: return .backgroundFetch
        case 16:
            let session = random.chance(10) ? session(of: device, app: app) : nil
            return .openScene(
                session: session, url: random.chance(30) ? "\(app)://s" : nil, sourceApplication: nil,
                placement: random.pick(ScenePlacement.allCases))
        case 17: return .closeScene(session: session(of: device, app: app))
        case 18: return .disconnectScene(session: session(of: device, app: app))
        case 19:
            let session = session(of: device, app: app)
            return random.chance(50)
                ? .activate(session: session)
                : .openURL(url: "\(app)://u", sourceApplication: nil, annotation: nil, session: session)
        case 20: return .moveTo(state: random.pick(AppState.allCases))
        case 21:
            return .tapNotification(
                source: random.pick(NotificationSource.allCases), payload: random.chance(50) ? ["k": 2] : nil)
        case 22: return .backgroundAppRefreshSwitch(enabled: random.chance(70))
        case 23:
            let names = device.app(app)!.backgroundTransfers.filter { $0.outcome == nil }.map(\.name)
            return .finishTransfer(
                name: names.isEmpty || random.chance(10) ? "ghost" : random.pick(names),
                outcome: random.pick(TransferOutcome.allCases))
        case 24: return .cancelContinuedTask(identifier: "com.example.t.c\(random.pick([0, 1, 2, 3]))")
        default: return .runLoop(random.pick(RunLoopEvent.allCases))
        }
    }

    mutating func deviceEvent(on device: Device) -> Event {
        switch Int.random(in: 0..<26, using: &random) {
        case 0, 1, 2: return .homeButton
        case 22: return .callEnded
        case 23: return .appSwitcherOpened
        case 24: return .appSwitcherClosed
        case 25:
            return .launchTask(
                app: random.pick(device.appOrder), identifier: random.pick(["com.example.t.r", "com.example.t.p"]))
        case 3: return .switchApp(to: random.pick(device.appOrder + ["ghost"]))
        case 4, 5: return .lock
        case 6, 7: return .unlock
        case 8: return .interruptionBegan(kind: random.pick(InterruptionKind.allCases))
        case 9, 10: return .interruptionEnded(accepted: random.chance(40))
        case 11: return .bannerNotification(title: nil)
        case 12: return .notificationCenterOpened
        case 13: return .notificationCenterClosed
        case 14: return .memoryPressure(level: random.pick(MemoryPressureLevel.allCases))
        case 15: return random.chance(15) ? .reboot : .wait(random.pick([0, 1, 4, 31]))
        case 16, 17: return .wait(random.pick([0.5, 3, 10, 60, 200, 700, -1]))
        default: return randomChange()
        }
    }

    mutating func randomChange() -> Event {
        let kind = random.pick(ChangeKind.allCases)
        let value: JSONValue? =
            switch kind {
            case .orientation: random.pick(["portrait", "landscapeLeft", "faceUp", "sideways"])
            case .locale: random.pick(["en_US", "fr_FR", ""])
            case .batteryLevel: random.pick([0.2, 0.5, 1.0, 3.0])
            case .batteryState: random.pick(["charging", "unplugged", "full"])
            case .proximity: random.pick([true, false])
            case .accessory, .screen: random.pick(["connected", "disconnected"])
            case .screenMode: random.pick(["default", "wide"])
            case .settings: random.pick([["a": 1], ["a": 2]])
            case .ubiquityIdentity: random.pick([nil, "one", "two"])
            case .significantTime, .statusBarFrame: nil
            case .backgroundAppRefresh: random.pick(["on", "off", "restricted", "wifi"])
            case .lowPowerMode: random.pick([true, false, 1])
            }
        return .change(kind: kind, value: value)
    }

    mutating func step(_ number: Int) {
        let index = Int.random(in: 0..<devices.count, using: &random)
        let device = devices[index]
        let app = random.pick(device.appOrder)
        var events: [Event] = []
        for _ in 0..<(random.chance(15) ? 2 : 1) {
            events.append(random.chance(55) ? appEvent(on: device, app: app) : deviceEvent(on: device))
        }
        let onApp = events.contains { !$0.isDeviceEvent } || random.chance(50)
        if devices[index].configuration.clockMode == .realtime { now[index] += random.pick([0, 0.5, 2, 15, 90]) }
        var next = device
        let advancing = random.chance(5)
        do {
            let outcome: Outcome
            if advancing {
                outcome = next.advance(to: now[index])
            } else {
                outcome = try next.apply(events, app: onApp ? app : nil, now: now[index])
            }
            devices[index] = next
            outcomes[index].append(outcome)
            check(outcome, device: index, step: number, events: events)
            if !advancing, onApp, events.count == 1, case .moveTo(let target) = events[0] {
                checkMove(to: target, app: app, from: device, outcome: outcome, device: index, step: number)
            }
        } catch {
            rejections += 1
            // The planner's backstops: a step that leads nowhere is a gap in the moveTo path, not a state that blocks.
            if error.blockedBy != nil, error.detail.contains("changes nothing") || error.detail.contains("no path of") {
                issues.append("step \(number): \(events) on \(app): \(error.detail)")
            }
            if next != device { issues.append("step \(number): rejected \(events) changed device \(index)") }
            if let failure = next.apps.bookkeepingFailure { issues.append("step \(number): rejected: \(failure)") }
        }
        checkForeground(index, step: number)
    }

    mutating func check(_ outcome: Outcome, device index: Int, step: Int, events: [Event]) {
        var (seq, time) = newest[index]
        for entry in outcome.entries {
            if entry.seq != seq + 1 { issues.append("step \(step): seq \(entry.seq) after \(seq) on d\(index)") }
            if entry.time < time { issues.append("step \(step): time \(entry.time) after \(time) on d\(index)") }
            seq = entry.seq
            time = entry.time
            guard let app = entry.app else { continue }
            let known = tracked[index][app]!
            switch entry.body {
            case .state(let from, let to):
                if from != known { issues.append("step \(step): \(app) left \(from) but was \(known)") }
                tracked[index][app] = to
            case .callback(let selector, let state, _, _):
                if !known.isRunning {
                    issues.append("step \(step): \(selector) to \(app) while \(known) after \(events)")
                }
                if state != known { issues.append("step \(step): \(selector) reports \(state), \(app) is \(known)") }
                if let session = entry.session {
                    let scene = trackedScenes[index][app]?[session] ?? .unattached
                    if entry.sceneState != scene {
                        issues.append(
                            "step \(step): \(selector) reports \(String(describing: entry.sceneState)), \(session) is \(scene)"
                        )
                    }
                }
            case .sceneState(let from, let to):
                let session = entry.session!
                let scene = trackedScenes[index][app]?[session] ?? .unattached
                if from != scene { issues.append("step \(step): \(app) \(session) left \(from) but was \(scene)") }
                trackedScenes[index][app, default: [:]][session] = to
            default:
                break
            }
        }
        newest[index] = (seq, time)
        let device = devices[index]
        if device.lastSeq != seq { issues.append("step \(step): lastSeq \(device.lastSeq) but last entry \(seq)") }
        if let failure = device.apps.bookkeepingFailure { issues.append("step \(step): d\(index): \(failure)") }
        if device.time < time { issues.append("step \(step): clock \(device.time) behind entry time \(time)") }
        for app in device.appsInOrder where tracked[index][app.id] != app.state {
            issues.append("step \(step): \(app.id) is \(app.state) but its entries say \(tracked[index][app.id]!)")
        }
        for app in device.appsInOrder { checkScenes(of: app, device: index, step: step) }
        // Only an app that declares restorableState has state preserved, for itself or its sessions (§4, §11.9).
        for app in device.appsInOrder where app.configuration.restorableState == nil {
            if app.preservedState != nil || app.sessions.contains(where: { $0.restorationActivity != nil }) {
                issues.append("step \(step): \(app.id) has preserved state it never declared")
            }
        }
    }

    /// An accepted `moveTo` reaches its state, and its `applied` path, posted as one batch, does exactly the same.
    mutating func checkMove(
        to target: AppState, app: String, from before: Device, outcome: Outcome, device index: Int, step: Int
    ) {
        guard let applied = outcome.applied else { return issues.append("step \(step): moveTo answered no path") }
        if devices[index].app(app)!.state != target {
            issues.append("step \(step): moveTo \(target) left \(app) \(devices[index].app(app)!.state)")
        }
        if !applied.isEmpty { moves += 1 }
        var replay = before
        guard let batch = try? replay.apply(applied, app: app, now: now[index]) else {
            return issues.append("step \(step): the path \(applied) of moveTo \(target) is refused as a batch")
        }
        if batch.entries != outcome.entries || replay != devices[index] {
            issues.append("step \(step): the path \(applied) of moveTo \(target) does not replay as a batch")
        }
    }

    /// An app's state is the aggregate of its scenes (LIFECYCLE §11.3); a discarded session never comes back.
    mutating func checkScenes(of app: AppInstance, device index: Int, step: Int) {
        let states = app.sessions.map(\.state)
        if !devices[index].usesScenes(app), !app.sessions.isEmpty {
            issues.append("step \(step): \(app.id) has sessions without the scene life cycle")
        }
        switch app.state {
        case .active, .inactive, .background:
            let aggregate: AppState =
                states.contains(.foregroundActive)
                ? .active : states.contains(.foregroundInactive) ? .inactive : .background
            if devices[index].usesScenes(app), aggregate != app.state {
                issues.append("step \(step): \(app.id) is \(app.state) but its scenes are \(states)")
            }
        case .suspended:
            if states.contains(where: \.isForeground) {
                issues.append("step \(step): suspended \(app.id) has scenes \(states)")
            }
        case .notRunning:
            if states.contains(where: \.isConnected) {
                issues.append("step \(step): not-running \(app.id) has scenes \(states)")
            }
        }
        for session in app.sessions {
            if trackedScenes[index][app.id]?[session.id] ?? .unattached != session.state {
                issues.append("step \(step): \(app.id) \(session.id) is \(session.state), its entries say otherwise")
            }
        }
        let ids = Set(app.sessions.map(\.id))
        let gone = Set(trackedScenes[index][app.id, default: [:]].keys).subtracting(ids)
        if !ids.isDisjoint(with: discarded[index][app.id, default: []]) {
            issues.append("step \(step): a discarded session of \(app.id) came back: \(ids)")
        }
        discarded[index][app.id, default: []].formUnion(gone)
        for id in gone { trackedScenes[index][app.id]?[id] = nil }
    }

    mutating func checkForeground(_ index: Int, step: Int) {
        let device = devices[index]
        let front = device.appsInOrder.filter(\.state.isForeground).map(\.id)
        if front.count > 1 || front.first != device.foregroundApp {
            issues.append("step \(step): foreground apps \(front), foregroundApp \(device.foregroundApp ?? "nil")")
        }
        let covered = device.locked || device.interruption != nil || device.notificationCenterOpen
        if covered, let app = device.foregroundApp, device.app(app)?.state == .active {
            issues.append("step \(step): \(app) is active under lock, interruption or Notification Center")
        }
    }

    static func run(seed: UInt64, steps: Int) -> RandomWalk {
        var walk = RandomWalk(seed: seed)
        for number in 0..<steps {
            walk.step(number)
            if walk.issues.count > 20 { break }
        }
        return walk
    }
}

@Suite("Random walk")
struct RandomWalkTests {
    @Test("SplitMix64 gives the reference sequence")
    func splitMix() {
        var random = SplitMix64(seed: 1_234_567)
        #expect(random.next() == 6_457_827_717_110_365_317)
        #expect(random.next() == 3_203_168_211_198_807_973)
    }

    @Test(
        "10,000 random steps keep every invariant, and the same seed replays the same outcomes",
        arguments: [UInt64(1), 0xC0FFEE])
    func walk(seed: UInt64) {
        let first = RandomWalk.run(seed: seed, steps: 10_000)
        #expect(first.issues.isEmpty, "\(first.issues.prefix(5).joined(separator: "\n"))")
        let entries = first.outcomes.map { $0.flatMap(\.entries).count }.reduce(0, +)
        #expect(entries > 10_000)
        #expect(first.rejections > 100)
        #expect(first.rejections < 8_000)
        #expect(first.moves > 30, "the walk moves apps with moveTo")
        let sessions = first.devices.flatMap(\.appsInOrder).map(\.sessions.count).reduce(0, +)
        let sceneEntries = first.outcomes.joined().flatMap(\.entries).filter { $0.session != nil }.count
        #expect(sceneEntries > 500, "the walk reaches scene apps")
        #expect(sessions + first.discarded.flatMap(\.values).map(\.count).reduce(0, +) > 3)
        let second = RandomWalk.run(seed: seed, steps: 10_000)
        #expect(first.outcomes == second.outcomes)
        #expect(first.devices == second.devices)
    }
}
