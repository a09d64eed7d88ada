import Testing

@testable import LifecycleServer

@Suite("If-None-Match")
struct ETagTests {
    private let tag = #""3f2a""#

    @Test(
        "a list matches by weak comparison, ignoring blanks around its members",
        arguments: [
            #""3f2a""#, #"W/"3f2a""#, "*", " * ", #""other", "3f2a""#, #""other",W/"3f2a""#, "\t\"3f2a\"\t, \"x\"",
            #",,"3f2a",,"#, #""x" , * "#,
        ])
    func matches(header: String) {
        #expect(ETag.matches(header, tag))
    }

    @Test(
        "anything else does not",
        arguments: [
            "", ",", " , ", #""3f2""#, #""3f2a"x"#, #""3f2a "#, "3f2a", #"w/"3f2a""#, "W/", #"W/ "3f2a""#, "**",
            #""other""#, #"""3f2a""#,
        ])
    func doesNotMatch(header: String) {
        #expect(!ETag.matches(header, tag))
    }
}
