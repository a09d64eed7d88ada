import Foundation
@testable import LifecycleWire
import Testing

@testable import LifecycleServer

/// `ProblemCode` is the one list of problem codes; `api/openapi.yaml` must agree with it: its `Problem.code`
/// enum lists exactly these codes, and every problem example (written on one line,
/// `{type: 'https://lifecycled.dev/problems/CODE', title: ..., status: N, ..., code: CODE, ...}`) has its
/// code's type, title and status. Every code has an example.
@Suite struct ProblemCatalogueTests {
    static let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/LifecycleServer/Resources/openapi.yaml")

    static func specLines() throws -> [Substring] {
        try String(contentsOf: spec, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func theSpecsProblemCodeEnumIsTheCatalogue() throws {
        let lines = try Self.specLines()
        let problem = try #require(lines.firstIndex(of: "    Problem:"))
        let code = try #require(lines[problem...].firstIndex(of: "        code:"))
        let enumLine = try #require(
            lines[code...].first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("enum: [") })
        let listed = enumLine.split(separator: "[")[1].split(separator: "]")[0]
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(listed == ProblemCode.allCases.map(\.rawValue))
    }

    @Test func everyProblemExampleAgreesWithTheCatalogue() throws {
        var exampled: Set<String> = []
        for line in try Self.specLines() where line.contains("type: 'https://lifecycled.dev/problems/") {
            let text = String(line)
            let type = try #require(
                capture(#"type: '(https://lifecycled\.dev/problems/[a-z-]+)'"#, in: text), "\(text)")
            let title = try #require(capture(#"title: ([^,]+),"#, in: text), "\(text)")
            let status = try #require(capture(#"status: (\d+)"#, in: text).flatMap { Int($0) }, "\(text)")
            let name = try #require(capture(#"code: ([a-z-]+)"#, in: text), "\(text)")
            let code = try #require(ProblemCode(rawValue: name), "\(name) is not in ProblemCode")
            #expect(type == code.typeURI, "\(text)")
            #expect(title == code.title, "\(text)")
            #expect(status == code.status, "\(text)")
            exampled.insert(name)
        }
        #expect(Set(ProblemCode.allCases.map(\.rawValue)).subtracting(exampled).isEmpty, "codes without an example")
    }

    private func capture(_ pattern: String, in text: String) -> String? {
        guard let match = text.range(of: pattern, options: .regularExpression) else { return nil }
        let found = String(text[match])
        let regex = try? NSRegularExpression(pattern: pattern)
        guard let result = regex?.firstMatch(in: found, range: NSRange(found.startIndex..., in: found)),
            let range = Range(result.range(at: 1), in: found)
        else { return nil }
        return String(found[range])
    }
}
