/// The journal's streams by what they hold: `@namespace/NAME` a namespace's settings, `NAME/ID` a device of
/// the namespace NAME, a bare `ID` a device of `default` (as every release before namespaces wrote them).
package enum JournalLayout: Equatable {
    case settings(namespace: String)
    case device(namespace: String, id: String)

    package static func isSettings(_ stream: String) -> Bool { stream.hasPrefix(Namespace.settingsPrefix) }

    package static func kind(of stream: String) -> JournalLayout {
        if isSettings(stream) { return .settings(namespace: String(stream.dropFirst(Namespace.settingsPrefix.count))) }
        if let slash = stream.firstIndex(of: "/") {
            return .device(namespace: String(stream[..<slash]), id: String(stream[stream.index(after: slash)...]))
        }
        return .device(namespace: NamespaceName.defaultName, id: stream)
    }
}
