import Dispatch
import HTTPServer
import Locking
import TestSupport
import Testing

@Suite struct StopTests {
    @Test func stopAnswersAParkedRequestAsShuttingDown() throws {
        let parked = Protected<(@Sendable (HTTPResponse) -> Void)?>(nil)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(
            configuration: configuration,
            responder: ClosureResponder { _, completion in parked.set(completion) },
            logger: testLogger
        )
        try server.start()
        let client = try TestHTTPClient(port: server.port)
        try client.sendRequest(path: "/v1/apps/a1?wait=30")
        #expect(eventually { parked.get() != nil })
        server.stop()

        let response = try client.readResponse()
        #expect(response.text == refused(.shuttingDown))
        #expect(response.header("Connection")?.lowercased() == "close")
        // A completion arriving after stop is ignored and does not crash.
        parked.get()?(textResponse("too late"))
        server.stop()
    }

    @Test func aParkedRequestWhoseClientLeftCanStillBeCompleted() throws {
        let parked = Protected<[@Sendable (HTTPResponse) -> Void]>([])
        try withServer({ request, completion in
            if request.path == "/park" {
                parked.update { $0.append(completion) }
            } else {
                completion(textResponse("ok"))
            }
        }) { server in
            do {
                let leaving = try TestHTTPClient(port: server.port)
                try leaving.sendRequest(path: "/park")
                #expect(eventually { parked.get().count == 1 })
            }  // the client closes its socket here
            parked.get().first?(textResponse("nobody listens"))
            let client = try TestHTTPClient(port: server.port)
            #expect(try client.request(path: "/still-serving").status == 200)
        }
    }

    @Test func quiesceRefusesNewConnectionsButServesOpenOnes() throws {
        try withServer({ _, completion in completion(textResponse("ok")) }) { server in
            let open = try TestHTTPClient(port: server.port)
            #expect(try open.request(path: "/").status == 200)
            server.quiesce()
            #expect(try open.request(path: "/").status == 200)
            #expect(throws: (any Error).self) {
                try TestHTTPClient(port: server.port, timeoutSeconds: 1).request(path: "/")
            }
        }
    }

    @Test func stopWithoutStartAndTwiceIsHarmless() throws {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(
            configuration: configuration,
            responder: ClosureResponder { _, completion in completion(textResponse("ok")) },
            logger: testLogger
        )
        server.stop()
        server.stop()
    }
}
