import LifecycleCore

extension AppRequest {
    /// `delegate.actions`: for each selector, the actions its callback takes, in order (LIFECYCLE §6).
    static func actions(_ reader: FieldReader) throws(APIError) -> [String: [CallbackAction]] {
        var actions: [String: [CallbackAction]] = [:]
        for (selector, value) in reader.members.sorted(by: { $0.key < $1.key }) {
            guard case .array(let items) = value else {
                throw .invalidField(
                    reader.path(selector), "\(reader.path(selector)) must be an array of actions, not \(value.typeName)"
                )
            }
            actions[selector] = try items.enumerated().map { (index, item) throws(APIError) in
                try action(FieldReader(item, prefix: reader.path("\(selector)[\(index)]."), what: "an action"))
            }
        }
        return actions
    }

    /// One action, `{"do": ...}` and its fields: a script's, or one a live delegate answered (LIFECYCLE §13).
    static func action(_ reader: FieldReader) throws(APIError) -> CallbackAction {
        guard let name = try reader.enumeration("do", CallbackAction.Name.self) else {
            throw .invalidField(
                reader.path("do"), "\(reader.path("do")) is required: what the app does",
                allowed: CallbackAction.Name.allCases.map(\.rawValue))
        }
        switch name {
        case .beginBackgroundTask:
            try reader.rejectUnknown(allowed: ["do", "name", "duration"])
            return .beginBackgroundTask(
                name: try reader.string("name"),
                duration: try reader.number("duration", in: AppConfiguration.durationRange))
        case .useGPU:
            try reader.rejectUnknown(allowed: ["do"])
            return .useGPU
        case .acquire, .release:
            try reader.rejectUnknown(allowed: ["do", "resource"])
            guard let resource = try reader.enumeration("resource", AppResource.self) else {
                throw .invalidField(
                    reader.path("resource"),
                    "\(reader.path("resource")) is required: the resource \(name.rawValue) names",
                    allowed: AppResource.allCases.map(\.rawValue))
            }
            return name == .acquire ? .acquire(resource: resource) : .release(resource: resource)
        case .hideViews, .showViews:
            try reader.rejectUnknown(allowed: ["do", "views"])
            let views = try reader.strings("views")
            return name == .hideViews ? .hideViews(views: views) : .showViews(views: views)
        case .showAlert:
            try reader.rejectUnknown(allowed: ["do", "style", "title"])
            return .showAlert(
                style: try reader.enumeration("style", AlertStyle.self) ?? .alert, title: try reader.string("title"))
        case .dismissAlerts:
            try reader.rejectUnknown(allowed: ["do"])
            return .dismissAlerts
        case .endBackgroundTask:
            try reader.rejectUnknown(allowed: ["do", "task"])
            guard let task = try reader.integer("task", in: 1...Int(Int32.max)) else {
                throw .invalidField(
                    reader.path("task"), "\(reader.path("task")) is required: the id of the task the app ends")
            }
            return .endBackgroundTask(task: task)
        case .startBackgroundTransfer:
            try reader.rejectUnknown(allowed: ["do", "session", "task", "name"])
            var names: [String] = []
            for (key, what) in [("session", "the background session's identifier"), ("name", "the transfer's name")] {
                guard let value = try reader.string(key) else {
                    throw .invalidField(
                        reader.path(key),
                        "\(reader.path(key)) is required: \(what), like \(key == "name" ? "photo-1" : "com.example.transfers")"
                    )
                }
                try Identifier.validate(value, field: reader.path(key))
                names.append(value)
            }
            return .startBackgroundTransfer(
                session: names[0], task: try reader.enumeration("task", TransferTask.self) ?? .download, name: names[1])
        case .submitTask:
            try reader.rejectUnknown(allowed: [
                "do", "kind", "identifier", "earliestBegin", "requiresExternalPower", "requiresNetworkConnectivity",
                "strategy", "title",
            ])
            guard let kind = try reader.enumeration("kind", ScheduledTaskKind.self) else {
                throw .invalidField(
                    reader.path("kind"), "\(reader.path("kind")) is required: the kind of task request",
                    allowed: ScheduledTaskKind.allCases.map(\.rawValue))
            }
            return .submitTask(
                request: ScheduledTaskRequest(
                    kind: kind, identifier: try reader.requiredString("identifier"),
                    earliestBegin: try reader.number("earliestBegin", in: 0...Device.maximumTime),
                    requiresExternalPower: try reader.bool("requiresExternalPower"),
                    requiresNetworkConnectivity: try reader.bool("requiresNetworkConnectivity"),
                    strategy: try reader.enumeration("strategy", ContinuedStrategy.self),
                    title: try reader.string("title")))
        case .cancelTaskRequest:
            try reader.rejectUnknown(allowed: ["do", "identifier"])
            return .cancelTaskRequest(identifier: try reader.requiredString("identifier"))
        case .reportProgress:
            try reader.rejectUnknown(allowed: ["do", "fraction"])
            guard let fraction = try reader.number("fraction", in: 0...1) else {
                throw .invalidField(
                    reader.path("fraction"), "\(reader.path("fraction")) is required: the fraction done, from 0 to 1")
            }
            return .reportProgress(fraction: fraction)
        }
    }
}
