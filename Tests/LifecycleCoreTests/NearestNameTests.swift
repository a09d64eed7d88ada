import Testing

@testable import LifecycleCore

/// The one edit distance: "did you mean …?" names the closest name only when it is close enough to be meant.
@Suite struct NearestNameTests {
    @Test func aTypoNamesTheClosestName() {
        #expect(NearestName.among(["launch", "homeButton", "lock"], to: "lauch") == "launch")
        #expect(NearestName.among(["do", "body", "status", "expect", "pluck"], to: "expcet") == "expect")
        #expect(NearestName.among(["do", "body", "status", "expect", "pluck"], to: "stauts") == "status")
        #expect(NearestName.among(["$any", "$len", "$gte"], to: "$lenn") == "$len")
    }

    @Test func aNameFarFromEveryKnownOneNamesNone() {
        #expect(NearestName.among(["do", "body", "status", "expect", "pluck"], to: "note") == nil)
        #expect(NearestName.among(["launch", "homeButton"], to: "teleport") == nil)
        #expect(NearestName.among(["do"], to: "x") == nil)
        // The name itself is not a suggestion.
        #expect(NearestName.among(["launch"], to: "launch") == nil)
    }

    @Test func distanceCountsSingleCharacterEdits() {
        #expect(NearestName.distance("kitten", "sitting") == 3)
        #expect(NearestName.distance("", "abc") == 3)
        #expect(NearestName.distance("same", "same") == 0)
    }
}
