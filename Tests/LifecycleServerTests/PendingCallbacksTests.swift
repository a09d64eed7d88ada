import Dispatch
import Foundation
import LifecycleCore
import Locking
import TestSupport
import Testing

@testable import LifecycleHosting

/// The board a device's live callbacks wait on for their answers over HTTP (LIFECYCLE §13).
@Suite struct PendingCallbacksTests {
    /// Each callback asked is shown, numbered, until answered; once answered it is not shown, and a second
    /// answer is refused. (Shown no more at once, before its device's queue takes the answer, as
    /// Tests/System/live-delegate-test.py sees over HTTP: in process the window is too short to catch.)
    @Test func anAnsweredCallbackIsNoLongerPending() throws {
        let board = PendingCallbacks(clock: SystemHostClock())
        for round in 1...50 {
            let asked = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = board.ask(
                    PendingCallback(app: "a", selector: "applicationDidBecomeActive:", state: .active), timeout: 5)
                asked.signal()
            }
            var pending = board.pending(app: "a")
            #expect(
                eventually {
                    pending = board.pending(app: "a")
                    return pending != nil
                })
            #expect(pending?.id == round)
            #expect(board.give(CallbackAnswer(), to: round, app: "a") == nil)
            #expect(board.pending(app: "a") == nil, "round \(round): the answered callback still shows")
            #expect(board.give(CallbackAnswer(), to: round, app: "a") == .nothingPending)
            asked.wait()
        }
    }

    /// A read woken by a deletion's start may look again only after the deletion applied and the id was
    /// readmitted: it finds the app gone (`deleting`, a 404), and a read parked in that window is woken by the
    /// readmission to find the same. (Seen over HTTP in a loaded run: the woken read parked again, for its wait.)
    @Test func aReadOfADeletedAppFindsItGoneAndReadmissionWakesParkedReads() throws {
        var device = try Device(id: "d", configuration: DeviceConfiguration())
        var app = AppConfiguration(bundleId: "com.example.live")
        app.delegate.live = true
        _ = try device.addApp(id: "b", configuration: app)
        let clock = ManualHostClock(now: 0)
        let published = Protected(
            PublishedDevice(
                device: device, historyLimit: 100, historyBytes: 1 << 20, anchor: WallAnchor(clock: clock, wall: 0),
                recording: InputRecording()))
        let board = PendingCallbacks(clock: clock, published: published)
        // "a" is not on the device (its deletion applied): nothing parks.
        var parkedForGone = false
        guard
            case .deleting = board.look(
                app: "a",
                orPark: {
                    parkedForGone = true; return nil
                })
        else {
            Issue.record("a read of an app that is gone did not answer deleting")
            return
        }
        #expect(!parkedForGone)
        // A read of "b" parks; "a"'s readmission wakes it to look again.
        let looked = Protected(0)
        let poll = Poll(
            clock: clock, look: { _ in looked.update { $0 += 1 } }, timerArmed: { _ in }, answered: {})
        guard case .none(parked: true) = board.look(app: "b", orPark: { poll }) else {
            Issue.record("the read of b did not park")
            return
        }
        board.readmit("a")
        #expect(eventually { looked.get() == 1 })
    }

    @Test func anUnansweredCallbackHangsAtItsTimeout() {
        let board = PendingCallbacks(clock: SystemHostClock())
        let answer = board.ask(
            PendingCallback(app: "a", selector: "applicationDidBecomeActive:", state: .active), timeout: 0.05)
        #expect(answer == .hang)
        #expect(board.timedOut == 1)
        #expect(board.pending(app: "a") == nil)
    }
}
