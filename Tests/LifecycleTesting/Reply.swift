import Foundation

/// One answer, read off the wire or handed over in process: the same either way.
package struct Reply: Sendable {
    package let status: Int
    package let headers: [(name: String, value: String)]
    package let body: [UInt8]

    package init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed by Foundation; nil when it is not JSON.
    package var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }

    /// The body as a JSON object; empty when it is anything else.
    package var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// `items` of a page or list.
    package var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }

    /// `entries` of an events answer.
    package var entries: [[String: Any]] { object["entries"] as? [[String: Any]] ?? [] }

    /// The member as an integer, whatever number type Foundation chose.
    package func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }

    package func string(_ key: String) -> String? { object[key] as? String }

    /// A member that is itself an object (`app`, `device`); empty when it is not.
    package func nested(_ key: String) -> [String: Any] { object[key] as? [String: Any] ?? [:] }
}
