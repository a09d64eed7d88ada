package import LifecycleCore

/// A live app's delegate in a walk (LIFECYCLE §13): what answers its callbacks, and the first failure it
/// reported (an assertion found false, an error thrown in it), which is a property found false like the others.
/// A delegate lives as long as its app's process: each walk and replay starts with a new one, and an app that
/// stops running (terminated, killed, crashed, the device rebooted) gets a new one for its next launch, as a
/// launched app does. docs/EXPLORE.md, "Live delegates".
package struct LiveAnswerer: Sendable {
    package var answering: any CallbackAnswering
    package var failure: @Sendable () -> String?

    package init(answering: any CallbackAnswering, failure: @escaping @Sendable () -> String?) {
        self.answering = answering
        self.failure = failure
    }
}

/// The live delegates of a world's apps, each asked for its own app's callbacks (a device's batch has one
/// answerer for all its apps). Used by one walk at a time, on its thread.
final class LiveAnswerers: CallbackAnswering, @unchecked Sendable {
    /// How each live app's delegate is made, by the app's id in the core.
    private var makers: [String: @Sendable () -> LiveAnswerer] = [:]
    private var current: [String: LiveAnswerer] = [:]
    /// The first failure of a delegate whose process has ended, by app.
    private var ended: [String: String] = [:]

    /// App `app`'s delegate, made now and again for each of its processes by `make`.
    func add(_ app: String, _ make: @escaping @Sendable () -> LiveAnswerer) {
        makers[app] = make
        current[app] = make()
    }

    func answer(_ callback: PendingCallback) -> CallbackAnswer {
        current[callback.app]?.answering.answer(callback) ?? .hang
    }

    /// After an input: each live app whose process ended in `entries` gets a new delegate for its next launch
    /// (the old one's failure kept).
    func processesEnded(in entries: [TimelineEntry]) {
        for entry in entries {
            guard case .state(_, .notRunning) = entry.body, let app = entry.app, let make = makers[app] else {
                continue
            }
            if ended[app] == nil, let failure = current[app]?.failure() { ended[app] = failure }
            current[app] = make()
        }
    }

    /// The first failure a delegate reported, apps in the order of their ids.
    func firstFailure() -> (app: String, message: String)? {
        for app in makers.keys.sorted() {
            if let message = ended[app] ?? current[app]?.failure() { return (app, message) }
        }
        return nil
    }
}
