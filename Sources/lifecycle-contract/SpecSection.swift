/// One generated section of the spec: its lines, already indented as the spec holds them, framed by the
/// markers `scripts/contract` finds them by.
struct SpecSection {
    let name: String
    let lines: [String]

    /// The section with its markers, at the indentation of its first line.
    var text: String {
        let indent = String(lines.first?.prefix { $0 == " " } ?? "")
        let framed =
            ["\(indent)# BEGIN GENERATED \(name) (scripts/contract generate)"] + lines
            + ["\(indent)# END GENERATED \(name)"]
        return framed.map { $0 + "\n" }.joined()
    }
}

/// Why the catalogue and the spec's notes on it make no schema.
struct ContractError: Error, CustomStringConvertible {
    let description: String
}

/// YAML scalars as the spec writes them: plain when that reads back as the same string, else single-quoted.
enum YAML {
    /// `text` as a scalar inside a flow collection (`{...}` or `[...]`), where `,[]{}` end a plain one.
    static func flow(_ text: String) -> String { scalar(text, flow: true) }

    /// `text` as a scalar of a block mapping.
    static func block(_ text: String) -> String { scalar(text, flow: false) }

    /// `values` as a flow sequence.
    static func list(_ values: [String]) -> String { "[" + values.map(flow).joined(separator: ", ") + "]" }

    /// A whole number when the value is one (`1000000000000`, not `1e+12`).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func scalar(_ text: String, flow: Bool) -> String {
        plain(text, flow: flow)
            ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
    }

    private static func plain(_ text: String, flow: Bool) -> Bool {
        guard let first = text.first, let last = text.last, first != " ", last != " ", last != ":" else { return false }
        if "-?:,[]{}#&*!|>'\"%@`".contains(first) { return false }
        if text.contains(": ") || text.contains(" #") || text.contains("\n") { return false }
        if flow && text.contains(where: { ",[]{}".contains($0) }) { return false }
        let lowered = text.lowercased()
        if ["true", "false", "null", "~", "yes", "no", "on", "off", "y", "n"].contains(lowered) { return false }
        if first.isNumber || ((first == "." || first == "+") && text.count > 1) { return false }
        return true
    }
}
