package import LifecycleCore

/// Draws the steps of seeded random walks: at each step an app of a device, one of the event types the core
/// would take there now (`Device.possibleEvents(for:)`: every type of the catalogue, the rules deciding), and
/// values for its fields (`EventValues`). The same seed gives the same steps.
package struct Walker: Sendable {
    package var random: SplitMix64
    /// Events drawn that the core refused (their values did not fit the state); none of them is in a walk.
    package var refused = 0

    /// Tries per step: a type the core takes with some values may refuse the values drawn.
    static let tries = 4
    /// Draws in a row that apply nothing after which a walk ends (a state where the core takes nothing drawn).
    package static let stuck = 16

    package init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// The seed of walk `walk` of a run seeded `seed`: each walk can be run again alone.
    package static func seed(of walk: Int, in seed: UInt64) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(walk) &* 0xD6E8_FEB8_6659_FD93))
        return mixer.next()
    }

    /// Draws one step and applies it to `state`; nil when no event could be applied (state unchanged).
    package mutating func step(_ state: inout WorldState) -> WalkStep? {
        let withApps = state.devices.indices.filter { !state.devices[$0].appOrder.isEmpty }
        guard !withApps.isEmpty else { return nil }
        let at = random.pick(withApps)
        let device = state.devices[at]
        let id = random.pick(device.appOrder)
        guard let app = device.app(id), let possible = device.possibleEvents(for: id) else { return nil }
        let types = possible.filter { $0.isPossible && $0.changes }.map(\.type)
        guard !types.isEmpty else { return nil }
        for _ in 0..<Self.tries {
            let description = random.pick(types).details
            let values = EventValues.draw(for: description, on: device, app: app, using: &random)
            guard let event = try? description.make(values) else { continue }
            let step = WalkStep(device: at, app: event.isDeviceEvent ? nil : id, event: event)
            if state.apply(step) { return step }
            refused += 1
        }
        return nil
    }
}
