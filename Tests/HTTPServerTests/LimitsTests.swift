import Dispatch
import HTTPServer
import Locking
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LimitsTests {
    @Test func aClientOverItsConnectionLimitIsClosedAndAdmittedAgainOnceBelow() throws {
        try withServer(
            configure: { $0.perClientConnectionLimit = 4 },
            { _, completion in completion(textResponse("ok")) }
        ) { server in
            var clients = try (0..<4).map { _ in try TestHTTPClient(port: server.port) }
            for client in clients { #expect(try client.request(path: "/").status == 200) }
            // The read timeout only bounds a failure: the server closes the connection, loaded machine or not.
            let refused = try TestHTTPClient(port: server.port, timeoutSeconds: 30)
            #expect(refused.serverClosed())
            clients.removeLast()
            #expect(eventually { server.openConnections == 3 })
            #expect(try TestHTTPClient(port: server.port).request(path: "/").status == 200)
        }
    }

    /// libmicrohttpd's own timer restarts on every byte; the head deadline does not.
    @Test func aSlowlorisClientIsCutOffWhileOthersAreServed() throws {
        try withServer(
            configure: { $0.idleTimeoutSeconds = 1 },
            { _, completion in completion(textResponse("ok")) }
        ) { server in
            let slow = try TestHTTPClient(port: server.port, timeoutSeconds: 1)
            try slow.sendBytes(Array("GET / HTTP/1.1\r\nHost: localhost\r\n".utf8))
            let started = DispatchTime.now().uptimeNanoseconds
            var cutOff = false
            // One header byte every 300 ms: well inside libmicrohttpd's 1 s idle timer each time. The sleep is the
            // slow client being tested, against libmicrohttpd's timers in real seconds.
            for _ in 0..<20 {
                usleep(300_000)
                if (try? slow.sendBytes(Array("X".utf8))) == nil {
                    cutOff = true
                    break
                }
                #expect(try TestHTTPClient(port: server.port).request(path: "/").status == 200)
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            #expect(cutOff || slow.serverClosed())
            // Cut off near the 1 s deadline; without the deadline the trickle would go on for 6 s.
            #expect(seconds < 5, "the slow client was cut off after \(seconds) s")
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws {
        try withServer(
            configure: { $0.idleTimeoutSeconds = 1 },
            { _, completion in completion(textResponse("ok")) }
        ) { server in
            // The read timeout only bounds a failure: the idle timer closes the connection after its second.
            let client = try TestHTTPClient(port: server.port, timeoutSeconds: 30)
            #expect(try client.request(path: "/").status == 200)
            #expect(client.serverClosed())
            #expect(eventually { server.openConnections == 0 })
        }
    }

    /// libmicrohttpd does not poll a suspended connection; the event loop watches parked sockets itself.
    @Test func clientsThatLeaveMidPollReleaseTheirConnectionsAtOnce() throws {
        let parked = Protected<[@Sendable (HTTPResponse) -> Void]>([])
        try withServer({ _, completion in parked.update { $0.append(completion) } }) { server in
            let staying = try TestHTTPClient(port: server.port)
            try staying.sendRequest(path: "/poll/staying")
            do {
                let leaving = try (0..<200).map { _ in try TestHTTPClient(port: server.port) }
                for client in leaving { try client.sendRequest(path: "/poll/leaving") }
                #expect(eventually { parked.get().count == 201 })
                #expect(server.openConnections == 201)
            }  // the 200 leave without waiting for their answers
            // Unwatched, they would stay open until answered: any wait that ends tells, however loaded the machine.
            #expect(eventually(seconds: 30) { server.openConnections == 1 })
            // Their completions still run harmlessly, and the one that stayed gets its answer.
            for completion in parked.get() { completion(textResponse("late")) }
            #expect(try staying.readResponse().text == "late")
        }
    }

    @Test func twoThousandParkedRequestsAreAllAnsweredWhenCompleted() throws {
        let parked = Protected<[@Sendable (HTTPResponse) -> Void]>([])
        try withServer({ request, completion in
            parked.update { $0.append(completion) }
        }) { server in
            let count = 2000
            let clients = try (0..<count).map { _ in try TestHTTPClient(port: server.port) }
            for (index, client) in clients.enumerated() { try client.sendRequest(path: "/poll/\(index)") }
            #expect(eventually(seconds: 20) { parked.get().count == count })
            #expect(server.openConnections == count)
            let completions = parked.get()
            DispatchQueue.concurrentPerform(iterations: 4) { part in
                for index in stride(from: part, to: count, by: 4) { completions[index](textResponse("done")) }
            }
            for client in clients { #expect(try client.readResponse().text == "done") }
        }
    }
}
