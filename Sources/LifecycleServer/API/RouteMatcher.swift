#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Route {
    /// The route of `path`: the first declared path (`Route.declaration`) it matches, segment by segment,
    /// empty segments skipped; a route declared `namespaced` also under `/v1/namespaces/{ns}`. Read from the
    /// path's bytes: no string is made but the id and the namespace's name.
    static func match(_ path: String) -> Match {
        var path = path
        return path.withUTF8 { match(Segment($0)) }
    }

    private static func match(_ path: Segment) -> Match {
        let patterns = RoutePatterns.shared
        guard let rest = path.dropping("/v1/namespaces") else {
            let (route, id) = patterns.unprefixed.first(Segments(path))
            return Match(route: route, id: id)
        }
        // `/v1/namespaces` itself (and with a slash) is an unprefixed path.
        if rest.is("") || rest.is("/") {
            let (route, id) = patterns.unprefixed.first(Segments(path))
            return Match(route: route, id: id)
        }
        guard let afterSlash = rest.dropping("/") else { return Match(route: .unknown) }
        let (name, tail) = afterSlash.split(at: UInt8(ascii: "/"))
        // The rest is read as the unprefixed path `/v1` + tail, its empty segments skipped as theirs are.
        let parts = Segments(tail, after: Segment("v1"))
        var (route, id) = patterns.underNamespace.first(parts)
        if route == .unknown { (route, id) = patterns.namespaced.first(parts) }
        guard route != .unknown else { return Match(route: .unknown) }
        return Match(route: route, id: id, namespace: name.text)
    }
}

/// The declared paths, split into segments once for matching, in three lists: every path that does not start
/// with `/v1/namespaces/{ns}`; those that do, read after it as `/v1` + the rest (`/v1/namespaces/{ns}/reset`
/// is `v1`, `reset`); and the routes declared `namespaced`, also matched after `/v1/namespaces/{ns}`.
private struct RoutePatterns: @unchecked Sendable {
    let unprefixed: PatternList
    let underNamespace: PatternList
    let namespaced: PatternList

    static let shared = RoutePatterns()

    private init() {
        var unprefixed: [Pattern] = []
        var underNamespace: [Pattern] = []
        var namespaced: [Pattern] = []
        for route in Route.allCases {
            let declaration = route.declared
            guard declaration.path.utf8CodeUnitCount > 0 else { continue }
            let path = Segment(declaration.path)
            if let rest = path.dropping(RouteDeclaration.namespacePrefix) {
                underNamespace.append(Pattern(route, Segments(rest, after: Segment("v1"))))
            } else {
                let pattern = Pattern(route, Segments(path))
                unprefixed.append(pattern)
                if declaration.namespaced { namespaced.append(pattern) }
            }
        }
        self.unprefixed = PatternList(unprefixed)
        self.underNamespace = PatternList(underNamespace)
        self.namespaced = PatternList(namespaced)
    }
}

/// A declared path's segments: each a literal, or a parameter (`{id}`, `{file}`) whose bytes are the id.
private struct Pattern {
    var route: Route
    var segments: Segments
    /// The position of the parameter, or -1.
    var parameter = -1

    init(_ route: Route, _ segments: Segments) {
        precondition(segments.count <= 4, "\(route): a route's path has at most four segments")
        self.route = route
        self.segments = segments
        for index in 0..<segments.count where segments[index].isParameter {
            precondition(parameter < 0, "\(route): a route's path has at most one parameter besides {ns}")
            parameter = index
        }
    }

    /// The id `parts` give the parameter, or nil when they are not this path (nil id: `("")` never happens,
    /// a segment is never empty).
    func matches(_ parts: Segments) -> Bool {
        guard parts.count == segments.count else { return false }
        var index = segments.count - 1
        // From the last segment: the literals that tell routes apart are at the end.
        while index >= 0 {
            if index != parameter && !parts[index].equals(segments[index]) { return false }
            index -= 1
        }
        return true
    }
}

