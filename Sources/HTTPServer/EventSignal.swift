import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An eventfd one thread signals and an event loop polls: the loop's wake-up and its stop request.
final class EventSignal: Sendable {
    let descriptor: Int32

    init() throws(HTTPServerError) {
        descriptor = lifecycled_eventfd()
        guard descriptor >= 0 else { throw .cannotCreateEventLoop(reason: String(cString: strerror(errno))) }
    }

    deinit {
        close(descriptor)
    }

    /// Makes the descriptor readable; safe from any thread, any number of times.
    func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes it unreadable again.
    func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
    }
}
