#if canImport(Glibc)
    import Glibc
#endif
import CMicroHTTPD
import Dispatch
import TestSupport
import Testing

@testable import HTTPServer

/// An answer's body is handed to libmicrohttpd without a copy: the response holds the array's storage until
/// libmicrohttpd lets the response go.
@Suite struct LentBodyTests {
    private final class Watched: @unchecked Sendable {
        weak var storage: AnyObject?
    }

    @Test func theResponseHoldsTheBodysOwnStorageUntilItIsDestroyed() throws {
        let watched = Watched()
        var response: OpaquePointer?
        do {
            let bytes = [UInt8](repeating: 7, count: 4096)
            watched.storage = BodyStorage.of(bytes)
            // The storage is the array's: a copy of the array has the same, another array another.
            let copy = bytes
            let other = [UInt8](repeating: 7, count: 4096)
            let sameForACopy = BodyStorage.of(copy) === BodyStorage.of(bytes)
            let sameForAnother = BodyStorage.of(other) === BodyStorage.of(bytes)
            #expect(sameForACopy && !sameForAnother)
            response = ResponseSender.lending(bytes)
        }
        #expect(response != nil)
        #expect(watched.storage != nil, "the response does not hold the body's storage: it was copied")
        MHD_destroy_response(response)
        #expect(watched.storage == nil, "the body's storage outlived its response")
    }

    @Test func aBodyIsSentWholeAndLetGoOnceSent() throws {
        let watched = Watched()
        let expected = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try withServer({ _, completion in
            // A body made for this answer alone: once handed over, only the server holds it.
            let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            watched.storage = BodyStorage.of(bytes)
            completion(HTTPResponse(status: 200, body: bytes))
        }) { server in
            let client = try TestHTTPClient(port: server.port)
            let response = try client.request(path: "/big")
            #expect(response.status == 200)
            #expect(response.body == expected)
            // libmicrohttpd lets the response go when the request completes, just after the last byte is sent.
            #expect(eventually { watched.storage == nil }, "the body's storage outlived its answer")
        }
    }

    @Test func aSharedBodyServesEveryReader() throws {
        let shared = Array("the same bytes for every reader".utf8)
        try withServer({ _, completion in completion(HTTPResponse(status: 200, body: shared)) }) { server in
            let client = try TestHTTPClient(port: server.port)
            for _ in 0..<20 { #expect(try client.request(path: "/kept").body == shared) }
        }
    }
}
