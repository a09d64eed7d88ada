import CBuildInfo
import HTTPServer
import LifecycleCore

/// Which build is answering: shown by `lifecycled --version`, `/livez`, `/readyz`, the
/// `lifecycled_build_info` metric and the first log line.
public enum BuildInfo {
    /// The release, also `info.version` of `api/openapi.yaml` (a test holds the two together).
    public static let version = "1.0.0"
    /// The commit the binary was built from, as the build gave it; `unknown` when it gave none.
    public static let revision = String(cString: lifecycled_revision())
}

extension BuildInfo {
    /// What `/livez` and `/readyz` answer: their status and which build gives it.
    static func probe(status: String) -> JSONValue {
        ["status": .string(status), "version": .string(version), "revision": .string(revision)]
    }

    /// `/livez`'s and a ready `/readyz`'s answers, made once: they never change while the process runs.
    static let liveAnswer = HTTPResponse.json(200, probe(status: "ok"))
    static let readyAnswer = HTTPResponse.json(200, probe(status: "ready"))
}
