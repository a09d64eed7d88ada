/// What a token may do (API.md, "Access tokens").
public enum AccessRole: String, Sendable, CaseIterable {
    /// GET and HEAD (reads, long polls, streams) inside its namespaces.
    case read
    /// Also POST, PUT and DELETE inside its namespaces.
    case write
    /// Everything, in every namespace, including `POST /v1/reset` and listing every namespace.
    case admin

    /// Whether the role allows `method` on a namespaced resource.
    func allows(_ method: String) -> Bool {
        switch self {
        case .admin: true
        case .write: true
        case .read: method == "GET" || method == "HEAD"
        }
    }
}
