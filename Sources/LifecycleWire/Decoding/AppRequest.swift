package import LifecycleCore

/// `POST /v1/apps`: only `bundleId` is required.
package struct AppRequest {
    package var id: String?
    package var device: String?
    package var configuration: AppConfiguration

    package static let fields = [
        "id", "device", "bundleId", "iosVersion", "sdkVersion", "info", "delegate", "memoryMB", "sensitiveViews",
        "restorableState",
    ]

    /// `replaying`: a journaled body, read as it was accepted (see `FieldReader.replaying`).
    /// Every selector a delegate configuration names is one the daemon knows, so a typo cannot silently
    /// change what a test exercises (LIFECYCLE §3).
    static func checkSelectors(of delegate: DelegateBehaviour) throws(APIError) {
        let named: [(field: String, selectors: [String], known: [String])] = [
            ("delegate.notImplemented", delegate.notImplemented.sorted(), Selector.configurable),
            ("delegate.durations", delegate.durations.keys.sorted(), Selector.configurable),
            ("delegate.returns", delegate.returns.keys.sorted(), Selector.returning),
            ("delegate.actions", (delegate.actions ?? [:]).keys.sorted(), Selector.configurable),
        ]
        for (field, selectors, known) in named {
            for selector in selectors where !known.contains(selector) {
                throw APIError.invalidField(
                    field, "\(selector) is not a delegate method \(field) may name", allowed: known
                ).suggesting(for: selector, among: known)
            }
        }
    }

    package init(_ body: JSONValue, replaying: Bool = false) throws(APIError) {
        let reader = try FieldReader(body, replaying: replaying)
        try reader.rejectUnknown(allowed: Self.fields)
        id = try reader.string("id")
        if let id { try Identifier.validate(id, field: "id") }
        device = try reader.string("device")
        if let device { try Identifier.validate(device, field: "device") }
        var configuration = AppConfiguration(bundleId: try reader.requiredString("bundleId"))
        configuration.iosVersion = try reader.version("iosVersion")
        configuration.sdkVersion = try reader.version("sdkVersion")
        if let memory = try reader.integer("memoryMB", in: DeviceConfiguration.memoryRange) {
            configuration.memoryMB = memory
        }
        if let views = try reader.strings("sensitiveViews"), !views.isEmpty { configuration.sensitiveViews = views }
        // An object, what the app encodes (LIFECYCLE §4); null or absent: the app does not opt in.
        if let state = reader.value("restorableState"), state != .null {
            guard case .object = state else {
                throw .invalidField(
                    "restorableState", "restorableState is a JSON object, what the app encodes for state restoration")
            }
            configuration.restorableState = state
        }
        if let info = try reader.object("info") {
            try info.rejectUnknown(allowed: [
                "exitsOnSuspend", "backgroundModes", "urlSchemes", "sceneManifest", "externalAccessoryProtocols",
                "launchImages", "bgTaskIdentifiers",
            ])
            // null is a value here: no manifest (API.md), as the app snapshot shows it.
            if info.value("sceneManifest") != .null, let manifest = try info.object("sceneManifest") {
                configuration.info.sceneManifest = try Self.sceneManifest(manifest)
            }
            if let flag = try info.bool("exitsOnSuspend") { configuration.info.exitsOnSuspend = flag }
            if let modes = try info.strings("backgroundModes") { configuration.info.backgroundModes = modes }
            if let schemes = try info.strings("urlSchemes") { configuration.info.urlSchemes = schemes }
            if let protocols = try info.strings("externalAccessoryProtocols"), !protocols.isEmpty {
                configuration.info.externalAccessoryProtocols = protocols
            }
            if let images = try info.strings("launchImages"), !images.isEmpty {
                configuration.info.launchImages = images
            }
            if let identifiers = try info.strings("bgTaskIdentifiers"), !identifiers.isEmpty {
                configuration.info.bgTaskIdentifiers = identifiers
            }
        }
        if let delegate = try reader.object("delegate") {
            try delegate.rejectUnknown(allowed: [
                "notImplemented", "durations", "returns", "endsTasksOnExpiration", "actions", "live",
            ])
            // false is the script, as when absent: kept as nil so scripted apps stay as they were.
            if try delegate.bool("live") == true { configuration.delegate.live = true }
            if let selectors = try delegate.strings("notImplemented") {
                configuration.delegate.notImplemented = Set(selectors)
            }
            if let durations = try delegate.object("durations") {
                for key in durations.members.keys {
                    configuration.delegate.durations[key] = try durations.number(
                        key, in: AppConfiguration.durationRange)
                }
            }
            if let returns = try delegate.object("returns") {
                for key in returns.members.keys {
                    if key == Selector.configurationForConnecting {
                        // The one non-BOOL return: a configuration name (LIFECYCLE §11.1).
                        configuration.delegate.configurationForConnecting = try returns.string(key)
                    } else {
                        configuration.delegate.returns[key] = try returns.bool(key)
                    }
                }
            }
            if let flag = try delegate.bool("endsTasksOnExpiration") {
                configuration.delegate.endsTasksOnExpiration = flag
            }
            if let actions = try delegate.object("actions") {
                let listed = try Self.actions(actions).filter { !$0.value.isEmpty }
                configuration.delegate.actions = listed.isEmpty ? nil : listed
            }
        }
        if let failure = configuration.validationFailure() { throw APIError(failure) }
        if !replaying {
            if configuration.info.urlSchemes.contains("") {
                throw .invalidField("info.urlSchemes", "a URL scheme must be a non-empty string, like mail")
            }
            // A journaled body was accepted before selectors were checked: it replays as it was.
            try Self.checkSelectors(of: configuration.delegate)
        }
        self.configuration = configuration
    }

    /// `info.sceneManifest`: `supportsMultipleScenes` and `configurations`, each with its defaults.
    private static func sceneManifest(_ reader: FieldReader) throws(APIError) -> SceneManifest {
        try reader.rejectUnknown(allowed: ["supportsMultipleScenes", "configurations"])
        var manifest = SceneManifest()
        if let flag = try reader.bool("supportsMultipleScenes") { manifest.supportsMultipleScenes = flag }
        switch reader.value("configurations") {
        case nil, .null?:
            break
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                let field = reader.path("configurations[\(index)].")
                let configuration = try FieldReader(item, prefix: field, what: "a scene configuration")
                try configuration.rejectUnknown(allowed: ["name", "role", "delegateClass"])
                var scene = SceneConfiguration(name: try configuration.requiredString("name"))
                if let role = try configuration.string("role") { scene.role = role }
                // null is a value here: the scene has no delegate (API.md).
                if let value = configuration.value("delegateClass") {
                    scene.delegateClass = value == .null ? nil : try configuration.string("delegateClass")
                }
                manifest.configurations.append(scene)
            }
        case let other?:
            throw .invalidField(
                reader.path("configurations"), "configurations must be an array of objects, not \(other.typeName)")
        }
        return manifest
    }
}
