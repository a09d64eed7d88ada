import HTTPServer
import Testing

@Suite struct HTTPRequestTests {
    @Test func headerLookupIgnoresASCIICase() {
        let request = HTTPRequest(method: "GET", path: "/", headers: [("Content-Type", "application/json")])
        #expect(request.header("content-type") == "application/json")
        #expect(request.header("CONTENT-TYPE") == "application/json")
        #expect(request.header("Content-Typ") == nil)
        #expect(request.header("Content-Types") == nil)
    }

    @Test func headerLookupReturnsTheFirstOfRepeatedHeaders() {
        let request = HTTPRequest(method: "GET", path: "/", headers: [("X-A", "1"), ("x-a", "2")])
        #expect(request.header("x-a") == "1")
    }
}
