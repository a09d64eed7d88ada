public import LifecycleCore

/// Appends JSON text to a byte buffer, for writing hot response shapes by hand without building
/// `JSONValue`s first. Standard library only.
///
///     var writer = JSONWriter()
///     writer.beginObject()
///     writer.field("id"); writer.string(id)
///     writer.field("count"); writer.int(3)
///     writer.endObject()
///     send(writer.bytes)
///
/// Commas are automatic. Only one bit of state is needed for them, not a stack: inside a
/// container a comma is due once anything has been written there, and closing a container always
/// leaves its parent in that state (the container was itself the parent's latest value). The
/// writer does not check the call sequence: a key outside an object or an unclosed container
/// yields invalid JSON.
///
/// Not copyable: the writer owns its buffer outright, so writing a token is a capacity check and a copy,
/// with no check for a shared buffer and no reference count (pass it `inout`, or `borrowing` to read it).
///
/// The small tokens (a field's name, brackets, booleans, small integers) are inlinable, so the other modules'
/// writers, which call them a hundred times per answer, copy a constant name without a call.
public struct JSONWriter: ~Copyable, @unchecked Sendable {
    /// The text written so far, as a new array (a copy: take it once, when done).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: written)) }
    /// Bytes written so far.
    public var count: Int { written }

    /// Where the value written since `count` was `start` begins: past the comma that separates it, if any.
    public func valueStart(from start: Int) -> Int {
        start < written && base[start] == UInt8(ascii: ",") ? start + 1 : start
    }

    @usableFromInline var written = 0
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var state = State.empty

    @usableFromInline enum State: UInt8, Sendable {
        /// At the start of the output or just inside `{` / `[`: no comma before the next item.
        case empty
        /// After a value: a comma before the next item.
        case afterValue
        /// After `"key":`: the value comes next, without a comma.
        case afterKey
    }

    public init(reservingCapacity capacity: Int = 512) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// Continues after existing bytes, e.g. a prefix already in the buffer, with room for `capacity` more.
    public init(appendingTo bytes: [UInt8], reservingCapacity capacity: Int = 0) {
        self.init(reservingCapacity: bytes.count + capacity)
        bytes.withUnsafeBufferPointer { append($0) }
    }

    deinit { base.deallocate() }

    /// Empties the buffer, keeping its capacity, to write another value.
    public mutating func removeAll() {
        written = 0
        state = .empty
    }

    /// Room for `count` more bytes at the end: the pointer to write them at. The caller writes exactly
    /// `count` bytes there and the count moves on. One capacity check per token.
    @inlinable @inline(__always)
    mutating func extend(by count: Int) -> UnsafeMutablePointer<UInt8> {
        if written + count > capacity { grow(toAtLeast: written + count) }
        let at = base + written
        written += count
        return at
    }

