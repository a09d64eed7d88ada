/// First answers to `Idempotency-Key` requests, newest `capacity` kept per device.
struct IdempotencyCache {
    /// A first answer: the body of a `200` to applied events, and the fingerprint of the request's body.
    struct Answer {
        var fingerprint: UInt64
        var body: [UInt8]
    }

    private var answers: [String: Answer] = [:]
    private var order: [String] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// Keys are scoped to the path they were used on.
    static func scoped(_ key: String, path: String) -> String { path + "\n" + key }

    subscript(key: String) -> Answer? { answers[key] }

    /// Every remembered answer, oldest first.
    var ordered: [(key: String, answer: Answer)] {
        order[start...].compactMap { key in answers[key].map { (key, $0) } }
    }

    /// Drops an answer whose record never became durable, so a retry applies the request afresh.
    mutating func forget(_ key: String) {
        answers[key] = nil
    }

    mutating func remember(_ key: String, _ answer: Answer) {
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
