import Dispatch
import LifecycleCore
import LifecyclePersistence

/// The realtime clock: a timer on the device's queue for the core's next deadline.
extension DeviceHost {
    /// Arms the timer for the core's next deadline on a realtime clock.
    func rescheduleTimer() {
        guard life == .live, device.configuration.clockMode == .realtime, let deadline = device.nextDeadline else {
            timer?.cancel()
            timer = nil
            return
        }
        // Capped at a day: a far deadline is looked at again then, and the delay always fits Dispatch.
        let delay = min(anchor.seconds(until: deadline, speed: device.configuration.clockSpeed), 86_400)
        if timer == nil {
            timer = anchor.clock.makeTimer(on: queue) { [weak self] in
                guard let self else { return }
                // A deadline may ask a live delegate over HTTP (a task's expiration): as an input does, it waits on a
                // thread of its own.
                if liveDelegates.waitsOverHTTP(on: device) { return onThreadOfItsOwn { self.clockFired() } }
                clockFired()
            }
        }
        timer?.schedule(after: delay)
    }

    func clockFired() {
        guard life == .live else { return }
        let now = clockNow()
        let outcome = device.advance(to: now, answering: liveAnswering)
        if !outcome.entries.isEmpty {
            commit(
                JournaledInput.advance(now: now).withAnswers(outcome.answers),
                stored: RetainedEntry.retaining(outcome.entries)
            ) {
                _ in
            }
        }
        rescheduleTimer()
    }

    /// Starts the realtime clock after recovery: deadlines that passed while the daemon was down fire in
    /// order, before the daemon answers anything. Returns once their journal records are accepted.
    package func resumeClock() {
        queue.sync {
            if device.configuration.clockMode == .realtime { clockFired() }
        }
    }
}
