/// One thing an app does inside a delegate callback, when the callback starts (LIFECYCLE §6).
public enum CallbackAction: Equatable, Sendable, Codable {
    /// `beginBackgroundTaskWithExpirationHandler:`, as the `beginBackgroundTask` event; refused inside
    /// `applicationWillTerminate:` and wherever that event would be.
    case beginBackgroundTask(name: String?, duration: Double?)
    /// OpenGL ES commands (or a new `EAGLContext`): in the background the system kills the app at once.
    case useGPU
    /// Takes up a resource and keeps it until `release`.
    case acquire(resource: AppResource)
    case release(resource: AppResource)
    /// Hides sensitive views (nil: all of them) until `showViews`; the snapshot shows what is hidden.
    case hideViews(views: [String]?)
    case showViews(views: [String]?)
    /// Shows a `UIAlertView` or a `UIActionSheet` (LIFECYCLE §6): it stays up across the background from iOS 4.
    case showAlert(style: AlertStyle, title: String?)
    /// The app dismisses every alert and action sheet it shows, as Apple suggests before the background.
    case dismissAlerts
    /// `endBackgroundTask:` for the task with this id (one the app began and has not ended: otherwise nothing).
    case endBackgroundTask(task: Int)
    /// A task in the background URL session `session` (`URLSessionConfiguration.background(withIdentifier:)`,
    /// iOS 7 and later): the system carries it out while the app is suspended or not running (LIFECYCLE §14).
    case startBackgroundTransfer(session: String, task: TransferTask, name: String)
    /// `BGTaskScheduler.submit(_:)` (LIFECYCLE §15): a refused request is a `scheduledTask` entry with the error.
    case submitTask(request: ScheduledTaskRequest)
    /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)`: a pending request of its own is dropped.
    case cancelTaskRequest(identifier: String)
    /// A continued task's progress (`completedUnitCount` over `totalUnitCount`), inside its launch handler.
    case reportProgress(fraction: Double)

    /// The most actions one callback may list.
    public static let limit = 16

    /// The action's name on the wire (its `do`), one per case.
    public enum Name: String, CaseIterable, Sendable {
        case beginBackgroundTask, useGPU, acquire, release, hideViews, showViews, showAlert, dismissAlerts
        case endBackgroundTask
        case startBackgroundTransfer
        case submitTask, cancelTaskRequest, reportProgress
    }

    public var name: Name {
        switch self {
        case .beginBackgroundTask: .beginBackgroundTask
        case .useGPU: .useGPU
        case .acquire: .acquire
        case .release: .release
        case .hideViews: .hideViews
        case .showViews: .showViews
        case .showAlert: .showAlert
        case .dismissAlerts: .dismissAlerts
        case .endBackgroundTask: .endBackgroundTask
        case .startBackgroundTransfer: .startBackgroundTransfer
        case .submitTask: .submitTask
        case .cancelTaskRequest: .cancelTaskRequest
        case .reportProgress: .reportProgress
        }
    }
}

extension CallbackAction {
    /// The first bound this action's values break, as a sentence naming the value (`selector`: the callback
    /// it was given for, named in the sentence), nil when it keeps them all. The one statement of these
    /// bounds: a script's actions (`delegate.actions`) and a live delegate's answers are checked by it alike.
    /// Lengths are counted in Unicode scalars, as JSON Schema's `maxLength` counts.
    public func validationFailure(in selector: String? = nil) -> String? {
        let within = selector.map { " in \($0)" } ?? ""
        func badName(_ text: String, upTo limit: Int) -> Bool { text.isEmpty || text.unicodeScalars.count > limit }
        switch self {
        case .beginBackgroundTask(_, let duration?) where !AppConfiguration.durationRange.contains(duration):
            return "a background task's duration\(within) must be from 0 to 86400 seconds"
        case .hideViews(let views?), .showViews(let views?):
            guard views.contains(where: { badName($0, upTo: 128) }) else { return nil }
            return "a view's name\(within) is a non-empty string of at most 128 characters"
        case .showAlert(_, let title?) where title.unicodeScalars.count > 255:
            return "an alert's title\(within) is at most 255 characters"
        case .endBackgroundTask(let task) where !(1...Int(Int32.max)).contains(task):
            return "a task id\(within) is a whole number from 1 to \(Int32.max)"
        case .startBackgroundTransfer(let session, _, let name)
        where badName(session, upTo: 128) || badName(name, upTo: 128):
            return "a background transfer's session and name\(within) are non-empty strings of at most 128 characters"
        case .submitTask(let request):
            return request.validationFailure(within: within)
        case .cancelTaskRequest(let identifier) where badName(identifier, upTo: 255):
            return "a task identifier\(within) is a non-empty string of at most 255 characters"
        case .reportProgress(let fraction) where !(0...1).contains(fraction):
            return "a progress fraction\(within) is from 0 to 1"
        default:
            return nil
        }
    }
}

extension ScheduledTaskRequest {
    /// The first bound the request breaks (`within`: " in <selector>" or empty), for `CallbackAction`.
    fileprivate func validationFailure(within: String) -> String? {
        if identifier.isEmpty || identifier.unicodeScalars.count > 255 {
            return "a task identifier\(within) is a non-empty string of at most 255 characters"
        }
        if let begin = earliestBegin, !(0...Device.maximumTime).contains(begin) {
            return "earliestBegin\(within) must be from 0 to \(Device.maximumTime.plainText) seconds"
        }
        if kind != .processing, requiresExternalPower != nil || requiresNetworkConnectivity != nil {
            return "requiresExternalPower and requiresNetworkConnectivity\(within) belong to a processing task"
        }
        if kind != .continued, strategy != nil || title != nil {
            return "strategy and title\(within) belong to a continued task"
        }
        if let title, title.unicodeScalars.count > 255 {
            return "a continued task's title\(within) is at most 255 characters"
        }
        return nil
    }
}
