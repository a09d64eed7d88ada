/// The main run loop: who gets which input (LIFECYCLE §8, seed 001 Table 2-2).
extension Device {
    mutating func deliver(_ input: RunLoopEvent, to id: String) {
        let app = apps[existing: id]
        let delivered: Bool
        switch input {
        case .touch, .shake:
            delivered = app.state == .active
        case .motion:
            // An inactive app still gets accelerometer events (seed 000).
            delivered = app.state.isForeground
        case .remoteControl:
            delivered = app.state == .active || (app.state == .background && app.backgroundActivities.contains("audio"))
        case .location:
            delivered =
                app.state.isForeground || (app.state == .background && app.backgroundActivities.contains("location"))
        case .redraw:
            delivered = app.state.isForeground
            // A view marked dirty off screen is drawn once, after the app becomes active.
            if app.state == .background || app.state == .suspended { apps[existing: id].pendingRedraws += 1 }
        }
        record(id, .runLoop(event: input, delivered: delivered, coalesced: nil))
        // A tap the app handles with actions is the user's action (a continued task's submission, LIFECYCLE §15).
        if input == .touch, delivered, !app.delegate.actions(inside: ScheduledTasks.userAction).isEmpty {
            invoke(id, ScheduledTasks.userAction)
        }
    }
}
