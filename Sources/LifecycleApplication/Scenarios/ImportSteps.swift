import LifecycleCore
import LifecycleJSON
import Locking

/// What an import's step may do with the operation it names, declared with each route (`Operation.importUse`);
/// nil: an import may not take it.
package enum ImportUse: Sendable {
    /// Creates a device, whose id the namespace must not hold already.
    case createDevice
    /// Creates an app, whose id the namespace must not hold already, on a device the import created.
    case createApp
    /// Reads, drives or deletes a device the import created.
    case ownDevice
    /// Reads, drives or deletes an app the import created.
    case ownApp
}

/// One step of an import as the server read it: its request and what the route table says of its operation.
package struct ImportStep: Sendable {
    package var method: String
    package var path: String
    /// Whether the path is a resource of the namespace the import applies to (a namespaced route, under the
    /// namespace's prefix or, for `default`, unprefixed).
    package var inNamespace: Bool
    /// Whether the request asks to wait (`wait`).
    package var waits: Bool
    /// Whether the route answers the method; one it does not is answered 405, as outside an import.
    package var declared: Bool
    package var use: ImportUse?
    /// The id the path names.
    package var id: String?
    package var body: [UInt8]

    package init(
        method: String, path: String, inNamespace: Bool, waits: Bool, declared: Bool, use: ImportUse?, id: String?,
        body: [UInt8]
    ) {
        self.method = method
        self.path = path
        self.inNamespace = inNamespace
        self.waits = waits
        self.declared = declared
        self.use = use
        self.id = id
        self.body = body
    }
}

/// The rules of one import's steps: an import creates devices and apps in its namespace (ids the namespace does
/// not hold already) and drives, reads and deletes those alone. It remembers what the steps created: what the
/// import then writes into the namespace (`Application.install(from:devices:into:authorization:)`).
package final class ImportSteps: Sendable {
    /// Whether the namespace the import writes into holds a device (`app` false) or an app of that id already.
    private let taken: @Sendable (_ id: String, _ app: Bool) -> Bool
    private let made = Protected<(devices: [String], apps: [String])>(([], []))

    package init(taken: @escaping @Sendable (_ id: String, _ app: Bool) -> Bool = { _, _ in false }) {
        self.taken = taken
    }

    /// The devices and apps the import created, in order.
    package var created: (devices: [String], apps: [String]) { made.withLock { $0 } }

    /// Why the import may not take `step`, or nil when it may.
    package func refusal(of step: ImportStep) -> String? {
        guard step.inNamespace else { return "\(step.path) is outside the namespace the import applies to" }
        if step.waits { return "an import does not wait: leave out wait" }
        guard step.declared else { return nil }
        let (devices, apps) = created
        switch step.use {
        case .createDevice:
            if let id = (try? JSONParser.parse(step.body))?["id"]?.stringValue, taken(id, false) {
                return "device \(id) already exists in the namespace the import applies to"
            }
            return nil
        case .createApp:
            let body = try? JSONParser.parse(step.body)
            if let id = body?["id"]?.stringValue, taken(id, true) {
                return "app \(id) already exists in the namespace the import applies to"
            }
            let device = body?["device"]?.stringValue
            guard let device, !devices.contains(device) else { return nil }
            return "the app is for device \(device), which the import did not create"
        case .ownDevice:
            guard let id = step.id, !devices.contains(id) else { return nil }
            return "the import may touch only the devices it creates, and \(id) is not one"
        case .ownApp:
            guard let id = step.id, !apps.contains(id) else { return nil }
            return "the import may touch only the apps it creates, and \(id) is not one"
        case nil:
            return "an import creates devices and apps and drives, reads and deletes them; "
                + "\(step.method) \(step.path) is none of that"
        }
    }

    /// Remembers what a step of `use` that succeeded with `answer` created.
    package func note(_ use: ImportUse?, answer: [UInt8]) {
        guard use == .createDevice || use == .createApp,
            let document = try? JSONParser.parse(answer), let id = document["id"]?.stringValue
        else { return }
        made.withLock { made in
            if use == .createDevice {
                made.devices.append(id)
            } else {
                made.apps.append(id)
                // An app created without a device gets one of its own.
                if let device = document["device"]?.stringValue, !made.devices.contains(device) {
                    made.devices.append(device)
                }
            }
        }
    }
}
