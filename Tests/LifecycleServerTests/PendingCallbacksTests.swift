import Dispatch
import Foundation
import LifecycleCore
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

    @Test func anUnansweredCallbackHangsAtItsTimeout() {
        let board = PendingCallbacks(clock: SystemHostClock())
        let answer = board.ask(
            PendingCallback(app: "a", selector: "applicationDidBecomeActive:", state: .active), timeout: 0.05)
        #expect(answer == .hang)
        #expect(board.timedOut == 1)
        #expect(board.pending(app: "a") == nil)
    }
}
