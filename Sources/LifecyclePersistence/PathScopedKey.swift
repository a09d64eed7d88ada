/// An `Idempotency-Key` as the first release stored it, in journal records (version 1) and snapshots
/// (versions 1 and 2): scoped to the request's path, `path`, a newline, then the key (a header value has no
/// newline). Keys are the app's now, whatever the path they came by.
enum PathScopedKey {
    /// The app the path names (`.../apps/{id}/...`; nil: the device's own) and the key without its path.
    static func split(_ stored: String) -> (app: String?, key: String) {
        let newline = stored.firstIndex(of: "\n")
        let segments = stored[..<(newline ?? stored.endIndex)].split(separator: "/")
        let app = segments.firstIndex(of: "apps").flatMap { index in
            index + 1 < segments.count ? String(segments[index + 1]) : nil
        }
        return (app, newline.map { String(stored[stored.index(after: $0)...]) } ?? stored)
    }
}
