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

    @Test func knownFieldsAreFoundByIndexInAnyCaseTheFirstOfRepeatedOnes() {
        let request = HTTPRequest(
            method: "GET", path: "/",
            headers: [
                ("x-request-id", "abc"), ("Accept", "a"), ("IF-NONE-MATCH", "\"1\""), ("accept", "b"), ("X-Other", "x"),
            ])
        #expect(request.header(.requestID) == "abc")
        #expect(request.header(.accept) == "a")
        #expect(request.header(.ifNoneMatch) == "\"1\"")
        #expect(request.header(.host) == nil)
        #expect(request.header(.authorization) == nil)
        // The same answers as the lookup by name, for every known field.
        for field in KnownField.allCases {
            #expect(request.header(field) == request.header(field.name), "\(field)")
        }
    }

    @Test func everyKnownFieldIsToldByItsNameInAnyCaseAndNoOtherNameIs() {
        for field in KnownField.allCases {
            #expect(KnownField.of(field.name) == field)
            #expect(KnownField.of(field.name.lowercased()) == field)
            #expect(KnownField.of(field.name.uppercased()) == field)
            #expect(KnownField.of(field.name + "s") == nil)
            #expect(KnownField.of(String(field.name.dropLast())) == nil)
        }
        // Where each is noted takes a lane of a 32-lane vector and a bit of a 32-bit mask (`KnownFields`).
        #expect(KnownField.allCases.count <= 32)
        #expect(KnownField.of("") == nil)
        #expect(KnownField.of("X-Request-Ic") == nil)
        #expect(KnownField.of("Accept-Charset") == nil)
    }
}
