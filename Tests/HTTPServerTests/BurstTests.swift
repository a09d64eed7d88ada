import Dispatch
import HTTPServer
import Locking
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The trigger of libmicrohttpd 0.9.75's epoll stall, in process: every event loop is held inside a handler
/// (like SIGSTOP), 128 or 256 keep-alive connections each send a request meanwhile, then the loops go on and
/// every answer must come at once. libmicrohttpd's own epoll thread, given exactly 128 ready connections,
/// waits for the next timeout instead (seen here: every round with one thread, no answer within 5 s).
@Suite struct BurstTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let threads: Int
        let connections: Int
        var testDescription: String { "\(threads) loop(s), \(connections) connections" }
    }

    @Test(arguments: [
        Case(threads: 1, connections: 128), Case(threads: 1, connections: 256),
        Case(threads: 2, connections: 128), Case(threads: 2, connections: 256),
    ])
    func aBurstOfReadyConnectionsIsAnsweredAtOnce(_ burst: Case) throws {
        let gate = DispatchGroup()
        let blockedThreads = Protected<Set<UInt>>([])
        try withServer(
            configure: { $0.threads = burst.threads },
            { request, completion in
                if request.path == "/block" {
                    blockedThreads.update { _ = $0.insert(UInt(pthread_self())) }
                    gate.wait()
                }
                completion(textResponse(request.path))
            }
        ) { server in
            for round in 0..<10 {
                // Fresh connections, accepted and spread over the loops by a first answered request.
                let clients = try (0..<burst.connections).map { _ in try TestHTTPClient(port: server.port) }
                for client in clients { try client.sendRequest(path: "/warm") }
                for client in clients { #expect(try client.readResponse().status == 200) }

                // Hold every loop inside a handler. One loop takes exactly one blocker, so that after the release
                // nothing but the burst is ready. Several loops need more blockers than loops (the kernel picks
                // the loop of each connection), and the queued ones blur the trigger: that case checks the
                // default configuration under a burst, the one-loop case is the exact trigger.
                blockedThreads.set([])
                gate.enter()
                let blockerCount = burst.threads == 1 ? 1 : 8 * burst.threads
                let blockers = try (0..<blockerCount).map { _ in try TestHTTPClient(port: server.port) }
                for blocker in blockers { try blocker.sendRequest(path: "/block") }
                let allBlocked = eventually { blockedThreads.get().count == burst.threads }
                for (index, client) in clients.enumerated() { try client.sendRequest(path: "/r/\(round)/\(index)") }
                let released = DispatchTime.now().uptimeNanoseconds
                gate.leave()
                #expect(allBlocked)

                for (index, client) in clients.enumerated() {
                    let response = try client.readResponse()
                    #expect(response.text == "/r/\(round)/\(index)")
                }
                // Not a speed check: a stalled loop answers only at libmicrohttpd's next timeout (the idle
                // timeout, 30 s here), a slow machine (ThreadSanitizer, other builds) in a few seconds at worst.
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - released) / 1e9
                #expect(seconds < 15, "round \(round): the burst took \(seconds) s, as a stalled loop does")
                for blocker in blockers { #expect(try blocker.readResponse().status == 200) }
            }
        }
    }
}
