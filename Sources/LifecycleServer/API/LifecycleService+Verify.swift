import HTTPServer
import LifecycleCore
import LifecycleHosting
import LifecycleJSON
import LifecycleWire
import Locking

extension LifecycleService {
    /// `POST .../apps/{id}/verify`: whether the app's callbacks (after `after`, of `session`) are the ones
    /// expected, exactly or as a subsequence. 200 `{"holds": true, "match", "checked", "next"}` when they are;
    /// `409 verification-failed` naming where they first differ when they are not, so that one request (with
    /// `curl --fail-with-body`) asserts. Reads only; `410 gone` when callbacks after `after` were evicted.
    func verifyCallbacks(
        _ scope: RequestScope, _ request: HTTPRequest, app id: String, _ done: AnswerSink
    ) throws(APIError) {
        let host = try appHost(scope, id)
        // Bounded by the request body's limit alone: every body the schema allows (up to 1,000 selectors of 256
        // characters) is taken, whatever the per-event limit.
        let json = try request.requiredJSONBody()
        let expected = try VerifyRequest(json)
        let after = UInt64(expected.after)
        let session = expected.session
        let retained = try host.shared.withLock { shared throws(APIError) -> [RetainedEntry] in
            if let namespace = shared.deletedNamespace { throw .namespaceDeleted(namespace) }
            guard !shared.gone, shared.device.app(id) != nil else { throw .notFound("no app \(id)") }
            let ring = shared.appTimelines[id] ?? EntryRing(limit: 1)
            if after < ring.evictedThrough { throw .gone(oldestSeq: ring.oldestSeq ?? ring.evictedThrough + 1) }
            return ring.page(after: after, limit: .max) { $0.isCallback && (session.map($0.isIn(session:)) ?? true) }
        }
        // Read back outside the host's lock.
        let actual = retained.compactMap(\.entry)
        let selectors = actual.map { entry -> String in
            if case .callback(let selector, _, _, _) = entry.body { return selector }
            return ""
        }
        let failure: (index: Int, detail: String)? =
            switch expected.match {
            case .exact: Self.firstDifference(expected: expected.callbacks, actual: selectors)
            case .subsequence:
                Self.firstMissing(
                    expected: expected.callbacks, actual: selectors, seqs: actual.map(\.seq), after: after)
            }
        guard let failure else {
            return done(
                .json(
                    200,
                    [
                        "holds": true, "match": .string(expected.match.rawValue),
                        "checked": .number(Double(actual.count)),
                        "next": .number(Double(actual.last?.seq ?? after)),
                    ]))
        }
        var entry: JSONValue = .null
        if expected.match == .exact, failure.index < actual.count {
            var w = JSONWriter(reservingCapacity: 256)
            EntryEncoder.write(actual[failure.index], into: &w)
            entry = (try? JSONParser.parse(w.bytes)) ?? .null
        }
        let wanted: JSONValue =
            failure.index < expected.callbacks.count ? .string(expected.callbacks[failure.index]) : .null
        throw .verificationFailed(
            failure.detail,
            extra: [
                "match": .string(expected.match.rawValue), "index": .number(Double(failure.index)), "expected": wanted,
                "actual": entry, "checked": .number(Double(actual.count)),
                "callbacks": .array(selectors.map(JSONValue.string)),
            ])
    }

    /// Where `actual` first differs from `expected` (an index past the shorter one when one is a prefix of the
    /// other); nil when they are the same. The index counts from 0, as `index` in the answer; the detail counts
    /// callbacks as people do, from 1.
    static func firstDifference(expected: [String], actual: [String]) -> (index: Int, detail: String)? {
        for (index, (wanted, had)) in zip(expected, actual).enumerated() where wanted != had {
            return (index, "callback \(index + 1) is \(had) where \(wanted) was expected")
        }
        if expected.count == actual.count { return nil }
        let index = min(expected.count, actual.count)
        if actual.count < expected.count {
            return (
                index,
                "the app had \(actual.count) callbacks where \(expected.count) were expected: \(expected[index]) is missing"
            )
        }
        return (
            index,
            "the app had \(actual.count) callbacks where \(expected.count) were expected: \(actual[index]) came after them"
        )
    }

    /// The first of `expected` that does not come, in order, in `actual`; nil when each does.
    static func firstMissing(
        expected: [String], actual: [String], seqs: [UInt64], after: UInt64
    ) -> (index: Int, detail: String)? {
        var position = 0
        var lastSeq = after
        for (index, wanted) in expected.enumerated() {
            guard let found = actual[position...].firstIndex(of: wanted) else {
                return (
                    index, "no \(wanted) after seq \(lastSeq) (expected callback \(index + 1) of \(expected.count))"
                )
            }
            lastSeq = seqs[found]
            position = found + 1
        }
        return nil
    }
}
