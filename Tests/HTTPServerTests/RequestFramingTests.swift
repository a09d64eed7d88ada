import Testing

@testable import HTTPServer

/// The body length `RequestFraming` keeps from the fields it is handed, beside its refusals: the first
/// `Content-Length`'s value as a number, whatever the name's case, and nothing from any other field.
@Suite struct RequestFramingTests {
    private func framing(_ fields: [(String, String)]) -> RequestFraming {
        var framing = RequestFraming()
        for (name, value) in fields {
            var name = name
            name.withUTF8 {
                let bytes = UnsafeRawBufferPointer($0)
                framing.note(name: bytes, field: KnownField.of(bytes)?.field) { value }
            }
        }
        return framing
    }

    @Test func theContentLengthIsTheDeclaredLengthInAnyCase() {
        for name in ["Content-Length", "content-length", "CONTENT-LENGTH"] {
            let noted = framing([("Host", "x"), (name, "1025")])
            #expect(noted.declaredBodyBytes == 1025)
            #expect(noted.refusal == nil)
        }
        #expect(framing([("Content-Length", "0")]).declaredBodyBytes == 0)
    }

    @Test func noLengthIsDeclaredWithoutAContentLength() {
        let noted = framing([("Host", "x"), ("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")])
        #expect(noted.declaredBodyBytes == nil)
        #expect(noted.refusal == nil)
    }

    @Test func aValueThatIsNotANumberDeclaresNoLength() {
        for value in ["", "abc", "-1", "5 ", "0x5", "18446744073709551616"] {
            #expect(framing([("Content-Length", value)]).declaredBodyBytes == nil)
        }
    }

    /// Names that only resemble `Content-Length` declare nothing; a longer one is refused as malformed.
    @Test func aNameThatIsNotContentLengthDeclaresNothing() {
        #expect(framing([("Content-Lengt", "5")]).declaredBodyBytes == nil)
        let extended = framing([("Content-Lengthy", "5")])
        #expect(extended.declaredBodyBytes == nil)
        #expect(extended.refusal == .malformedFieldName("Content-Lengthy"))
    }

    /// The first field counts; several are refused whatever the length kept.
    @Test func severalContentLengthsKeepTheFirstAndAreRefused() {
        let noted = framing([("Content-Length", "2"), ("content-length", "40")])
        #expect(noted.declaredBodyBytes == 2)
        #expect(noted.refusal == .severalContentLengths(["2", "40"]))
    }

    @Test func aContentLengthWithATransferEncodingIsRefused() {
        let noted = framing([("Content-Length", "5"), ("Transfer-Encoding", "chunked")])
        #expect(noted.declaredBodyBytes == 5)
        #expect(noted.refusal == .contentLengthWithTransferEncoding)
    }
}
