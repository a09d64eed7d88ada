/// First answers to `Idempotency-Key` requests, newest `capacity` kept per device.
package struct IdempotencyCache {
    /// A first answer (its status and body) and the fingerprint of the request's body. Only answers to
    /// applied events are remembered, so far always `200`.
    package struct Answer {
        package var fingerprint: UInt64
        package var body: [UInt8]
        package var status = 200
    }

    private var answers: [String: Answer] = [:]
    private var order: [String] = []
    private var start = 0
    package let capacity: Int

    package init(capacity: Int = 10_000) { self.capacity = capacity }

    /// Keys are scoped to the path they were used on.
    package static func scoped(_ key: String, path: String) -> String { path + "\n" + key }

    package subscript(key: String) -> Answer? { answers[key] }

    /// Every remembered answer, oldest first.
    package var ordered: [(key: String, answer: Answer)] {
        order[start...].compactMap { key in answers[key].map { (key, $0) } }
    }

    /// Drops an answer whose record never became durable, so a retry applies the request afresh.
    package mutating func forget(_ key: String) {
        answers[key] = nil
    }

    package mutating func remember(_ key: String, _ answer: Answer) {
        if answers.updateValue(answer, forKey: key) == nil { order.append(key) }
        while order.count - start > capacity {
            answers[order[start]] = nil
            start += 1
        }
        if start > 4096 {
            order.removeFirst(start)
            start = 0
        }
    }
}
