/// The in-call status bar (LIFECYCLE §5, seed 000 §3.2): taller while a call the user answered goes on. Each app
/// is told of it by what it last heard.
extension Device {
    /// The status bar's height in points, as the frame-change callbacks carry it: normal, and during a call.
    static let statusBarHeight = 20.0
    static let inCallStatusBarHeight = 40.0

    /// Whether the OS shows a call as a taller status bar: before iOS 13 (chosen; from iOS 13 the call shows
    /// inside a status bar whose frame does not change, and the app-level callbacks are deprecated).
    var showsCallsInTallStatusBar: Bool { configuration.iosVersion < Version(13, 0) }

    /// The height the status bar has now.
    var currentStatusBarHeight: Double {
        callSince != nil && showsCallsInTallStatusBar ? Self.inCallStatusBarHeight : Self.statusBarHeight
    }

    /// An app-delegate app that comes in front hears the status bar change, while still inactive, when it differs
    /// from what the app last heard: it grows during a call, and shrinks for an app that was away when the call
    /// ended.
    mutating func showInCallStatusBar(to id: String) {
        guard showsCallsInTallStatusBar, foregroundApp == id, !usesScenes(id) else { return }
        let height = currentStatusBarHeight
        guard height != apps[existing: id].heardStatusBarHeight ?? Self.statusBarHeight else { return }
        statusBarFrameChange(["value": ["height": .number(height)]])
    }

    /// The call hangs up: the app in front sees the status bar shrink back.
    mutating func endCall() {
        callSince = nil
        guard let front = foregroundApp else { return }
        showInCallStatusBar(to: front)
    }
}
