package import LifecyclePersistence

/// What the markers found at start-up say to take away.
package struct AbandonedImports {
    package init() {}

    package var markers: [String] = []
    package var namespaces: Set<String> = []
    package var streams: Set<String> = []

    package mutating func add(_ marker: ImportMarker, stream: String) {
        markers.append(stream)
        if marker.newNamespace { namespaces.insert(marker.namespace) }
        streams.formUnion(marker.streams)
    }
}
