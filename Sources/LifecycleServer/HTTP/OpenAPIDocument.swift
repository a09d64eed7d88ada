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

    /// Replaces `maximum: N` on each line that ends with the marker by the configured maximum; the document is
    /// not copied when it already says so. Its lines are found with `memchr`: read as characters, the document
    /// (over 100 KB) took 98 % of an embedded daemon's start, and byte by byte in Swift still 84 %.
    static func withMaxWait(_ maxWait: Double, in document: [UInt8]) -> [UInt8] {
        let value = Array((maxWait == maxWait.rounded() ? String(Int(maxWait)) : String(maxWait)).utf8)
        let marker = Array(maxWaitMarker.utf8)
        let key = Array("maximum: ".utf8)
        // The numbers to replace, as ranges of the document, in order.
        var numbers: [Range<Int>] = []
        document.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd: Int
                if let newline = memchr(base + lineStart, 0x0A, bytes.count - lineStart) {
                    lineEnd = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
                } else {
                    lineEnd = bytes.count
                }
                if lineEnd - lineStart >= marker.count,
                    bytes[(lineEnd - marker.count)..<lineEnd].elementsEqual(marker),
                    let number = numberAfter(key, in: bytes, from: lineStart, to: lineEnd),
                    !bytes[number].elementsEqual(value)
                {
                    numbers.append(number)
                }
                lineStart = lineEnd + 1
            }
        }
        guard !numbers.isEmpty else { return document }
        var out = document
        for number in numbers.reversed() { out.replaceSubrange(number, with: value) }
        return out
    }

    /// The digits and dots right after the first `key` in `bytes[from..<to]`; nil when there are none.
    private static func numberAfter(
        _ key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int
    ) -> Range<Int>? {
        var at = from
        while at + key.count <= to {
            if bytes[at..<(at + key.count)].elementsEqual(key) {
                var end = at + key.count
                while end < to, bytes[end] == UInt8(ascii: ".") || (48...57).contains(bytes[end]) { end += 1 }
                return end > at + key.count ? (at + key.count)..<end : nil
            }
            at += 1
        }
        return nil
    }
}
