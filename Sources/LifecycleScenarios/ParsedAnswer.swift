import Foundation
import LifecycleCore
import LifecycleJSON

/// The last answer a runner parsed, for a runner whose reads repeat: an explorer checks its properties after each
/// event, several of them reading the same page one after another, and a body equal to the last is not parsed
/// again. One slot, so it holds one body at most; a body that is not JSON is not kept.
package final class ParsedAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var body: [UInt8] = []
    private var document: JSONValue = .null

    package init() {}

    /// `bytes` parsed, or the last document when `bytes` equal the last body (the same array compares at once).
    func parse(_ bytes: [UInt8]) throws -> JSONValue {
        // (Not `equal ? document : nil`: JSONValue takes `nil` for its own null.)
        let kept = lock.withLock { () -> Optional<JSONValue> in
            guard !body.isEmpty, bytes == body else { return .none }
            return .some(document)
        }
        if let kept { return kept }
        let parsed = try JSONParser.parse(bytes)
        lock.withLock {
            body = bytes
            document = parsed
        }
        return parsed
    }
}
