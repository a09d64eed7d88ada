/// Background transfers: uploads and downloads an app hands to the system through a URL session made with
/// `URLSessionConfiguration.background(withIdentifier:)` (LIFECYCLE §14, iOS 7 and later).

/// The kind of a background session's task: only downloads and uploads run in the background.
public enum TransferTask: String, Sendable, Codable, CaseIterable {
    case download, upload
}

/// How the system's transfer ended, as the harness tells it (`finishTransfer`).
public enum TransferOutcome: String, Sendable, Codable, CaseIterable {
    case success, failure
}

/// What a `transfer` entry records.
public enum TransferEvent: String, Sendable, Codable, CaseIterable {
    /// The app started it (the `startBackgroundTransfer` action).
    case started
    /// The system finished it, successfully or not; the app hears of it by the task's delegate messages.
    case completed, failed
    /// The user's force-quit cancelled it (`NSURLErrorCancelledReasonUserForceQuitApplication`).
    case cancelled
}

/// One transfer of an app's background session, from its start until the app has heard how it ended.
public struct BackgroundTransfer: Equatable, Sendable, Codable {
    /// The background session's identifier.
    public var session: String
    public var task: TransferTask
    /// The app's name for it.
    public var name: String
    /// How it ended, while its delegate messages wait for the app; nil: still under way.
    public var outcome: TransferOutcome?

    /// The most transfers an app has at once (chosen: a bound on what a device keeps).
    public static let limit = 64
}
