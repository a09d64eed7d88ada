import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecyclePersistence
import LifecycleStore
import LifecycleWire
import Locking

/// The namespace a resource request acts in, and how it named it (for `Location`).
struct RequestScope: Sendable {
    let space: Namespace
    /// Whether the path was `/v1/namespaces/{ns}/...` (else an unprefixed path, the namespace `default`).
    let namespaced: Bool

    var registry: Registry { space.registry }

    /// `rest` (e.g. `/apps/mail`) under the path the request used.
    func path(_ rest: String) -> String { space.pathPrefix(namespaced: namespaced) + rest }
}

extension LifecycleService {
    /// The namespace `match` names (`default` for an unprefixed path): a `POST` creates a missing one with
    /// default settings, anything else answers 404 for it. Every request that names a namespace keeps it
    /// alive (`lastUsedAt`).
    func requestScope(_ match: Route.Match, _ request: HTTPRequest) throws(APIError) -> RequestScope {
        let name = match.namespace ?? NamespaceName.defaultName
        let now = options.clock.now
        let space: Namespace
        if request.method == "POST" {
            space = try application.obtainNamespace(
                name, settings: NamespaceSettings(createdAt: now, lastUsedAt: now), method: request.method,
                authorization: { request.header(.authorization) }
            ).space
        } else if let existing = application.namespaces.existing(name) {
            space = existing
        } else {
            throw .notFound(
                "no namespace \(name); a POST into it, or PUT /v1/namespaces/\(name), creates it")
        }
        space.touch(at: now)
        return RequestScope(space: space, namespaced: match.namespace != nil)
    }
}
