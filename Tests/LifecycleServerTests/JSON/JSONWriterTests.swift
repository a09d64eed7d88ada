import Foundation
import LifecycleCore
@testable import LifecycleJSON
@testable import LifecycleWire
import Testing

@testable import LifecycleServer

@Suite struct JSONWriterTests {
    private func text(_ write: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (12.0, "12"), (12.5, "12.5"), (-3, "-3"), (0, "0"), (-0.0, "-0"), (0.1, "0.1"), (1.0 / 3, "0.3333333333333333"),
        (1e18, "1000000000000000000"), (Double(9_007_199_254_740_993 as Int), "9007199254740992"), (1e20, "1e+20"),
        (1e-7, "1e-07"),
        (123456.789, "123456.789"), (1712345678.125, "1712345678.125"), (-2.5e-300, "-2.5e-300"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"), (Double.leastNonzeroMagnitude, "5e-324"),
        (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
    ])
    func formatsNumbers(value: Double, expected: String) {
        #expect(text { $0.number(value) } == expected)
    }

    @Test(arguments: [
        (0, "0"), (7, "7"), (-7, "-7"), (10, "10"), (1234567890, "1234567890"),
        (Int.max, "9223372036854775807"), (Int.min, "-9223372036854775808"),
    ])
    func formatsInts(value: Int, expected: String) {
        #expect(text { $0.int(value) } == expected)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("", #""""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("a/b", #""a/b""#),
        ("line\nfeed\r\ttab", #""line\nfeed\r\ttab""#),
        ("\u{08}\u{0C}", #""\b\f""#),
        ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
        ("\u{7F}", "\"\u{7F}\""),
        ("café 😀 €", "\"café 😀 €\""),
        ("\"\\\n", #""\"\\\n""#),
    ])
    func escapesStrings(value: String, expected: String) {
        #expect(text { $0.string(value) } == expected)
    }

    /// Text is checked for bytes to escape eight at a time: each byte that needs escaping, at every position
    /// of a 19-byte string (two whole words and a tail), beside ASCII and multi-byte neighbours, is escaped
    /// exactly as the byte-by-byte writer escapes it; everything else passes through unchanged.
    @Test func findsEveryByteToEscapeAtEveryPosition() throws {
        let escapes: [UInt8: String] = [
            0x22: #"\""#, 0x5C: #"\\"#, 0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#, 0x08: #"\b"#, 0x0C: #"\f"#,
        ]
        for filler in ["a", "é", "~", "\u{7F}", "😀"] {
            for special in Array(0x00...0x1F) + [0x22, 0x5C, 0x21, 0x23, 0x5B, 0x5D, 0x20, 0x7F] as [UInt8] {
                for position in 0..<19 {
                    var prefix = String(repeating: filler, count: position)
                    while prefix.utf8.count > position { prefix.removeLast() }
                    prefix += String(repeating: "a", count: position - prefix.utf8.count)
                    let suffix = String(repeating: "b", count: 18 - position)
                    let value = prefix + String(decoding: [special], as: UTF8.self) + suffix
                    let escaped =
                        special < 0x20 || special == 0x22 || special == 0x5C
                        ? escapes[special] ?? String(format: "\\u%04x", special)
                        : String(decoding: [special], as: UTF8.self)
                    let written = text { $0.string(value) }
                    #expect(written == "\"" + prefix + escaped + suffix + "\"", "byte \(special) at \(position)")
                }
            }
            let clean = String(repeating: filler, count: 23)
            #expect(text { $0.string(clean) } == "\"" + clean + "\"")
        }
    }

    @Test func writesVersionsAsTheirDescription() {
        for version in [Version(2, 0), Version(7, 0), Version(13, 1, 2), Version(10, 3, 0), Version(9999, 9999, 9999)] {
            #expect(text { $0.version(version) } == "\"\(version.description)\"")
        }
        #expect(
            text {
                $0.beginArray(); $0.version(Version(4, 2)); $0.version(Version(5, 1, 1)); $0.endArray()
            } == #"["4.2","5.1.1"]"#)
    }

    @Test func escapesKeys() {
        #expect(
            text {
                $0.beginObject(); $0.key("a\"b\n"); $0.int(1); $0.endObject()
            } == #"{"a\"b\n":1}"#)
    }

    @Test func writesIdentifierKeysKnownOnlyWhenRunningAsTheyAre() {
        let names = ["type", "sourceApplication", String(repeating: "x", count: 300)]
        let output = text { w in
            w.beginObject()
            for (index, name) in names.enumerated() {
                w.field(identifier: name)
                w.int(index)
            }
            w.field(identifier: ""); w.beginObject(); w.field(identifier: "a"); w.null(); w.endObject()
            w.endObject()
        }
        #expect(output == #"{"type":0,"sourceApplication":1,"\#(names[2])":2,"":{"a":null}}"#)
    }

    @Test func writesScalars() {
        #expect(text { $0.bool(true) } == "true")
        #expect(text { $0.bool(false) } == "false")
        #expect(text { $0.null() } == "null")
    }

    @Test func placesCommasInNestedStructures() {
        let output = text { w in
            w.beginObject()
            w.key("a")
            w.beginArray()
            w.int(1)
            w.beginArray(); w.endArray()
            w.beginObject(); w.endObject()
            w.beginArray(); w.int(2); w.number(3.5); w.endArray()
            w.beginObject(); w.key("b"); w.null(); w.endObject()
            w.endArray()
            w.key("c")
            w.beginObject()
            w.key("d"); w.bool(true)
            w.key("e"); w.beginArray(); w.bool(false); w.endArray()
            w.endObject()
            w.key("f"); w.string("x")
            w.key("g"); w.beginObject(); w.key("h"); w.beginObject(); w.endObject(); w.endObject()
            w.endObject()
        }
        #expect(output == #"{"a":[1,[],{},[2,3.5],{"b":null}],"c":{"d":true,"e":[false]},"f":"x","g":{"h":{}}}"#)
    }

    @Test func placesCommasInTopLevelArrays() {
        let output = text { w in
            w.beginArray()
            for index in 0..<3 {
                w.beginObject(); w.key("i"); w.int(index); w.key("s"); w.beginArray(); w.endArray(); w.endObject()
            }
            w.endArray()
        }
        #expect(output == #"[{"i":0,"s":[]},{"i":1,"s":[]},{"i":2,"s":[]}]"#)
    }

    @Test func splicesRawJSON() {
        let cached = JSONWriter.encode(["id": "a", "n": 1])
        let output = text { w in
            w.beginObject()
            w.key("entries")
            w.beginArray(); w.raw(cached); w.raw(cached); w.raw(Array("[]".utf8)); w.endArray()
            w.key("one"); w.raw(cached)
            w.key("count"); w.int(2)
            w.endObject()
        }
        #expect(output == #"{"entries":[{"id":"a","n":1},{"id":"a","n":1},[]],"one":{"id":"a","n":1},"count":2}"#)
    }

    @Test func continuesAfterExistingBytes() {
        var writer = JSONWriter(appendingTo: Array("data: ".utf8))
        writer.beginArray(); writer.int(1); writer.int(2); writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "data: [1,2]")
    }

    @Test func emptiedWriterWritesAgainFromTheStart() {
        var writer = JSONWriter(reservingCapacity: 4)
        writer.beginArray(); writer.int(1); writer.string("one"); writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[1,"one"]"#)
        writer.removeAll(); writer.null()
        // No comma carried over from before, and nothing of the old text left.
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "null")
        #expect(writer.count == 4)
    }

    @Test func growsFromASmallReservation() {
        // Past its first 16 bytes many times over, through every kind of token.
        var writer = JSONWriter(reservingCapacity: 1)
        writer.beginArray()
        for index in 0..<2_000 {
            writer.beginObject()
            writer.field("index"); writer.int(index)
            writer.key("name"); writer.string(String(repeating: "x", count: index % 40) + "\"")
            writer.field("half"); writer.number(Double(index) / 2)
            writer.endObject()
        }
        writer.endArray()
        let parsed = try? JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [[String: Any]]
        #expect(parsed?.count == 2_000)
        #expect(parsed?.last?["name"] as? String == String(repeating: "x", count: 1_999 % 40) + "\"")
        #expect(writer.bytes.count == writer.count)
    }

    @Test func encodesValuesWithSortedKeys() {
        let value: JSONValue = [
            "zeta": [3, "x", nil, true, ["b": 1, "a": 2]], "alpha": 1.5, "mid": [:], "Beta": [], "é": "ü",
        ]
        let output = String(decoding: JSONWriter.encode(value), as: UTF8.self)
        #expect(output == #"{"Beta":[],"alpha":1.5,"mid":{},"zeta":[3,"x",null,true,{"a":2,"b":1}],"é":"ü"}"#)
    }

    @Test func valueJoinsSurroundingHandWrittenOutput() {
        let output = text { w in
            w.beginArray(); w.value(["k": [1, 2]]); w.value(nil); w.value("s"); w.int(4); w.endArray()
        }
        #expect(output == #"[{"k":[1,2]},null,"s",4]"#)
    }

    @Test func equalValuesEncodeIdentically() {
        var members: [String: JSONValue] = [:]
        for index in 0..<50 { members["key\(index)"] = .number(Double(index)) }
        var reversed: [String: JSONValue] = [:]
        for index in (0..<50).reversed() { reversed["key\(index)"] = .number(Double(index)) }
        #expect(JSONWriter.encode(.object(members)) == JSONWriter.encode(.object(reversed)))
    }
}

@Test("field writes the same bytes as key for a name known when compiling")
func fieldMatchesKey() {
    var viaField = JSONWriter()
    viaField.beginObject()
    viaField.field("seq")
    viaField.int(1)
    viaField.field("kind")
    viaField.string("state")
    viaField.endObject()
    var viaKey = JSONWriter()
    viaKey.beginObject()
    viaKey.key("seq")
    viaKey.int(1)
    viaKey.key("kind")
    viaKey.string("state")
    viaKey.endObject()
    #expect(viaField.bytes == viaKey.bytes)
    #expect(String(decoding: viaField.bytes, as: UTF8.self) == #"{"seq":1,"kind":"state"}"#)
}
