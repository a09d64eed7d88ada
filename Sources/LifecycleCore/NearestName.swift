/// The closest of a list of names to one that was mistyped: what every "did you mean …?" of the daemon and of
/// the scenario format names. The one edit distance of the project.
public enum NearestName {
    /// The name of `known` closest to `typed` (the fewest single-character insertions, deletions and
    /// substitutions, the first of equals), when it is close enough to be what was meant: at most a third of
    /// `typed`'s characters apart (two for short names), and fewer than all of them. Nil when none is.
    public static func among(_ known: [String], to typed: String) -> String? {
        let typedCharacters = Array(typed)
        let limit = Swift.min(Swift.max(2, typedCharacters.count / 3), typedCharacters.count - 1)
        var best: (name: String, distance: Int)?
        for name in known where name != typed {
            let distance = distance(typedCharacters, Array(name))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// The edit distance between two strings (Levenshtein, by characters).
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a), Array(b))
    }

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
