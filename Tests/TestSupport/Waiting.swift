package import Dispatch
import Foundation
import Locking

/// Whether `condition` holds within `seconds`, looking every 2 ms: how a test waits for a state rather
/// than for a time. The wait ends as soon as it holds: the default only bounds a failure, and is long enough
/// for a build under ThreadSanitizer on a loaded two-core machine.
package func eventually(seconds: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if try condition() { return true }
        usleep(2000)
    }
    return try condition()
}

/// Seconds since `start`.
package func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Runs `body` on a new thread; `join()` waits for it and returns its result.
package final class Background<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Protected<Result<Value, any Error>?>(nil)

    /// Whether the body has returned (or thrown).
    package var isFinished: Bool { result.get() != nil }

    package init(_ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [done, result] in
            result.set(Result(catching: body))
            done.signal()
        }
        thread.start()
    }

    package func join() throws -> Value {
        done.wait()
        return try result.get()!.get()
    }
}

extension Protected {
    /// The value now (a copy).
    package func get() -> Value { withLock { $0 } }

    package func set(_ newValue: Value) { withLock { $0 = newValue } }

    /// Changes the value in place; what `body` returns.
    package func update<T>(_ body: (inout Value) -> T) -> T { withLock { body(&$0) } }

    /// Puts `newValue` in and returns what was there.
    package func exchange(_ newValue: Value) -> Value {
        withLock { value in
            defer { value = newValue }
            return value
        }
    }
}

extension Protected {
    /// Appends to a collection behind the lock (values handed to completions on other threads).
    package func append<Element>(_ element: Element) where Value == [Element] { withLock { $0.append(element) } }
}
