import Dispatch

/// Something that follows a device's timelines as they grow (an open event stream): hosting tells it
/// when entries arrive for what it watches, or when the device goes, and nothing else.
package protocol TimelineWatcher: AnyObject, Sendable {
    /// Entries arrived, or the timeline went away: look again. Called off the store's thread.
    func timelineChanged()
}

extension Array where Element == any TimelineWatcher {
    /// Tells every watcher off the calling thread (the store's writer must return quickly).
    func wakeElsewhere() {
        guard !isEmpty else { return }
        DispatchQueue.global().async { for watcher in self { watcher.timelineChanged() } }
    }
}
