import Foundation
import LifecycleCore
@testable import LifecycleJSON
@testable import LifecycleWire
import Testing

@testable import LifecycleServer

/// The fuzz harness's properties, replayed on every input of `Fuzz/corpus` (where a crash the fuzzer finds
/// is added once fixed), so they hold in the ordinary test run too.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/corpus").standardized

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()
    }

    @Test func theCorpusIsThere() {
        #expect(Self.inputs.count >= 20)
    }

    @Test(arguments: inputs)
    func everyInputRoundTripsAndDecodesToAnAnswer(name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
        if let value = try? JSONParser.parse(bytes) {
            let encoded = JSONWriter.encode(value)
            #expect(try JSONParser.parse(encoded) == value)
            #expect(JSONWriter.encode(try JSONParser.parse(encoded)) == encoded)
        }
        let answers = BodyDecoding.Kind.allCases.map { BodyDecoding.problem(decoding: bytes, as: $0) }
        if name.hasPrefix("json-bad") { #expect(answers.allSatisfy { $0 == "invalid-json" }) }
        if name.hasPrefix("event-") { #expect(answers[0] == nil, "\(answers[0] ?? "")") }
        if name == "device-full.json" { #expect(answers[2] == nil, "\(answers[2] ?? "")") }
        if name == "app-full.json" { #expect(answers[3] == nil, "\(answers[3] ?? "")") }
    }
}
