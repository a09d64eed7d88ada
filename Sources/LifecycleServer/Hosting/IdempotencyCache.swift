import HTTPServer

/// First answers to `Idempotency-Key` requests, newest `capacity` kept per device.
struct IdempotencyCache {
    struct Answer {
        var fingerprint: UInt64
        var response: HTTPResponse
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
