import Foundation
import HTTPTestClient

/// One answer as read off the wire.
struct Reply: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed by Foundation; nil when it is not JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }

    /// The body as a JSON object; empty when it is anything else.
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// `items` of a page or list.
    var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }

    /// `entries` of an events answer.
    var entries: [[String: Any]] { object["entries"] as? [[String: Any]] ?? [] }

    /// The member as an integer, whatever number type Foundation chose.
    func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }

    func string(_ key: String) -> String? { object[key] as? String }

    /// A member that is itself an object (`app`, `device`); empty when it is not.
    func nested(_ key: String) -> [String: Any] { object[key] as? [String: Any] ?? [:] }
}

/// One request per connection (`Connection: close`), with a read timeout so a server that never
/// answers fails the test instead of hanging it.
enum BlockingHTTPClient {
    static func exchange(
        port: Int, method: String, path: String, headers: [(String, String)], body: [UInt8],
        timeoutSeconds: Int = 20
    ) throws -> Reply {
        let client = try TestHTTPClient(port: port, timeoutSeconds: timeoutSeconds)
        let response = try client.request(
            method: method, path: path, headers: [("Connection", "close")] + headers, body: body)
        return Reply(status: response.status, headers: response.headers, body: response.body)
    }
}
