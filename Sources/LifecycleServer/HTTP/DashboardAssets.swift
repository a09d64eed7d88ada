import HTTPServer

/// The dashboard's files (`Resources/dashboard/`), compiled into the binary: the daemon serves its own page
/// with nothing beside it on disk and nothing fetched from elsewhere.
enum DashboardAssets {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String

        init(_ bytes: [UInt8], _ contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            etag = HTTPResponse.etag(of: bytes)
        }
    }

    /// Only this origin's scripts, styles and API: no inline code, nothing from another host, no framing. The
    /// page is a target for nothing but its own scripts, so a token typed into it goes nowhere else.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    static let page = Asset(PackageResources.index_html, "text/html; charset=utf-8")

    /// The files under `/dashboard/`, by name.
    static let files: [String: Asset] = [
        "dashboard.js": Asset(PackageResources.dashboard_js, "text/javascript; charset=utf-8"),
        "api.js": Asset(PackageResources.api_js, "text/javascript; charset=utf-8"),
        "events.js": Asset(PackageResources.events_js, "text/javascript; charset=utf-8"),
        "timeline.js": Asset(PackageResources.timeline_js, "text/javascript; charset=utf-8"),
        "live.js": Asset(PackageResources.live_js, "text/javascript; charset=utf-8"),
        "compare.js": Asset(PackageResources.compare_js, "text/javascript; charset=utf-8"),
        "dashboard.css": Asset(PackageResources.dashboard_css, "text/css; charset=utf-8"),
    ]
}
