import LifecycleApplication
import LifecycleCore
import LifecyclePersistence
import LifecycleWire

/// The body of `PUT /v1/namespaces/{ns}`: every member optional; one left out keeps its value.
struct NamespaceRequest: Equatable {
    static let maxTTL = 366 * 86_400
    static let maxLabels = 64
    static let maxLabelLength = 256

    /// nil: left out; `.some(nil)`: `null`, no TTL.
    var ttlSeconds: Int??
    var labels: [String: String]?
    var frozen: Bool?

    init(_ body: JSONValue?) throws(APIError) {
        guard let body else { return }
        guard case .object(let members) = body else {
            throw .invalidField("body", "the body must be a JSON object, not \(body.typeName)")
        }
        let known = ["ttlSeconds", "labels", "frozen"]
        for key in members.keys.sorted() where !known.contains(key) {
            throw APIError.invalidField(key, "\(key) is not a known field", allowed: known).suggesting(
                for: key, among: known)
        }
        switch members["frozen"] {
        case nil: break
        case .bool(let flag)?: frozen = flag
        case let value?: throw .invalidField("frozen", "frozen must be true or false, not \(value.typeName)")
        }
        switch members["ttlSeconds"] {
        case nil: break
        case .null?: ttlSeconds = .some(nil)
        case .number(let value)? where value.rounded() == value && value >= 1 && value <= Double(Self.maxTTL):
            ttlSeconds = Int(value)
        case let value?:
            throw .invalidField(
                "ttlSeconds",
                "ttlSeconds must be a whole number of seconds from 1 to \(Self.maxTTL), or null, not \(value.typeName)"
                    + (value.numberValue.map { " \($0)" } ?? ""))
        }
        switch members["labels"] {
        case nil: break
        case .object(let pairs)?:
            guard pairs.count <= Self.maxLabels else {
                throw .invalidField("labels", "labels may hold at most \(Self.maxLabels) members, not \(pairs.count)")
            }
            var labels: [String: String] = [:]
            for key in pairs.keys.sorted() {
                guard case .string(let text) = pairs[key]!, !key.isEmpty,
                    key.unicodeScalars.count <= Self.maxLabelLength, text.unicodeScalars.count <= Self.maxLabelLength
                else {
                    throw .invalidField(
                        "labels.\(key)",
                        "each label must be a string of at most \(Self.maxLabelLength) characters, under a non-empty "
                            + "key of at most \(Self.maxLabelLength) characters")
                }
                labels[key] = text
            }
            self.labels = labels
        case let value?:
            throw .invalidField("labels", "labels must be an object of strings, not \(value.typeName)")
        }
    }

    /// `settings` with the members given.
    func applied(to settings: inout NamespaceSettings) {
        if let ttlSeconds { settings.ttlSeconds = ttlSeconds }
        if let labels { settings.labels = labels }
        if let frozen { settings.frozen = frozen }
    }
}
