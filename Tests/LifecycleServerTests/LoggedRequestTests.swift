import HTTPServer
import Testing

@testable import LifecycleServer

/// What a log line shows of a request the client wrote: printable ASCII as it is, every other byte `%XX`.
@Suite struct LoggedRequestTests {
    @Test func controlCharactersPercentAndNonASCIIAreEscaped() {
        #expect(HTTPRequest.logged("/v1/apps/a1") == "/v1/apps/a1")
        #expect(HTTPRequest.logged("/v1/apps/x\n2026 critical FORGED") == "/v1/apps/x%0A2026%20critical%20FORGED")
        #expect(HTTPRequest.logged("/a\r\u{1B}[31m%0A") == "/a%0D%1B[31m%250A")
        #expect(HTTPRequest.logged("/é") == "/%C3%A9")
    }
}
