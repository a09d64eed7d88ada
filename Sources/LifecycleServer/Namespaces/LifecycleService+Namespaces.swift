import Dispatch
import Foundation
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecyclePersistence
import LifecycleWire
import Locking

/// `PUT`, `GET` of one namespace, and the paged list (API.md, "Namespaces").
extension LifecycleService {
    /// Creates the namespace (201) or updates its settings (200); `default` never expires.
    func putNamespace(_ name: String, _ request: HTTPRequest, _ done: AnswerSink)
        throws(APIError)
    {
        let parsed = try NamespaceRequest(try request.jsonBody())
        if name == NamespaceName.defaultName, case .some(.some) = parsed.ttlSeconds {
            throw .invalidField("ttlSeconds", "the namespace default is never deleted: its ttlSeconds stays null")
        }
        try application.putNamespace(
            name, method: request.method, authorization: { request.header(.authorization) },
            change: { parsed.applied(to: &$0) }
        ) { [self] result in
            switch result {
            case .success((let space, created: true)):
                done(.json(201, namespaceJSON(space), headers: [("Location", "/v1/namespaces/\(name)")]))
            case .success((let space, created: false)):
                done(.json(200, namespaceJSON(space)))
            case .failure(let error):
                done(error.response)
            }
        }
    }

    func namespaceResponse(_ space: Namespace, _ request: HTTPRequest) -> HTTPResponse {
        .read(namespaceJSON(space), request: request)
    }

    /// `GET /v1/namespaces?limit=&after=`: by name; with tokens on, only those the token may read.
    func listNamespaces(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let (limit, after) = try request.listQuery()
        let policy = application.access.withLock { $0 }
        var token: AccessToken?
        if case .allowed(let allowed) = policy.decide(
            method: "GET", scope: .namespaceList, authorization: request.header(.authorization))
        {
            token = allowed
        }
        let spaces = application.namespaces.all().filter { space in
            (after == nil || space.name > after!) && policy.mayRead(space.name, token: token)
        }
        var w = JSONWriter(reservingCapacity: 256 + min(spaces.count, limit) * 300)
        w.beginObject()
        w.field("items")
        w.beginArray()
        var written = 0
        while written < spaces.count && written < limit && w.count < options.maxAnswerBytes {
            writeNamespace(spaces[written], into: &w)
            written += 1
        }
        w.endArray()
        w.field("next")
        if written < spaces.count, written > 0 { w.string(spaces[written - 1].name) } else { w.null() }
        w.endObject()
        return .read(w.bytes, request: request)
    }

    func namespaceJSON(_ space: Namespace) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 300)
        writeNamespace(space, into: &w)
        return w.bytes
    }

    /// The namespace document: `id`, `createdAt`, `lastUsedAt`, `ttlSeconds`, `frozen`, `labels`, `devices`, `apps`,
    /// `limits`.
    private func writeNamespace(_ space: Namespace, into w: inout JSONWriter) {
        let settings = space.settings
        w.beginObject()
        w.field("id")
        w.string(space.name)
        w.field("createdAt")
        w.string(Self.rfc3339(settings.createdAt))
        w.field("lastUsedAt")
        w.string(Self.rfc3339(settings.lastUsedAt))
        w.field("ttlSeconds")
        if let ttl = settings.ttlSeconds { w.int(ttl) } else { w.null() }
        w.field("frozen")
        w.bool(settings.frozen)
        w.field("labels")
        w.beginObject()
        for key in settings.labels.keys.sorted() {
            w.key(key)
            w.string(settings.labels[key]!)
        }
        w.endObject()
        w.field("devices")
        w.int(space.registry.devices)
        w.field("apps")
        w.int(space.registry.apps)
        w.field("limits")
        w.beginObject()
        w.field("devices")
        w.int(options.maxDevicesPerNamespace)
        w.field("apps")
        w.int(options.maxAppsPerNamespace)
        w.endObject()
        w.endObject()
    }

    /// Wall-clock seconds as an RFC 3339 UTC time with milliseconds, e.g. `2026-11-23T12:00:00.000Z`.
    static func rfc3339(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
