import Foundation
public import LifecycleCore

/// The outcome of one scenario.
public struct ScenarioResult: Sendable {
    public var scenario: Scenario
    public var seconds: Double
    public var failure: Mismatch?

    public init(scenario: Scenario, seconds: Double, failure: Mismatch?) {
        self.scenario = scenario
        self.seconds = seconds
        self.failure = failure
    }
}

/// What `lifecycled check` prints and writes.
public enum ScenarioReport {
    /// `PASS file: name (seconds)`, or `FAIL file: name`, why, and for two lists that differ both side by side
    /// with the first difference marked.
    public static func line(_ result: ScenarioResult) -> String {
        let file = result.scenario.file.split(separator: "/").last.map(String.init) ?? result.scenario.file
        guard let failure = result.failure else {
            return "PASS \(file): \(result.scenario.name) (\(String(format: "%.2f", result.seconds))s)"
        }
        var text = "FAIL \(file): \(result.scenario.name)\n     \(failure.description)"
        if let lists = failure.lists { text += "\n" + sideBySide(lists.expected, lists.actual, marking: lists.index) }
        return text
    }

    /// Two columns, expected and actual, one item a row, `>` at the first row that differs.
    public static func sideBySide(_ expected: [JSONValue], _ actual: [JSONValue], marking index: Int) -> String {
        columns(["expected", "actual"], [expected, actual], marking: index)
    }

    /// Lists side by side under their headers, one item a row, `>` at row `index`.
    public static func columns(_ headers: [String], _ lists: [[JSONValue]], marking index: Int?) -> String {
        func cell(_ items: [JSONValue], _ row: Int) -> String {
            guard row < items.count else { return "" }
            if let text = items[row].stringValue { return text }
            return Pattern.text(items[row], limit: 60)
        }
        let rows = lists.map(\.count).max() ?? 0
        let widths = zip(headers, lists).map { header, items in
            max(header.count, (0..<rows).map { cell(items, $0).count }.max() ?? 0)
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, text in
                column == cells.count - 1
                    ? text : text + String(repeating: " ", count: max(0, widths[column] - text.count))
            }.joined(separator: "  ")
        }
        var lines = ["       " + line(headers)]
        for row in 0..<rows {
            let mark = row == index ? ">" : " "
            lines.append("     \(mark) " + line(lists.map { cell($0, row) }))
        }
        return lines.joined(separator: "\n")
    }

    /// The first row at which lists differ (one has an item another has not, or a different one); nil when they
    /// are the same.
    public static func firstDifference(_ lists: [[JSONValue]]) -> Int? {
        let rows = lists.map(\.count).max() ?? 0
        return (0..<rows).first { row in Set(lists.map { row < $0.count ? $0[row] : nil }).count > 1 }
    }

    /// JUnit XML: one `testsuite`, a `testcase` per scenario (its file as the class name), a `failure` with the
    /// mismatch where there is one.
    public static func junit(_ results: [ScenarioResult], suite: String = "lifecycled check") -> String {
        let failures = results.filter { $0.failure != nil }.count
        let total = results.reduce(0) { $0 + $1.seconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuite name="\#(escaped(suite))" tests="\#(results.count)" failures="\#(failures)" time="\#(String(format: "%.3f", total))">"#
            + "\n"
        for result in results {
            let attributes =
                #"classname="\#(escaped(result.scenario.file))" name="\#(escaped(result.scenario.name))" time="\#(String(format: "%.3f", result.seconds))""#
            if let failure = result.failure {
                var detail = failure.description
                if let lists = failure.lists {
                    detail += "\n" + sideBySide(lists.expected, lists.actual, marking: lists.index)
                }
                xml += "  <testcase \(attributes)>\n"
                xml += #"    <failure message="\#(escaped(failure.description))">\#(escaped(detail))</failure>"# + "\n"
                xml += "  </testcase>\n"
            } else {
                xml += "  <testcase \(attributes)/>\n"
            }
        }
        return xml + "</testsuite>\n"
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            // XML 1.0 has no other control characters.
            case _ where scalar.value < 0x20: out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
