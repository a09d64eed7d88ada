import LifecycleCore
@testable import LifecycleJSON
import LifecycleTesting
@testable import LifecycleWire
import TestSupport
import Testing

@testable import LifecycleServer

@Suite struct JSONRoundTripTests {
    @Test(arguments: [
        #"{"background":false,"type":"launch"}"#,
        #"[1,-2.5,"x",null,true,false,{},[],{"a":{"b":[{"c":"\"\\\n\u0001é😀"}]}}]"#,
        #"{"id":"com.example.app","info":{"k":"v"},"launchedAt":1712345678.123,"pid":4321}"#,
        #"1e+20"#, #""""#, #"-0"#,
    ])
    func canonicalTextSurvivesParseThenWrite(text: String) throws {
        let value = try JSONParser.parse(text)
        let written = JSONWriter.encode(value)
        #expect(String(decoding: written, as: UTF8.self) == text)
    }

    @Test func randomValuesSurviveWriteThenParse() throws {
        var random = SplitMix64(seed: 20_240_601)
        for _ in 0..<4000 {
            let value = Self.randomValue(&random, depth: 0)
            let bytes = JSONWriter.encode(value)
            let parsed = try JSONParser.parse(bytes)
            #expect(parsed == value, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(JSONWriter.encode(parsed) == bytes)
        }
    }

    @Test func randomHandWrittenDocumentsMatchTheirValues() throws {
        var random = SplitMix64(seed: 77)
        for _ in 0..<500 {
            let value = Self.randomValue(&random, depth: 1)
            var writer = JSONWriter()
            writer.beginArray()
            writer.value(value)
            writer.raw(JSONWriter.encode(value))
            writer.beginObject()
            writer.key("v")
            writer.value(value)
            writer.endObject()
            writer.endArray()
            #expect(try JSONParser.parse(writer.bytes) == [value, value, ["v": value]])
        }
    }

    static func randomValue(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        let kind = depth >= 4 ? random.next() % 4 : random.next() % 6
        switch kind {
        case 0: return random.next() % 5 == 0 ? .null : .bool(random.next() % 2 == 0)
        case 1: return .number(randomNumber(&random))
        case 2, 3: return .string(randomString(&random))
        case 4:
            return .array((0..<Int(random.next() % 6)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 6) {
                members[randomString(&random)] = randomValue(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }

    static func randomNumber(_ random: inout SplitMix64) -> Double {
        switch random.next() % 5 {
        case 0: return Double(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        case 1: return Double(Int(random.next() % 20_001) - 10_000) / 100
        case 2: return Double.random(in: -1e6...1e6, using: &random)
        case 3:
            while true {  // any finite Double, including subnormals and huge magnitudes
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        default:
            return [0, -0.0, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0x1p53 + 2, 0.1][
                Int(random.next() % 7)]
        }
    }

    static func randomString(_ random: inout SplitMix64) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(random.next() % 12) {
            let roll = random.next() % 10
            let value: UInt32 =
                switch roll {
                case 0: UInt32(random.next() % 0x20)  // control characters
                case 1: [0x22, 0x5C, 0x2F, 0x7F][Int(random.next() % 4)]
                case 2: UInt32(0x80 + random.next() % 0x780)  // two-byte UTF-8
                case 3: UInt32(0x800 + random.next() % 0xD000)  // three-byte, below the surrogates
                case 4: UInt32(0x10000 + random.next() % 0x100000)  // four-byte
                default: UInt32(0x20 + random.next() % 0x5F)  // printable ASCII
                }
            scalars.append(Unicode.Scalar(value) ?? "?")
        }
        return String(scalars)
    }
}
