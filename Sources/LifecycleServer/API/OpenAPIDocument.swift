import Foundation

/// The OpenAPI document as this daemon serves it: `Resources/openapi.yaml`, compiled into the binary, with the
/// limits that the command line sets (`--max-wait`) written in, so a client generated from it asks for nothing
/// it refuses.
enum OpenAPIDocument {
    /// The line of the `Wait` parameter's schema ends with this marker; its `maximum` is the default.
    static let maxWaitMarker = "# --max-wait"

    static func load(maxWait: Double) -> [UInt8] {
        withMaxWait(maxWait, in: PackageResources.openapi_yaml)
    }

    /// Replaces `maximum: N` on each line that ends with the marker by the configured maximum. Byte by byte:
    /// read as characters, the document (over 100 KB) took most of an embedded daemon's start.
    static func withMaxWait(_ maxWait: Double, in document: [UInt8]) -> [UInt8] {
        let value = Array((maxWait == maxWait.rounded() ? String(Int(maxWait)) : String(maxWait)).utf8)
        let marker = Array(maxWaitMarker.utf8)
        let key = Array("maximum: ".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(document.count + value.count)
        var lineStart = 0
        while lineStart < document.count {
            let lineEnd = document[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? document.count
            let line = document[lineStart..<lineEnd]
            if line.count >= marker.count, line.suffix(marker.count).elementsEqual(marker),
                let number = numberAfter(key, in: line)
            {
                out += document[lineStart..<number.lowerBound]
                out += value
                out += document[number.upperBound..<lineEnd]
            } else {
                out += line
            }
            if lineEnd < document.count { out.append(UInt8(ascii: "\n")) }
            lineStart = lineEnd + 1
        }
        return out
    }

    /// The digits and dots right after the first `key` in `line`; nil when there are none.
    private static func numberAfter(_ key: [UInt8], in line: ArraySlice<UInt8>) -> Range<Int>? {
        var at = line.startIndex
        while at + key.count <= line.endIndex {
            if line[at..<at + key.count].elementsEqual(key) {
                var end = at + key.count
                while end < line.endIndex, line[end] == UInt8(ascii: ".") || (48...57).contains(line[end]) { end += 1 }
                return end > at + key.count ? (at + key.count)..<end : nil
            }
            at += 1
        }
        return nil
    }
}
