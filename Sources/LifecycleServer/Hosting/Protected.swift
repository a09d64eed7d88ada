import Foundation

/// A value behind a lock, with `Mutex`'s `withLock` shape.
///
/// Built on `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux, Mutex locks with
/// futexes inside a library ThreadSanitizer does not instrument, so every access it guards reports as
/// a race, and the TSan pass of the test command could not tell real races from those.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
