/// The in-call status bar (LIFECYCLE §5, seed 000 §3.2): taller while a call the user answered goes on.
extension Device {
    /// The status bar's height in points, as the frame-change callbacks carry it: normal, and during a call.
    static let statusBarHeight = 20.0
    static let inCallStatusBarHeight = 40.0

    /// Whether the OS shows a call as a taller status bar: before iOS 13 (chosen; from iOS 13 the call shows
    /// inside a status bar whose frame does not change, and the app-level callbacks are deprecated).
    var showsCallsInTallStatusBar: Bool { configuration.iosVersion < Version(13, 0) }

    /// An app-delegate app that comes in front during a call sees the status bar grow, while still inactive.
    mutating func showInCallStatusBar(to id: String) {
        guard callSince != nil, showsCallsInTallStatusBar, foregroundApp == id, !usesScenes(id) else { return }
        statusBarFrameChange(["value": ["height": .number(Self.inCallStatusBarHeight)]])
    }

    /// The call hangs up: the app in front sees the status bar shrink back.
    mutating func endCall() {
        callSince = nil
        guard showsCallsInTallStatusBar, let front = foregroundApp, !usesScenes(front) else { return }
        statusBarFrameChange(["value": ["height": .number(Self.statusBarHeight)]])
    }
}