    /// Moves the text to a buffer with room for at least `minimumCapacity` bytes, twice the old room when
    /// that is more.
    @usableFromInline @inline(never)
    mutating func grow(toAtLeast minimumCapacity: Int) {
        let larger = Swift.max(minimumCapacity, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: written)
        base.deallocate()
        base = moved
        capacity = larger
    }

    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        extend(by: 1).pointee = byte
    }

    @inlinable @inline(__always)
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        extend(by: source.count).update(from: base, count: source.count)
    }

    @inlinable @inline(__always)
    public mutating func beginObject() {
        willWriteValue()
        append(UInt8(ascii: "{"))
        state = .empty
    }

    @inlinable @inline(__always)
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        state = .afterValue
    }

    @inlinable @inline(__always)
    public mutating func beginArray() {
        willWriteValue()
        append(UInt8(ascii: "["))
        state = .empty
    }

    @inlinable @inline(__always)
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        state = .afterValue
    }

    /// Writes `"key":`, preceded by a comma when the object already has members.
    public mutating func key(_ key: String) {
        if state == .afterValue { append(UInt8(ascii: ",")) }
        appendQuoted(key)
        append(UInt8(ascii: ":"))
        state = .afterKey
    }

    /// Writes `"name":` for a name that needs no escaping (an identifier of the catalogue of events, say),
    /// copied at once like a `StaticString`'s.
    public mutating func field(identifier name: String) {
        var name = name
        name.withUTF8 { utf8 in
            assert(!utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            let comma = state == .afterValue ? 1 : 0
            let at = extend(by: comma + utf8.count + 3)
            if comma == 1 { at.pointee = UInt8(ascii: ",") }
            at[comma] = UInt8(ascii: "\"")
            if let base = utf8.baseAddress { (at + comma + 1).update(from: base, count: utf8.count) }
            at[comma + 1 + utf8.count] = UInt8(ascii: "\"")
            at[comma + 2 + utf8.count] = UInt8(ascii: ":")
        }
        state = .afterKey
    }

    /// Writes `"name":` for a name known when compiling, which never needs escaping: the fast path of `key`,
    /// written at once (one capacity check for the comma, the quotes, the name and the colon).
    @inlinable @inline(__always)
    public mutating func field(_ name: StaticString) {
        let comma = state == .afterValue ? 1 : 0
        let count = name.utf8CodeUnitCount
        let at = extend(by: comma + count + 3)
        if comma == 1 { at.pointee = UInt8(ascii: ",") }
        at[comma] = UInt8(ascii: "\"")
        (at + comma + 1).update(from: name.utf8Start, count: count)
        at[comma + 1 + count] = UInt8(ascii: "\"")
        at[comma + 2 + count] = UInt8(ascii: ":")
        state = .afterKey
    }

    public mutating func string(_ value: String) {
        willWriteValue()
        appendQuoted(value)
    }

    @inlinable @inline(__always)
    public mutating func bool(_ value: Bool) {
        willWriteValue()
        appendASCII(value ? "true" : "false")
    }

    @inlinable @inline(__always)
    public mutating func null() {
        willWriteValue()
        appendASCII("null")
    }

    @inlinable @inline(__always)
    public mutating func int(_ value: Int) {
        willWriteValue()
        if value >= 0 && value < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
        } else {
            appendDecimal(magnitude: UInt64(value.magnitude), negative: value < 0)
        }
    }

    /// An iOS version as its string (`"7.0"`, `"13.1.2"`), written without building the string first.
    public mutating func version(_ value: Version) {
        willWriteValue()
        append(UInt8(ascii: "\""))
        appendDecimal(value.major)
        append(UInt8(ascii: "."))
        appendDecimal(value.minor)
        if value.patch != 0 {
            append(UInt8(ascii: "."))
            appendDecimal(value.patch)
        }
        append(UInt8(ascii: "\""))
    }

    public mutating func unsigned(_ value: UInt64) {
        willWriteValue()
        appendDecimal(magnitude: value, negative: false)
    }

    /// Integral values print without a fraction (`12`), others in the shortest form that reads
    /// back to the same Double (`12.5`, `1e-07`); NaN and infinities, which JSON lacks, print `null`.
    public mutating func number(_ value: Double) {
        willWriteValue()
        guard value.isFinite else {
            appendASCII("null")
            return
        }
        if value.magnitude < 9.2e18 {  // within Int's range; the conversion truncates toward zero
            let integer = Int(value)
            if Double(integer) == value {
                if integer == 0 && value.sign == .minus {
                    appendASCII("-0")
                } else {
                    appendDecimal(integer)
                }
                return
            }
        }
        var text = value.description
        text.withUTF8 { append($0) }
    }

    /// Splices in bytes that already hold one complete JSON value, e.g. an entry encoded once and cached.
    public mutating func raw(_ json: [UInt8]) {
        willWriteValue()
        json.withUnsafeBufferPointer { append($0) }
    }

    /// Splices in bytes that already hold one complete JSON value.
    public mutating func raw(_ json: UnsafeBufferPointer<UInt8>) {
        willWriteValue()
        append(json)
    }

    @inlinable @inline(__always)
    mutating func willWriteValue() {
        if state == .afterValue { append(UInt8(ascii: ",")) }
        state = .afterValue
    }

    @inlinable @inline(__always)
    mutating func appendASCII(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Digits written backwards into a stack buffer (20 digits and a sign at most), then appended at once.
    private mutating func appendDecimal(_ value: Int) {
        if value >= 0 && value < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        appendDecimal(magnitude: UInt64(value.magnitude), negative: value < 0)
    }

    @usableFromInline
    mutating func appendDecimal(magnitude: UInt64, negative: Bool) {
        var digits = 1
        var rest = magnitude / 10
        while rest != 0 {
            digits += 1
            rest /= 10
        }
        let sign = negative ? 1 : 0
        let at = extend(by: sign + digits)
        if negative { at.pointee = UInt8(ascii: "-") }
        var remaining = magnitude
        var index = sign + digits
        repeat {
            index -= 1
            at[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining != 0
    }

    /// Writes `text` in quotes, escaping `"`, `\` and control characters; other bytes, including
    /// non-ASCII UTF-8, pass through unchanged. Text with nothing to escape (nearly all) is appended at once.
    private mutating func appendQuoted(_ text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in appendQuoted(utf8) }
        if written == nil {
            var text = text
            text.withUTF8 { utf8 in appendQuoted(utf8) }
        }
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard Self.needsNoEscaping(utf8) else {
            append(UInt8(ascii: "\""))
            appendEscaped(utf8)
            append(UInt8(ascii: "\""))
            return
        }
        let at = extend(by: utf8.count + 2)
        at.pointee = UInt8(ascii: "\"")
        if let base = utf8.baseAddress { (at + 1).update(from: base, count: utf8.count) }
        at[utf8.count + 1] = UInt8(ascii: "\"")
    }

    /// Whether no byte is below 0x20, `"` or `\`; eight bytes at a time (a zero byte of `w ^ pattern`, or a
    /// byte below 0x20, sets its high bit in the masks: the classic has-zero-byte and has-less-than tests).
    private static func needsNoEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= utf8.count {
            let w = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let control = (w &- ones &* 0x20) & ~w & highs
            let quote = w ^ (ones &* 0x22)
            let backslash = w ^ (ones &* 0x5C)
            if control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs) != 0 {
                return false
            }
            index += 8
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            index += 1
        }
        return true
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            if runStart < index { append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            switch byte {
            case UInt8(ascii: "\""): appendASCII("\\\"")
            case UInt8(ascii: "\\"): appendASCII("\\\\")
            case 0x0A: appendASCII("\\n")
            case 0x0D: appendASCII("\\r")
            case 0x09: appendASCII("\\t")
            case 0x08: appendASCII("\\b")
            case 0x0C: appendASCII("\\f")
            default:
                appendASCII("\\u00")
                append(Self.hexDigit(byte >> 4))
                append(Self.hexDigit(byte & 0x0F))
            }
            index += 1
            runStart = index
        }
        if runStart < index { append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }
}
