/// Live delegates (LIFECYCLE §13): the one place the core asks an app's `CallbackAnswering` and keeps what it
/// answered. Every callback of a live app is asked here; the callers apply the answer by the script's rules.
extension Device {
    /// Seconds a hung callback runs before the watchdog ends the app, where the callback has no watchdog of
    /// its own (the launch's).
    public static let hangLimit = Watchdog.launch

    /// What one input asks of live delegates: scratch state, never saved, never compared.
    struct LiveCalls: Equatable, Sendable {
        /// Who answers; nil: nobody, and every callback of a live app hangs.
        var answerer: (any CallbackAnswering)?
        /// Every answer given during the input, in the order asked: the input's recorded answers.
        var answers: [CallbackAnswer] = []
        /// An answer asked for ahead of its callback (to learn whether the delegate implements it), kept for it.
        var held: (app: String, selector: String, session: String?, answer: CallbackAnswer)?
        /// The answer of the newest live callback: what it returned.
        var last: CallbackAnswer?

        static func == (lhs: LiveCalls, rhs: LiveCalls) -> Bool { true }
    }

    /// The answer to `selector` of app `id`, asked now (or the one held for it since a probe), recorded.
    mutating func askLive(
        _ id: String, _ selector: String, args: [String: JSONValue], session: String? = nil,
        limit: Double? = nil
    ) -> CallbackAnswer {
        if let held = liveCalls?.held, held.app == id, held.selector == selector, held.session == session {
            return held.answer
        }
        let app = apps[existing: id]
        let caps = capabilities(of: id)
        let tasksGranted =
            caps.hasBackgroundTasks && app.state.isRunning && selector != Selector.willTerminate
            && !(app.state == .background && app.budgetExhausted)
        let callback = PendingCallback(
            app: id, selector: selector, args: args, state: app.state, session: session,
            sceneState: session.flatMap { session in app.sessions.first { $0.id == session }?.state },
            limit: limit, time: time, backgroundTimeRemaining: backgroundTimeRemaining(of: app),
            nextBackgroundTask: tasksGranted ? nextTaskID : nil, backgroundTasks: app.backgroundTasks.map(\.id))
        var calls = liveCalls ?? LiveCalls()
        var answer = calls.answerer?.answer(callback) ?? .hang
        calls.answers.append(answer)
        if answer.hung == true {
            // A hang is a callback that never returns: it runs until the watchdog (LIFECYCLE §13).
            answer = CallbackAnswer(implemented: true, duration: limit ?? Self.hangLimit, hung: true)
        }
        calls.held = (id, selector, session, answer)
        liveCalls = calls
        return answer
    }

    /// The answer for the callback being made now: asked (or held), then no longer held.
    mutating func takeLive(
        _ id: String, _ selector: String, args: [String: JSONValue], session: String? = nil,
        limit: Double? = nil
    ) -> CallbackAnswer {
        let answer = askLive(id, selector, args: args, session: session, limit: limit)
        liveCalls?.held = nil
        liveCalls?.last = answer
        return answer
    }

    /// Whether app `id`'s delegate implements `selector`: the script says, or a live delegate answers (the
    /// answer is then held for the callback that follows).
    mutating func implements(
        _ id: String, _ selector: String, args: [String: JSONValue] = [:], session: String? = nil
    ) -> Bool {
        // Read through the shared configuration: binding the app or its delegate would copy it.
        let configuration = apps[existing: id].storedConfiguration
        guard configuration.value.delegate.isLive else { return configuration.value.delegate.implements(selector) }
        let answer = askLive(id, selector, args: args, session: session)
        if !answer.implemented { liveCalls?.held = nil }
        return answer.implemented
    }

    /// What the `BOOL` method `selector` returned as it was just called: the script's value, or the live answer's.
    func returned(_ id: String, _ selector: String) -> Bool {
        let configuration = apps[existing: id].storedConfiguration
        guard configuration.value.delegate.isLive else {
            return !configuration.value.delegate.implements(selector)
                || configuration.value.delegate.returnValue(of: selector)
        }
        return liveCalls?.last.map { $0.implemented && $0.returns != false } ?? true
    }

    /// The watchdog over a callback: its limit (a hung one's is the hang limit when it has none) and whether
    /// the callback runs past it.
    static func watchdog(_ limit: Double?, duration: Double, _ answer: CallbackAnswer?) -> Double? {
        if answer?.hung == true { return limit ?? hangLimit }
        guard let limit, duration > limit else { return nil }
        return limit
    }

    /// A live app's background tasks reach their end: each task's expiration handler is asked; a task its
    /// handler ends (`endBackgroundTask`) expires, and any task left running gets the app killed.
    mutating func expireLive(_ id: String, _ tasks: [BackgroundTask]) {
        for task in tasks {
            var args: [String: JSONValue] = ["task": .number(Double(task.id))]
            if let name = task.name { args["name"] = .string(name) }
            let selector = Selector.backgroundTaskExpirationHandler
            let answer = takeLive(id, selector, args: args)
            guard answer.implemented, answer.hung != true else { continue }
            record(id, .callback(selector: selector, state: .background, args: args, duration: 0))
            for action in answer.actions {
                if case .endBackgroundTask(let ended) = action,
                    let index = apps[existing: id].backgroundTasks.firstIndex(where: { $0.id == ended })
                {
                    let expired = apps[existing: id].backgroundTasks.remove(at: index)
                    record(id, .backgroundTask(event: .expired, task: expired.id, name: expired.name))
                } else if !performActions(id, inside: selector, [action]) {
                    return
                }
            }
        }
        let left = Set(tasks.map(\.id))
        if apps[existing: id].backgroundTasks.contains(where: { left.contains($0.id) }) {
            end(id, .backgroundTaskExpired, notified: false)
        }
    }
}
