import Foundation
import LifecycleCore
@testable import LifecycleJSON
import LifecycleTesting
@testable import LifecycleWire
import Testing

@testable import LifecycleServer

/// `GET /v1/event-types`: the catalogue as clients and the dashboard read it, and what it promises the decoder
/// accepts.
@Suite struct EventTypesTests {
    @Test func theCatalogueListsEveryEventTypeWithItsScopeAndFieldsAndAnswers304ToItsETag() throws {
        try withDaemon { server in
            let reply = try server.get("/v1/event-types")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            let entries = try #require(reply.object["eventTypes"] as? [[String: Any]])
            #expect(entries.compactMap { $0["type"] as? String } == EventType.allCases.map(\.name))
            let devices = entries.filter { $0["scope"] as? String == "device" }.compactMap { $0["type"] as? String }
            #expect(Set(devices) == Set(Event.deviceTypes))
            let launch = try #require(entries.first { $0["type"] as? String == "launch" })
            let background = try #require((launch["fields"] as? [[String: Any]])?.first)
            #expect(background["name"] as? String == "background")
            #expect(background["kind"] as? String == "flag")
            #expect(background["required"] as? Bool == false)
            #expect(background["default"] as? Bool == false)
            let advance = try #require(entries.first { $0["type"] as? String == "advanceTime" })
            let seconds = try #require((advance["fields"] as? [[String: Any]])?.first)
            #expect(seconds["required"] as? Bool == true)
            #expect(seconds["minimum"] as? Double == 0)
            #expect(seconds["maximum"] as? Double == Device.maximumTime)

            let tag = try #require(reply.header("ETag"))
            let again = try server.get("/v1/event-types", headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
        }
    }

    /// For every type: an event built from the catalogue's JSON alone (its example, then a value of each
    /// required field's kind) decodes to that type, and a body without a required field names that field.
    @Test func anEventBuiltFromTheCatalogueAloneDecodesAndAMissingRequiredFieldIsNamed() throws {
        guard case .object(let catalogue) = try JSONParser.parse(EventCatalogueEncoder.body),
            case .array(let entries)? = catalogue["eventTypes"]
        else {
            Issue.record("the catalogue is not an object with eventTypes")
            return
        }
        #expect(entries.count == EventType.allCases.count)
        for case .object(let entry) in entries {
            guard case .string(let type)? = entry["type"], case .array(let fields)? = entry["fields"] else {
                Issue.record("an entry without type or fields: \(entry)")
                continue
            }
            var body: [String: JSONValue] = ["type": .string(type)]
            if case .object(let example)? = entry["example"] { body.merge(example) { $1 } }
            var required: [String] = []
            for case .object(let field) in fields {
                guard case .string(let name)? = field["name"], field["required"] == .bool(true) else { continue }
                required.append(name)
                if body[name] == nil { body[name] = Self.sample(field) }
            }
            let event = try EventDecoder.decodeOne(.object(body), deviceOnly: false)
            #expect(event.type == type)
            for name in required {
                var without = body
                without[name] = nil
                #expect {
                    _ = try EventDecoder.decodeOne(.object(without), deviceOnly: false)
                } throws: { error in
                    (error as? APIError)?.extra["field"] == .string(name)
                }
            }
        }
    }

    /// A value of the field's kind, read from the catalogue's JSON: its lowest number, its first option, ...
    private static func sample(_ field: [String: JSONValue]) -> JSONValue {
        switch field["kind"] {
        case .string("flag"): return true
        case .string("number"), .string("wholeNumber"): return field["minimum"] ?? 0
        case .string("choice"):
            if case .array(let options)? = field["options"], let first = options.first { return first }
            return "?"
        case .string("json"): return .null
        default: return "a1"
        }
    }
}
