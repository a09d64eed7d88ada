import Foundation
import LifecycleJSON
import Logging

/// `--log-format json`: one JSON object per line on standard error. Fixed fields first: `time` (UTC, ISO 8601
/// with milliseconds), `level`, `label`, `source` (the module that logged) and `message`; then each metadata
/// key as a field of its own (a key that names a fixed field is written `metadata.<key>`): a number given as one
/// (`.stringConvertible(count)`) as a JSON number, anything else as text.
struct JSONLogHandler: LogHandler {
    static let fixedFields: Set<String> = ["time", "level", "label", "source", "message"]

    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let more = event.metadata { merged.merge(more) { $1 } }
        var json = JSONWriter(reservingCapacity: 256)
        json.beginObject()
        json.key("time")
        json.string(Self.timestamp())
        json.key("level")
        json.string(event.level.rawValue)
        json.key("label")
        json.string(label)
        json.key("source")
        json.string(event.source)
        json.key("message")
        json.string(event.message.description)
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            json.key(Self.fixedFields.contains(key) ? "metadata." + key : key)
            Self.add(value, to: &json)
        }
        json.endObject()
        var line = json.bytes
        line.append(UInt8(ascii: "\n"))
        // One write per line, so lines from several threads never interleave.
        line.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    private static func add(_ value: Logger.Metadata.Value, to json: inout JSONWriter) {
        guard case .stringConvertible(let number) = value else { return json.string(text(value)) }
        switch number {
        case let integer as Int: json.int(integer)
        case let integer as UInt64: json.unsigned(integer)
        case let integer as any BinaryInteger: json.raw(Array(integer.description.utf8))
        case let real as Double where real.isFinite: json.number(real)
        default: json.string(number.description)
        }
    }

    private static func text(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        default: value.description
        }
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, now.tv_nsec / 1_000_000)
    }
}
