import LifecycleCore

/// The spec's event schemas, made from the catalogue of events: one schema per event type, or per group of
/// types that share every field (`EventSchemaNotes.groups`), in the catalogue's order, app and scene events
/// first; then `Event` and `DeviceEvent`, which tell them apart by `type`. What the catalogue does not say (the
/// spec's prose, a pattern a field must match) comes from `EventSchemaNotes`.
enum EventSchemas {
    /// One schema and the event types it takes.
    struct Schema {
        let name: String
        var types: [EventType]
        var first: EventDescription { types[0].details }
        var isDevice: Bool { first.isDeviceEvent }
    }

    static func sections() throws(ContractError) -> [SpecSection] {
        let schemas = try grouped()
        try checkNotes(against: schemas)
        var lines: [String] = []
        var previous: Bool?
        for schema in schemas {
            if previous != schema.isDevice {
                if previous != nil { lines.append("") }
                lines.append(schema.isDevice ? "    # device-level events" : "    # app-level events")
                previous = schema.isDevice
            }
            lines += try render(schema)
        }
        return [
            SpecSection(name: "event-unions", lines: unions(schemas)), SpecSection(name: "event-schemas", lines: lines),
        ]
    }

    /// The schemas, app events' first, each where its first type stands in the catalogue.
    static func grouped() throws(ContractError) -> [Schema] {
        var schemas: [Schema] = []
        for type in EventType.allCases {
            let name = EventSchemaNotes.groups.first { $0.types.contains(type) }?.name ?? defaultName(type)
            if let index = schemas.firstIndex(where: { $0.name == name }) {
                schemas[index].types.append(type)
            } else {
                schemas.append(Schema(name: name, types: [type]))
            }
        }
        for schema in schemas {
            for type in schema.types.dropFirst() where !sameShape(type.details, schema.first) {
                throw ContractError(
                    description: "\(type.name) and \(schema.first.name) share the schema \(schema.name) but not their "
                        + "fields or scope: give one of them a schema of its own (EventSchemaNotes.groups)")
            }
        }
        return schemas.filter { !$0.isDevice } + schemas.filter(\.isDevice)
    }

    /// `launch` → `LaunchEvent`.
    static func defaultName(_ type: EventType) -> String {
        type.name.prefix(1).uppercased() + type.name.dropFirst() + "Event"
    }

    private static func sameShape(_ a: EventDescription, _ b: EventDescription) -> Bool {
        a.isDeviceEvent == b.isDeviceEvent && a.fields.count == b.fields.count
            && zip(a.fields, b.fields).allSatisfy {
                $0.name == $1.name && $0.kind == $1.kind && $0.requirement == $1.requirement
            }
    }

    /// Notes about a schema, a field or a group the catalogue does not have are stale: refused.
    private static func checkNotes(against schemas: [Schema]) throws(ContractError) {
        let names = Set(schemas.map(\.name))
        for group in EventSchemaNotes.groups where group.types.count < 2 {
            throw ContractError(description: "the group \(group.name) has fewer than two event types")
        }
        for (name, notes) in EventSchemaNotes.schemas {
            guard let schema = schemas.first(where: { $0.name == name }) else {
                throw ContractError(
                    description: "EventSchemaNotes describes \(name), which no event type makes; known: "
                        + names.sorted().joined(separator: ", "))
            }
            for field in notes.fields.keys where !schema.first.fieldNames.contains(field) {
                throw ContractError(
                    description: "EventSchemaNotes describes \(name).\(field), which the catalogue lacks")
            }
        }
    }

    private static func unions(_ schemas: [Schema]) -> [String] {
        func union(_ name: String, _ description: String, _ members: [Schema]) -> [String] {
            ["    \(name):", "      description: \(YAML.block(description))", "      oneOf:"]
                + members.map { "        - {$ref: \(YAML.flow(reference($0.name)))}" }
                + ["      discriminator:", "        propertyName: type", "        mapping:"]
                + EventType.allCases.compactMap { type in
                    guard let schema = members.first(where: { $0.types.contains(type) }) else { return nil }
                    return "          \(type.name): \(YAML.flow(reference(schema.name)))"
                }
        }
        return union("Event", "An app-level or device-level event, told apart by `type`.", schemas)
            + union("DeviceEvent", "A device-level event, told apart by `type`.", schemas.filter(\.isDevice))
    }

