/// An `Idempotency-Key` and whose events it was used for: an app's, or (`app` nil) the device's own. A key
/// is scoped to that, never to the path the request came by (`/v1/apps/a/events` and
/// `/v1/namespaces/default/apps/a/events` are one app).
package struct IdempotencyKey: Hashable, Sendable {
    package var app: String?
    package var key: String

    package init(app: String?, key: String) {
        self.app = app
        self.key = key
    }
}

/// First answers to `Idempotency-Key` requests, the newest kept per device: at most `capacity` of them and
/// `byteCapacity` bytes (`bytes`, what the daemon's `MemoryBudget` counts as the device's answers); the
/// oldest go first, and a retry of a key that went is applied anew.
package struct IdempotencyCache {
    /// A first answer and the fingerprint of the request's body. Only applied events are remembered.
    package struct Answer: Sendable {
        package var fingerprint: UInt64
        package var body: [UInt8]

        package init(fingerprint: UInt64, body: [UInt8]) {
            self.fingerprint = fingerprint
            self.body = body
        }
    }

    private var answers: [IdempotencyKey: Answer] = [:]
    private var order: [IdempotencyKey] = []
    private var start = 0
    package let capacity: Int
    package let byteCapacity: Int
    /// Bytes the remembered answers take: their bodies, keys and a fixed cost each.
    package private(set) var bytes = 0

    package init(capacity: Int = 10_000, byteCapacity: Int = 1 << 20) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    /// What one answer counts for: its body, its key, and the cost of keeping it.
    static func cost(_ key: IdempotencyKey, _ answer: Answer) -> Int {
        answer.body.count + key.key.utf8.count + (key.app?.utf8.count ?? 0) + 96
    }

    package subscript(key: IdempotencyKey) -> Answer? { answers[key] }

    /// Every remembered answer, oldest first.
    var ordered: [(key: IdempotencyKey, answer: Answer)] {
        order[start...].compactMap { key in answers[key].map { (key, $0) } }
    }

    /// Drops an answer whose record never became durable, so a retry applies the request afresh.
    mutating func forget(_ key: IdempotencyKey) {
        if let answer = answers.removeValue(forKey: key) { bytes -= Self.cost(key, answer) }
    }

    mutating func remember(_ key: IdempotencyKey, _ answer: Answer) {
        if let old = answers.updateValue(answer, forKey: key) {
            bytes -= Self.cost(key, old)
        } else {
            order.append(key)
        }
        bytes += Self.cost(key, answer)
        while order.count - start > capacity || (bytes > byteCapacity && order.count - start > 1) { dropOldest() }
        compact()
    }

    /// Drops the oldest answers until `amount` bytes are free or none is left; returns the bytes freed.
    mutating func dropOldest(bytes amount: Int) -> Int {
        let before = bytes
        while before - bytes < amount, start < order.count { dropOldest() }
        compact()
        return before - bytes
    }

    private mutating func dropOldest() {
        let key = order[start]
        start += 1
        if let answer = answers.removeValue(forKey: key) { bytes -= Self.cost(key, answer) }
    }

    private mutating func compact() {
        if start > 4096 {
            order.removeFirst(start)
            start = 0
        }
    }
}
