import Foundation

/// The OpenAPI document as this daemon serves it: `Resources/openapi.yaml`, compiled into the binary, with the
/// limits that the command line sets (`--max-wait`) written in, so a client generated from it asks for nothing
/// it refuses.
enum OpenAPIDocument {
    /// The line of the `Wait` parameter's schema ends with this marker; its `maximum` is the default.
    static let maxWaitMarker = "# --max-wait"

    static func load(maxWait: Double) -> [UInt8] {
        Array(withMaxWait(maxWait, in: String(decoding: PackageResources.openapi_yaml, as: UTF8.self)).utf8)
    }

    /// Replaces `maximum: N` on the marked line by the configured maximum.
    static func withMaxWait(_ maxWait: Double, in text: String) -> String {
        let value = maxWait == maxWait.rounded() ? String(Int(maxWait)) : String(maxWait)
        var lines = text.components(separatedBy: "\n")
        for index in lines.indices where lines[index].hasSuffix(maxWaitMarker) {
            guard let range = lines[index].range(of: #"maximum: [0-9.]+"#, options: .regularExpression) else {
                continue
            }
            lines[index].replaceSubrange(range, with: "maximum: \(value)")
        }
        return lines.joined(separator: "\n")
    }
}
