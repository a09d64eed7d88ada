import Foundation
public import LifecycleCore
import LifecycleJSON
import LifecycleOpenAPI
import LifecycleWire

/// The events a client sends are the core's own `Event` values (the one description of each event): these
/// are the common ones with their defaults, `app.send(.launch, .homeButton)`.
extension Event {
    /// A launch into the foreground, without a URL.
    public static var launch: Event { .launch(background: false, url: nil, sourceApplication: nil) }
    /// A launch into the background (a background fetch, a location event, ...).
    public static var backgroundLaunch: Event { .launch(background: true, url: nil, sourceApplication: nil) }
    /// A launch (or a return to the front) to open `url`.
    public static func launch(url: String) -> Event { .launch(background: false, url: url, sourceApplication: nil) }
    /// The app is made active again (its scene, for a scene app).
    public static var activate: Event { .activate(session: nil) }
    /// The system prewarms the app (iOS 15 and later) as far as the observed rule goes for its life cycle.
    public static var prewarm: Event { .prewarm(stage: nil) }
    /// A push with content-available and no payload: a silent push, which the wake policy may refuse
    /// (docs/LIFECYCLE.md §6).
    public static var silentPush: Event { .remoteNotification(payload: nil, contentAvailable: true) }
    /// Low Power Mode turned on or off (a device setting the wake policy reads).
    public static func lowPowerMode(_ on: Bool) -> Event { .change(kind: .lowPowerMode, value: .bool(on)) }
    /// The device's Background App Refresh switch: `"on"`, `"off"` or `"restricted"`.
    public static func backgroundAppRefresh(_ setting: String) -> Event {
        .change(kind: .backgroundAppRefresh, value: .string(setting))
    }

    /// Events as the generated types of the API hold them (through their JSON: the API's encoder writes it,
    /// the generated decoder reads it).
    static func bodies<Body: Decodable>(_ events: [Event], as _: Body.Type) throws -> [Body] {
        let json = JSONWriter.encode(.array(events.map(EventEncoder.json)))
        return try JSONDecoder().decode([Body].self, from: Data(json))
    }
}