    static func reference(_ schema: String) -> String { "#/components/schemas/\(schema)" }

    private static func render(_ schema: Schema) throws(ContractError) -> [String] {
        let notes = EventSchemaNotes.schemas[schema.name] ?? SchemaNotes()
        let event = schema.first
        let required = ["type"] + event.fields.filter { $0.requirement == .required }.map(\.name)
        var lines = [
            "    \(schema.name):", "      type: object", "      additionalProperties: false",
            "      required: \(YAML.list(required))",
        ]
        let description =
            notes.description
            ?? (schema.types.count == 1
                ? event.summary + "."
                : schema.types.map { "- `\($0.name)`: \($0.details.summary)." }.joined(separator: "\n"))
        if description.contains("\n") {
            lines.append("      description: |")
            lines += description.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : "        " + $0
            }
        } else {
            lines.append("      description: \(YAML.block(description))")
        }
        lines.append("      properties:")
        lines.append(
            schema.types.count == 1
                ? "        type: {const: \(YAML.flow(event.name))}"
                : "        type: {type: string, enum: \(YAML.list(schema.types.map(\.name)))}")
        for field in event.fields {
            let members = try self.members(of: field, notes: notes.fields[field.name] ?? FieldNotes(), in: schema)
            lines.append("        \(field.name): {\(members.joined(separator: ", "))}")
        }
        return lines + notes.trailer.map { "      " + $0 }
    }

    /// A field's schema, as the members of a flow mapping.
    private static func members(of field: EventField, notes: FieldNotes, in schema: Schema) throws(ContractError)
        -> [String]
    {
        var members: [String] = []
        var named = notes.schema
        switch field.kind {
        case .identifier(.session): named = named ?? "SessionId"
        case .identifier(.app), .identifier(.transfer): named = named ?? "Id"
        case .choice(let options): named = named ?? NamedEnums.named(options)
        default: break
        }
        if let named {
            if let values = NamedEnums.values(of: named) {
                let allowed: [String]
                switch field.kind {
                case .choice(let options): allowed = options
                case .text: allowed = field.suggestions
                default: allowed = []
                }
                guard Set(values) == Set(allowed) else {
                    throw ContractError(
                        description: "\(schema.name).\(field.name) refers to \(named), whose values \(values) "
                            + "are not the field's \(allowed)")
                }
            }
            members.append("$ref: \(YAML.flow(reference(named)))")
        } else {
            switch field.kind {
            case .text, .identifier: members.append("type: string")
            case .flag: members.append("type: boolean")
            case .number(let range):
                members += [
                    "type: number", "minimum: \(YAML.number(range.lowerBound))",
                    "maximum: \(YAML.number(range.upperBound))",
                ]
            case .wholeNumber(let range):
                members += ["type: integer", "minimum: \(range.lowerBound)", "maximum: \(range.upperBound)"]
            case .choice(let options): members += ["type: string", "enum: \(YAML.list(options))"]
            case .json: break
            }
        }
        members += notes.constraints
        if case .defaulted(let value) = field.requirement {
            guard let value = render(value) else {
                throw ContractError(description: "\(schema.name).\(field.name): a JSON default has no YAML form here")
            }
            members.append("default: \(value)")
        }
        members.append("description: \(YAML.flow(notes.description ?? sentence(field.summary)))")
        if !notes.examples.isEmpty { members.append("examples: \(YAML.list(notes.examples))") }
        return members
    }

    private static func render(_ value: EventFieldValue) -> String? {
        switch value {
        case .string(let text): YAML.flow(text)
        case .bool(let flag): String(flag)
        case .number(let number): YAML.number(number)
        case .integer(let integer): String(integer)
        case .json: nil
        }
    }

    /// The catalogue's few words, as the spec's descriptions read: capitalised, with a full stop.
    private static func sentence(_ summary: String) -> String {
        summary.prefix(1).uppercased() + summary.dropFirst() + (summary.hasSuffix(".") ? "" : ".")
    }
}
