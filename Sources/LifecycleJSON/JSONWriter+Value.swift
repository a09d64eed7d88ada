public import LifecycleCore

extension JSONWriter {
    /// Writes a whole `JSONValue`. Object members are sorted by key, so equal values always
    /// produce the same bytes.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let double): number(double)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            if members.count == 1, let member = members.first {
                key(member.key)
                self.value(member.value)
            } else {
                for member in members.sorted(by: { $0.key < $1.key }) {
                    key(member.key)
                    self.value(member.value)
                }
            }
            endObject()
        }
    }

    /// The JSON text of `value`, object keys sorted.
    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256)
        writer.value(value)
        return writer.bytes
    }
}
