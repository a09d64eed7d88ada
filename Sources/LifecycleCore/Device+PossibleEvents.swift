/// Whether one event type would be accepted now, and, when it would not, why.
public struct EventPossibility: Equatable, Sendable {
    public let type: EventType
    /// Why the event type is refused now: the rejection of the first event of this type tried. Nil when one of
    /// them was accepted.
    public let rejection: Rejection?
    /// Whether an accepted event of this type changes something (an entry or a field a client sees); false
    /// when every one accepted would change nothing, as `terminate` for an app that is not running.
    public let changes: Bool

    public var isPossible: Bool { rejection == nil }
}

extension Device {
    /// Every event type of the catalogue (in its order) as the device would take it now when posted on app
    /// `app`'s path: each is applied to a copy of the device, nothing here changes, and the rules decide (none is
    /// restated here). An event type is possible when one of the events tried for it is accepted; it changes
    /// something when one of those accepted does.
    ///
    /// The events tried are the catalogue's defaults and examples, and for a required field without one, the
    /// values the device offers now (`candidateValues`): each choice, both flags, the device's other apps, the
    /// app's scene sessions and background tasks. Nil when the device has no app `app`.
    public func possibleEvents(for app: String) -> [EventPossibility]? {
        guard let instance = apps[app] else { return nil }
        return EventType.allCases.map { type in
            let description = type.details
            let choices = description.fields.map { candidateValues(for: $0, in: description, app: instance) }
            if let empty = choices.firstIndex(where: \.isEmpty) {
                let field = description.fields[empty]
                return EventPossibility(
                    type: type,
                    rejection: .invalidField(field.name, "\(type.name) needs \(field.summary), and there is none now"),
                    changes: false)
            }
            var first: Rejection?
            var accepted = false
            for values in Self.combinations(of: choices, limit: Self.maximumTries) {
                guard let event = try? description.make(values) else { continue }
                var copy = self
                do throws(Rejection) {
                    if try copy.apply([event], app: app, now: time).changed {
                        return EventPossibility(type: type, rejection: nil, changes: true)
                    }
                    accepted = true
                } catch {
                    if first == nil {
                        first = error
                        first?.index = nil
                    }
                }
            }
            if accepted { return EventPossibility(type: type, rejection: nil, changes: false) }
            return EventPossibility(
                type: type, rejection: first ?? .invalidField("type", "no \(type.name) event can be made here"),
                changes: false)
        }
    }

    /// The most events tried for one type (the product of its fields' candidates is cut there).
    static let maximumTries = 32

    /// The values tried for one field, in order: its default, or nothing when it is optional; otherwise the
    /// catalogue's example first, then what the field's kind and the device offer now.
    private func candidateValues(
        for field: EventField, in description: EventDescription, app: AppInstance
    ) -> [EventFieldValue?] {
        switch field.requirement {
        case .optional: return [nil]
        case .defaulted(let value): return [value]
        case .required: break
        }
        var values: [EventFieldValue] = []
        switch field.kind {
        case .text:
            if field.name == "identifier" {
                // A BGTaskScheduler identifier (§15): the app's requests and tasks now.
                values += app.scheduledTaskIdentifiers.map(EventFieldValue.string)
            }
            if case .string(let example)? = description.example[field.name] { values.append(.string(example)) }
            values += field.suggestions.map(EventFieldValue.string)
        case .identifier(.app):
            // The app whose task runs is this one; the app to switch to is another.
            if description.type == .launchTask { values.append(.string(app.id)) }
            values += appOrder.filter { $0 != app.id }.map(EventFieldValue.string)
        case .identifier(.session):
            values += app.sessions.map { .string($0.id) }
        case .identifier(.transfer):
            values += app.backgroundTransfers.filter { $0.outcome == nil }.map { .string($0.name) }
        case .flag:
            values += [.bool(false), .bool(true)]
        case .number(let range):
            if case .number(let example)? = description.example[field.name] { values.append(.number(example)) }
            values.append(.number(range.lowerBound))
        case .wholeNumber:
            // The one whole-number field is a task id (endBackgroundTask's): the app's tasks now.
            values += app.backgroundTasks.map { .integer($0.id) }
        case .choice(let options):
            values += options.map(EventFieldValue.string)
        case .json:
            values.append(.json(description.example[field.name] ?? .null))
        }
        return values
    }

    /// The fields' values for each event tried: every combination of the candidates, the first field's
    /// varying slowest, at most `limit` of them.
    private static func combinations(of choices: [[EventFieldValue?]], limit: Int) -> [EventFieldValues] {
        var result = [EventFieldValues()]
        for (index, values) in choices.enumerated() {
            var next: [EventFieldValues] = []
            for partial in result {
                for value in values where next.count < limit {
                    var extended = partial
                    extended[index] = value
                    next.append(extended)
                }
            }
            result = next
        }
        return result
    }
}
