import Foundation

/// Defaults read from `LIFECYCLED_*` variables.
enum Environment {
    static func string(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    static func int(_ name: String) -> Int? { string(name).flatMap { Int($0) } }

    /// A comma-separated list; empty when unset.
    static func list(_ name: String) -> [String] {
        (string(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }

    static func double(_ name: String) -> Double? { string(name).flatMap { Double($0) } }

    static func bool(_ name: String) -> Bool? {
        string(name).map { ["1", "true", "yes", "on"].contains($0.lowercased()) }
    }
}
