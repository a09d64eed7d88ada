/// How apps die (LIFECYCLE §9.1): the one place a termination is written down.
extension Device {
    /// Records that `id` stopped running: its `termination`, the timeline entry, and its exit counts
    /// (`ExitCounts`, by `TerminationReason.kind`'s category, in front or not).
    mutating func recordTermination(_ id: String, _ reason: TerminationReason, notified: Bool, foreground: Bool) {
        apps[existing: id].termination = Termination(
            reason: reason, time: time, notified: notified, foreground: foreground)
        var exits = apps[existing: id].exitCounts ?? ExitCounts()
        exits.add(reason.kind.category, foreground: foreground)
        apps[existing: id].exitCounts = exits
        record(id, .termination(reason: reason, notified: notified, foreground: foreground))
    }
}
