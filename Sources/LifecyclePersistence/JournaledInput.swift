import Foundation
package import LifecycleCore
import LifecycleJSON

/// One accepted input as it is journaled: enough, with the deterministic core, to rebuild everything.
///
/// Records hold the core's own values (configurations, `Event`s), never the API's request JSON, so a
/// change to what the API accepts cannot make a journaled record unreadable. The format is versioned
/// (`JournalRecordFormat`); every earlier version still decodes.
package enum JournaledInput: Equatable, Codable {
    /// The device was created at wall-clock `wall` (the anchor of a realtime clock).
    case device(configuration: DeviceConfiguration, wall: Double)
    case app(id: String, configuration: AppConfiguration)
    case deleteApp(id: String)
    /// A batch of events, with the device time it was applied at and its idempotency key.
    case events(app: String?, now: Double, events: [Event], key: String?, fingerprint: UInt64?)
    /// A realtime clock fired deadlines up to `now`.
    case advance(now: Double)
    /// An input (`events` or `advance`) whose callbacks live delegates answered, with their answers in the
    /// order asked: it replays with `RecordedAnswers` of them (LIFECYCLE §13). Inputs no live delegate
    /// answered are journaled as they always were.
    indirect case answered(input: JournaledInput, answers: [CallbackAnswer])

    /// The record in the current format.
    package var bytes: [UInt8] { JournalRecordFormat.encode(self) }

    /// Decodes a record of any version.
    package init(bytes: [UInt8]) throws {
        self = try JournalRecordFormat.decode(bytes)
    }
}

/// The versions of the journal's record format.
///
/// - Version 1 (the first release): the API's request JSON, `{"op": ..., "config" | "events": <as posted>,
///   "now", "wall", "key", "fp"}`, read with the API's decoders as they were then (`JournalRecordVersion1`);
///   its idempotency keys are scoped to the request's path (`PathScopedKey`).
/// - Version 2: `{"v":2,"entry":<JournaledInput as Codable JSON>}`: the core's values. An `Event` case added
///   later is one more Codable case: no new version is needed for it.
package enum JournalRecordFormat {
    package static let current = 2
    private static let prefix = Array(#"{"v":2,"entry":"#.utf8)

    /// Why a record cannot be read: a version newer than this build knows.
    package struct UnknownVersion: Error, CustomStringConvertible {
        package var version: String
        package var description: String {
            "a journal record has format version \(version), newer than this build reads"
        }
    }

    package static func encode(_ entry: JournaledInput) -> [UInt8] {
        if let record = JournalRecordWriter.record(entry, prefix: prefix) { return record }
        return encodedWithCodable(entry)
    }

    /// The record as `JSONEncoder` writes it: every kind of entry (events and advances are written by hand).
    package static func encodedWithCodable(_ entry: JournaledInput) -> [UInt8] {
        // Every number in an entry is finite (the API range-checks them; the core keeps its clock finite),
        // so encoding cannot fail.
        let body = try! encoder.encode(entry)
        return prefix + Array(body) + [UInt8(ascii: "}")]
    }

    package static func decode(_ bytes: [UInt8]) throws -> JournaledInput {
        if bytes.starts(with: prefix), bytes.last == UInt8(ascii: "}") {
            let entry = try JSONDecoder().decode(
                JournaledInput.self, from: Data(bytes[prefix.count..<(bytes.count - 1)]))
            return entry.withKeysUnscoped
        }
        let value = try JSONParser.parse(bytes)
        if let version = value["v"] { throw UnknownVersion(version: "\(version)") }
        return try JournalRecordVersion1.entry(value)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension JournaledInput {
    /// The entry with its idempotency key as the client sent it: builds before keys were the app's wrote version 2
    /// records with the key scoped to its request's path too (`PathScopedKey`).
    fileprivate var withKeysUnscoped: JournaledInput {
        switch self {
        case .events(let app, let now, let events, let key?, let fingerprint) where key.contains("\n"):
            .events(app: app, now: now, events: events, key: PathScopedKey.split(key).key, fingerprint: fingerprint)
        case .answered(let input, let answers):
            .answered(input: input.withKeysUnscoped, answers: answers)
        default:
            self
        }
    }
}
