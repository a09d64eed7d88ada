import LifecycleCore

/// Reads the members of one JSON object in a request body, naming the field in every error.
struct FieldReader {
    package let members: [String: JSONValue]
    /// The path of this object within the body, e.g. `delegate.` (empty at the top).
    package let prefix: String
    /// Reading a journaled body: it is read as it was when it was accepted, when a `null` member counted
    /// as absent, so a data directory written then still replays.
    package let replaying: Bool

    package init(_ value: JSONValue, prefix: String = "", what: String = "the body", replaying: Bool = false)
        throws(APIError)
    {
        guard case .object(let members) = value else {
            let field = prefix.isEmpty ? "body" : String(prefix.dropLast())
            throw .invalidField(field, "\(what) must be a JSON object, not \(value.typeName)")
        }
        self.members = members
        self.prefix = prefix
        self.replaying = replaying
    }

    package func path(_ key: String) -> String { prefix + key }

    /// Rejects members the API does not know, so a typo never passes silently: the first unknown one in
    /// alphabetical order. `besides`: one more allowed member, named first in the error.
    func rejectUnknown(allowed: [String], besides: String? = nil) throws(APIError) {
        var first: String?
        for key in members.keys where key != besides && !allowed.contains(key) {
            if let known = first, known <= key { continue }
            first = key
        }
        guard let key = first else { return }
        let names = besides.map { [$0] + allowed } ?? allowed
        throw APIError.invalidField(path(key), "\(path(key)) is not a known field", allowed: names.map(path))
            .suggesting(for: path(key), among: names.map(path))
    }

    /// The member, nil when absent. A member that is there as `null` is an error: the schema gives no
    /// typed member a null, and reading it as absent would accept what the contract refuses.
    private func present(_ key: String) throws(APIError) -> JSONValue? {
        guard let value = members[key], !(replaying && value == .null) else { return nil }
        guard value != .null else {
            throw .invalidField(path(key), "\(path(key)) must not be null: omit it to get its default")
        }
        return value
    }

    package func string(_ key: String) throws(APIError) -> String? {
        guard let value = try present(key) else { return nil }
        guard case .string(let text) = value else {
            throw .invalidField(path(key), "\(path(key)) must be a string, not \(value.typeName)")
        }
        return text
    }

    package func requiredString(_ key: String) throws(APIError) -> String {
        guard let text = try string(key) else { throw .invalidField(path(key), "\(path(key)) is required") }
        return text
    }

    package func bool(_ key: String) throws(APIError) -> Bool? {
        guard let value = try present(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw .invalidField(path(key), "\(path(key)) must be true or false, not \(value.typeName)")
        }
        return flag
    }

    package func number(_ key: String) throws(APIError) -> Double? {
        guard let value = try present(key) else { return nil }
        guard case .number(let number) = value, number.isFinite else {
            throw .invalidField(path(key), "\(path(key)) must be a number, not \(value.typeName)")
        }
        return number
    }

    /// A number within `range`; the error names the range.
    package func number(_ key: String, in range: ClosedRange<Double>) throws(APIError) -> Double? {
        guard let number = try number(key) else { return nil }
        guard range.contains(number) else {
            throw .invalidField(
                path(key),
                "\(path(key)) must be a number from \(range.lowerBound.plainText) to \(range.upperBound.plainText), "
                    + "not \(number.plainText)")
        }
        return number
    }

    /// A whole number within `range`; the error names the range.
    package func integer(_ key: String, in range: ClosedRange<Int>) throws(APIError) -> Int? {
        guard let number = try number(key) else { return nil }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .invalidField(
                path(key),
                "\(path(key)) must be a whole number from \(range.lowerBound) to \(range.upperBound), "
                    + "not \(number.plainText)")
        }
        return Int(number)
    }

    package func object(_ key: String) throws(APIError) -> FieldReader? {
        guard let value = try present(key) else { return nil }
        return try FieldReader(value, prefix: path(key) + ".", what: path(key), replaying: replaying)
    }

    package func strings(_ key: String) throws(APIError) -> [String]? {
        guard let value = try present(key) else { return nil }
        guard case .array(let items) = value else {
            throw .invalidField(path(key), "\(path(key)) must be an array of strings, not \(value.typeName)")
        }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                throw .invalidField(path(key), "\(path(key)) must hold only strings, not \(item.typeName)")
            }
            result.append(text)
        }
        return result
    }

    package func value(_ key: String) -> JSONValue? { members[key] }

    package func version(_ key: String) throws(APIError) -> Version? {
        guard let text = try string(key) else { return nil }
        guard let version = Version(text) else {
            throw .invalidField(
                path(key), "\(path(key)) must be an iOS version like \"7.0\" or \"4.2\", from 2.0 up, not \"\(text)\"")
        }
        return version
    }

    /// A string that must be one of `options`; the error lists them.
    package func choice(_ key: String, _ options: [String]) throws(APIError) -> String? {
        guard let text = try string(key) else { return nil }
        guard options.contains(text) else { throw notAllowed(key, text, options) }
        return text
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(APIError) -> E?
    where E.RawValue == String {
        guard let text = try string(key) else { return nil }
        guard let value = E(rawValue: text) else { throw notAllowed(key, text, E.allCases.map(\.rawValue)) }
        return value
    }

    private func notAllowed(_ key: String, _ text: String, _ options: [String]) -> APIError {
        APIError.invalidField(
            path(key), "\(path(key)) must be one of the allowed values, not \"\(text)\"", allowed: options
        )
        .suggesting(for: text, among: options)
    }
}

/// Client-chosen ids: `[A-Za-z0-9._-]{1,128}`.
package enum Identifier {
    package static func isValid(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...128).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
    }

    package static func validate(_ id: String, field: String) throws(APIError) {
        guard isValid(id) else {
            throw .invalidField(field, "\(field) must match [A-Za-z0-9._-]{1,128}, not \"\(id)\"")
        }
    }
}
