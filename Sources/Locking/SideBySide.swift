import Dispatch
import Foundation

/// Runs `body` once for each of `0..<count`, on up to `threads` threads of their own that each take the next
/// index as they finish one, and returns the results in the order of the indices.
///
/// Threads of their own, not Dispatch's pool: a body that takes seconds (a band's walks) or waits for answers (a
/// scenario checked against a daemon) holds its thread, and a pool as wide as the cores held so leaves a daemon in
/// the same process no thread for its devices' queues.
public func sideBySide<Result: Sendable>(
    _ count: Int, threads: Int, _ body: @escaping @Sendable (Int) -> Result
) -> [Result] {
    let next = Protected(0)
    let slots = Protected<[Result?]>(Array(repeating: nil, count: count))
    let done = DispatchGroup()
    for _ in 0..<max(0, min(threads, count)) {
        done.enter()
        Thread {
            defer { done.leave() }
            while true {
                let index = next.withLock { next -> Int in
                    defer { next += 1 }
                    return next
                }
                guard index < count else { return }
                let result = body(index)
                slots.withLock { $0[index] = result }
            }
        }
        .start()
    }
    done.wait()
    return slots.withLock { $0.map { $0! } }
}
