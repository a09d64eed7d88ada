import Foundation
import LifecycleCore
import Testing

/// The spec's lists of the selectors a delegate configuration may name are the daemon's own
/// (`Selector.configurable`, `Selector.returning`), in the same order.
@Suite struct SelectorListTests {
    static let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../api/openapi.yaml").standardized

    /// The `enum` of the schema `name` in the spec, read from its one-line flow list.
    static func specList(_ name: String) throws -> [String] {
        let text = try String(contentsOf: spec, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "    \(name):"[...]), "no schema \(name) in the spec")
        let line = try #require(
            lines[start...].dropFirst().prefix { $0.hasPrefix("      ") }.first { $0.hasPrefix("      enum: [") },
            "\(name) has no enum")
        return line.dropFirst("      enum: [".count).dropLast().split(separator: ",").map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: " '"))
        }
    }

    @Test func theSpecListsTheSelectorsTheDaemonKnows() throws {
        #expect(try Self.specList("DelegateSelector") == Selector.configurable)
        #expect(try Self.specList("ReturningSelector") == Selector.returning)
        #expect(Set(Selector.configurable).count == Selector.configurable.count)
    }
}