/// Patterns kept in memory of their own that lives as long as the program, ordered by their number of segments
/// (declaration order within one number): read for every request without a reference count, and only those
/// with as many segments as the path are tried.
private struct PatternList: @unchecked Sendable {
    private let patterns: UnsafeMutableBufferPointer<Pattern>
    /// Where the patterns of `n` segments start, for `n` in 0...5 (5: the end).
    private let starts: UnsafeMutableBufferPointer<Int>

    init(_ list: [Pattern]) {
        let sorted = (0...4).flatMap { count in list.filter { $0.segments.count == count } }
        patterns = .allocate(capacity: sorted.count)
        _ = patterns.initialize(from: sorted)
        starts = .allocate(capacity: 6)
        for count in 0...5 { starts[count] = sorted.firstIndex { $0.segments.count >= count } ?? sorted.count }
    }

    /// The first pattern `parts` match: its route, and the id when it has a parameter; `.unknown` when none.
    func first(_ parts: Segments) -> (Route, String?) {
        guard parts.count <= 4, let base = patterns.baseAddress else { return (.unknown, nil) }
        var index = starts[parts.count]
        let end = starts[parts.count + 1]
        while index < end {
            if (base + index).pointee.matches(parts) {
                let parameter = (base + index).pointee.parameter
                return ((base + index).pointee.route, parameter < 0 ? nil : parts[parameter].text)
            }
            index += 1
        }
        return (.unknown, nil)
    }
}

/// Up to four non-empty segments of a path's bytes, found without allocating (this runs for every request).
/// Valid only while those bytes are (inside `String.withUTF8`).
private struct Segments {
    private var found: (Segment, Segment, Segment, Segment) = (Segment(), Segment(), Segment(), Segment())
    /// The number of segments, or 5 for more than four.
    private(set) var count = 0

    /// The segments of `path`, after `first` when given.
    init(_ path: Segment, after first: Segment? = nil) {
        if let first {
            found.0 = first
            count = 1
        }
        let bytes = path.bytes
        var index = 0
        while index < bytes.count {
            guard bytes[index] != UInt8(ascii: "/") else {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count && bytes[index] != UInt8(ascii: "/") { index += 1 }
            let segment = Segment(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            switch count {
            case 0: found.0 = segment
            case 1: found.1 = segment
            case 2: found.2 = segment
            case 3: found.3 = segment
            default:
                count = 5
                return
            }
            count += 1
        }
    }

    subscript(index: Int) -> Segment {
        switch index {
        case 0: found.0
        case 1: found.1
        case 2: found.2
        default: found.3
        }
    }
}

/// A path's bytes or a part of them, compared with the routes' literals byte for byte.
private struct Segment {
    fileprivate private(set) var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    init() {}
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
    /// A literal's bytes, which live as long as the program.
    init(_ literal: StaticString) {
        bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    /// The segment as a string of its own (an id).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the segment is a path's parameter, `{...}`.
    var isParameter: Bool { bytes.count >= 2 && bytes.first == UInt8(ascii: "{") && bytes.last == UInt8(ascii: "}") }

    /// Whether both hold the same bytes.
    func equals(_ other: Segment) -> Bool {
        guard bytes.count == other.bytes.count else { return false }
        return bytes.count == 0 || memcmp(bytes.baseAddress!, other.bytes.baseAddress!, bytes.count) == 0
    }

    func `is`(_ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        return bytes.count == 0 || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0
    }

    /// What follows `prefix`, when the segment starts with it.
    func dropping(_ prefix: StaticString) -> Segment? {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count, Segment(UnsafeBufferPointer(rebasing: bytes[..<count])).is(prefix) else {
            return nil
        }
        return Segment(UnsafeBufferPointer(rebasing: bytes[count...]))
    }

    /// The bytes before the first `separator`, and the rest from it (empty when there is none).
    func split(at separator: UInt8) -> (Segment, Segment) {
        let index = bytes.firstIndex(of: separator) ?? bytes.count
        return (
            Segment(UnsafeBufferPointer(rebasing: bytes[..<index])),
            Segment(UnsafeBufferPointer(rebasing: bytes[index...]))
        )
    }
}
