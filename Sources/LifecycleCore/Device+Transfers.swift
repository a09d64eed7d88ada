/// Background transfers (LIFECYCLE §14, iOS 7 and later): what the app hands to a background URL session, how
/// the system tells it of their end (at once while it runs, by waking or relaunching it in the background
/// otherwise), the completion window and its `0x2182bad3`, and what the user's force-quit does to them.
extension Device {
    /// The `startBackgroundTransfer` action: the system takes the task over and carries it out whatever becomes
    /// of the app's process. (`addApp` refuses the action on a device before iOS 7.)
    mutating func startTransfer(_ id: String, session: String, task: TransferTask, name: String) {
        var transfers = apps[existing: id].backgroundTransfers
        guard transfers.count < BackgroundTransfer.limit else { return }
        transfers.append(BackgroundTransfer(session: session, task: task, name: name, outcome: nil))
        apps[existing: id].transfers = transfers
        record(id, .transfer(event: .started, session: session, task: task, name: name))
    }

    /// The system ends the oldest transfer under way named `name` (the harness's `finishTransfer`). A running app
    /// hears of it at once by its task's delegate messages; a suspended or not-running one when its session has
    /// nothing left under way: the system wakes or relaunches it in the background, as the wake policy allows.
    mutating func finishTransfer(_ id: String, name: String, outcome: TransferOutcome) throws(Rejection) {
        let transfers = apps[existing: id].backgroundTransfers
        guard let index = transfers.firstIndex(where: { $0.name == name && $0.outcome == nil }) else {
            let underWay = transfers.filter { $0.outcome == nil }.map(\.name)
            let nearest = NearestName.among(underWay, to: name).map { "; did you mean \($0)?" } ?? ""
            throw .transition(
                underWay.isEmpty
                    ? "the app has no background transfer under way (the startBackgroundTransfer action starts one)"
                    : "the app has no background transfer under way named \(name)\(nearest)",
                state: apps[existing: id].state, allowed: underWay)
        }
        var transfer = transfers[index]
        transfer.outcome = outcome
        apps[existing: id].transfers?[index] = transfer
        record(
            id,
            .transfer(
                event: outcome == .success ? .completed : .failed, session: transfer.session, task: transfer.task,
                name: transfer.name))
        try deliverTransfers(id, session: transfer.session)
    }

    /// Tells app `id` how the ended transfers of `session` went, if the system would now.
    private mutating func deliverTransfers(_ id: String, session: String) throws(Rejection) {
        switch apps[existing: id].state {
        case .active, .inactive, .background:
            // The session's delegate hears it directly: no wake, no completion handler.
            tellEndedTransfers(id, session: session)
        case .suspended, .notRunning:
            // Apple: the app delegate is called "after all background transfers associated with an URLSession
            // object are done".
            let transfers = apps[existing: id].backgroundTransfers
            guard !transfers.contains(where: { $0.session == session && $0.outcome == nil }) else { return }
            guard admitWake(id, .backgroundURLSession) else { return }
            let identifier = JSONValue.string(session)
            guard
                try runInBackgroundWindow(
                    id, selector: Selector.handleEventsForBackgroundURLSession, args: ["identifier": identifier],
                    launchOptions: ["urlSession": identifier], kill: .backgroundURLSessionExpired),
                tellEndedTransfers(id, session: session)
            else { return }
            invoke(id, Selector.didFinishEventsForBackgroundURLSession, args: ["session": identifier])
        }
    }

    /// Each ended transfer of `session`, oldest first: `URLSession:downloadTask:didFinishDownloadingToURL:` for a
    /// download that succeeded, then `URLSession:task:didCompleteWithError:`. False when the app ended meanwhile.
    @discardableResult
    private mutating func tellEndedTransfers(_ id: String, session: String) -> Bool {
        let transfers = apps[existing: id].backgroundTransfers
        let ended = transfers.filter { $0.session == session && $0.outcome != nil }
        guard !ended.isEmpty else { return true }
        let left = transfers.filter { $0.session != session || $0.outcome == nil }
        apps[existing: id].transfers = left.isEmpty ? nil : left
        for transfer in ended {
            var args: [String: JSONValue] = [
                "session": .string(session), "task": .string(transfer.task.rawValue), "name": .string(transfer.name),
            ]
            if transfer.outcome == .success, transfer.task == .download {
                guard invoke(id, Selector.didFinishDownloading, args: args) != nil else { return false }
            }
            if transfer.outcome == .failure { args["error"] = .string(Self.transferError) }
            guard invoke(id, Selector.didCompleteWithError, args: args) != nil else { return false }
        }
        return true
    }

    /// (chosen) The error a failed transfer hands `URLSession:task:didCompleteWithError:`.
    static let transferError = "NSURLErrorDomain"

    /// The user swiped app `id` away and its process is gone: the system cancels every transfer of its background
    /// sessions (`NSURLErrorCancelledReasonUserForceQuitApplication`), and none will wake it.
    mutating func cancelTransfersAfterForceQuit(_ id: String) {
        guard apps[existing: id].state == .notRunning, let transfers = apps[existing: id].transfers else { return }
        apps[existing: id].transfers = nil
        for transfer in transfers {
            record(
                id, .transfer(event: .cancelled, session: transfer.session, task: transfer.task, name: transfer.name))
        }
    }
}

extension Version {
    /// Background URL sessions exist from 7.0.
    var hasBackgroundTransfers: Bool { self >= Version(7, 0) }
}
