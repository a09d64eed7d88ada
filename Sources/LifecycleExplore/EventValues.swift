import LifecycleCore

/// Values for an event's fields, drawn at random from what each field's kind in the catalogue takes and what the
/// device offers now: a new field of the catalogue joins the walks with no edit here.
struct EventValues {
    /// The times a number field tries first: around the background budgets and the watchdogs' limits.
    static let numbers: [Double] = [0, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 170, 180, 190, 590, 600, 610, 3600, 86_400]

    static func draw(
        for description: EventDescription, on device: Device, app: AppInstance, using random: inout SplitMix64
    ) -> EventFieldValues {
        var values = EventFieldValues()
        for (index, field) in description.fields.enumerated() {
            switch field.requirement {
            case .optional:
                if random.chance(40) { continue }
            case .defaulted(let value):
                if random.chance(50) {
                    values[index] = value
                    continue
                }
            case .required:
                break
            }
            values[index] = value(of: field, in: description, on: device, app: app, using: &random)
        }
        return values
    }

    private static func value(
        of field: EventField, in description: EventDescription, on device: Device, app: AppInstance,
        using random: inout SplitMix64
    ) -> EventFieldValue? {
        let example = description.example[field.name]
        switch field.kind {
        case .text:
            var texts = field.suggestions
            if case .string(let text)? = example { texts.append(text) }
            texts += ["\(app.id)://open", "com.example.other"]
            // A BGTaskScheduler identifier (§15): the app's requests and tasks now, as often as anything else.
            if field.name == "identifier" { texts += app.scheduledTaskIdentifiers + app.scheduledTaskIdentifiers }
            return .string(random.pick(texts))
        case .identifier(.app):
            return device.appOrder.isEmpty ? nil : .string(random.pick(device.appOrder))
        case .identifier(.session):
            let sessions = app.sessions.map(\.id)
            return sessions.isEmpty ? nil : .string(random.pick(sessions))
        case .identifier(.transfer):
            let transfers = app.backgroundTransfers.filter { $0.outcome == nil }.map(\.name)
            return transfers.isEmpty ? nil : .string(random.pick(transfers))
        case .flag:
            return .bool(random.chance(50))
        case .number(let range):
            var numbers = Self.numbers.filter(range.contains)
            if case .number(let number)? = example { numbers.append(number) }
            return numbers.isEmpty ? .number(range.lowerBound) : .number(random.pick(numbers))
        case .wholeNumber(let range):
            let tasks = app.backgroundTasks.map(\.id)
            return .integer(tasks.isEmpty ? range.lowerBound : random.pick(tasks))
        case .choice(let options):
            return options.isEmpty ? nil : .string(random.pick(options))
        case .json:
            return .json(random.pick([example ?? .null, .null, .object(["k": .number(1)])]))
        }
    }

    /// Simpler values for the event's fields, simplest first, one field changed at a time: an optional field
    /// left out, a defaulted one at its default, a number at its range's least value or halved, a flag false,
    /// an earlier choice. What shrinking tries.
    static func simpler(_ event: Event) -> [Event] {
        let description = event.eventType.details
        let values = event.fieldValues
        var found: [Event] = []
        for (index, field) in description.fields.enumerated() {
            guard let current = values[index] else { continue }
            var candidates: [EventFieldValue?] = []
            switch field.requirement {
            case .optional: candidates.append(nil)
            case .defaulted(let value): candidates.append(value)
            case .required: break
            }
            switch (field.kind, current) {
            case (.number(let range), .number(let number)):
                // The least value, then closer and closer below the value (a bisection), then whole numbers.
                var numbers = [range.lowerBound]
                var step = (number - range.lowerBound) / 2
                while step >= 1 {
                    numbers.append((number - step).rounded(.down))
                    step /= 2
                }
                numbers += [number.rounded(.down), number - 1]
                candidates += numbers.filter { range.contains($0) && $0 < number }.map(EventFieldValue.number)
            case (.flag, .bool(true)):
                candidates.append(.bool(false))
            case (.choice(let options), .string(let text)) where field.requirement != .defaulted(current):
                candidates += options.prefix { $0 != text }.map(EventFieldValue.string)
            default:
                break
            }
            for candidate in candidates where candidate != current {
                var changed = values
                changed[index] = candidate
                if let simpler = try? description.make(changed), simpler != event, !found.contains(simpler) {
                    found.append(simpler)
                }
            }
        }
        return found
    }
}
