import HTTPServer
import Locking
import TestSupport
import Testing

@Suite struct BodyLimitTests {
    @Test func aDeclaredBodyOverTheCapIsRefusedBeforeItIsSent() throws {
        let called = Protected(false)
        try withServer(
            maxBodyBytes: 1024,
            { _, completion in
                called.set(true)
                completion(textResponse("ok"))
            }
        ) { server in
            let client = try TestHTTPClient(port: server.port)
            try client.sendBytes(Array("POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n".utf8))
            let response = try client.readResponse()
            #expect(response.text == refused(.bodyTooLarge(bytes: 1025, limit: 1024)))
            #expect(!called.get())
        }
    }

    @Test func aBodyAtTheCapIsAccepted() throws {
        try withServer(
            maxBodyBytes: 1024,
            { request, completion in
                completion(textResponse("\(request.body.count)"))
            }
        ) { server in
            let client = try TestHTTPClient(port: server.port)
            let response = try client.request(method: "POST", path: "/", body: [UInt8](repeating: 1, count: 1024))
            #expect(response.status == 200)
            #expect(response.text == "1024")
        }
    }

    @Test func aChunkedBodyOverTheCapIsCountedAndRefused() throws {
        let called = Protected(false)
        try withServer(
            maxBodyBytes: 1024,
            { _, completion in
                called.set(true)
                completion(textResponse("ok"))
            }
        ) { server in
            let client = try TestHTTPClient(port: server.port)
            let chunk = String(repeating: "a", count: 600)
            let raw =
                "POST /v1/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
            try client.sendBytes(Array(raw.utf8))
            let response = try client.readResponse()
            #expect(response.text == refused(.bodyTooLarge(bytes: nil, limit: 1024)))
            #expect(!called.get())
        }
    }
}
