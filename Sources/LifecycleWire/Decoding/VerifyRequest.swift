package import LifecycleCore

/// `POST .../apps/{id}/verify`: the callbacks an app is expected to have had, and how to compare.
package struct VerifyRequest: Sendable {
    /// `exact`: the callbacks are these, no more and no fewer; `subsequence`: these come in this order, others
    /// may come between them.
    package enum Match: String, CaseIterable, Sendable {
        case exact, subsequence
    }

    package var callbacks: [String]
    package var match: Match
    /// Only callbacks after this `seq` count (0: from the first).
    package var after: Int
    /// Only callbacks about this scene session count.
    package var session: String?

    package static let fields = ["callbacks", "match", "after", "session"]
    package static let maxCallbacks = 1000
    /// A selector is far shorter; more is not one (in characters, as the schema counts).
    package static let maxSelectorLength = 256

    package init(_ body: JSONValue) throws(APIError) {
        let reader = try FieldReader(body)
        try reader.rejectUnknown(allowed: Self.fields)
        guard let callbacks = try reader.strings("callbacks") else {
            throw .invalidField("callbacks", "callbacks is required: the selectors expected, in order")
        }
        guard (1...Self.maxCallbacks).contains(callbacks.count) else {
            throw .invalidField(
                "callbacks", "callbacks must hold 1 to \(Self.maxCallbacks) selectors, not \(callbacks.count)")
        }
        for (index, selector) in callbacks.enumerated()
        where selector.isEmpty || selector.unicodeScalars.count > Self.maxSelectorLength {
            throw .invalidField(
                "callbacks", "callbacks[\(index)] must be a selector of 1 to \(Self.maxSelectorLength) characters")
        }
        self.callbacks = callbacks
        match = try reader.enumeration("match", Match.self) ?? .exact
        after = try reader.integer("after", in: 0...(1 << 53)) ?? 0
        session = try reader.string("session")
        if let session { try Identifier.validate(session, field: "session") }
    }
}
