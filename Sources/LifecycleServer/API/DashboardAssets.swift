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

    static let page = Asset(PackageResources.index_html, "text/html; charset=utf-8")

    /// The files under `/dashboard/`, by name.
    static let files: [String: Asset] = [
        "dashboard.js": Asset(PackageResources.dashboard_js, "text/javascript; charset=utf-8"),
        "api.js": Asset(PackageResources.api_js, "text/javascript; charset=utf-8"),
        "events.js": Asset(PackageResources.events_js, "text/javascript; charset=utf-8"),
        "timeline.js": Asset(PackageResources.timeline_js, "text/javascript; charset=utf-8"),
        "dashboard.css": Asset(PackageResources.dashboard_css, "text/css; charset=utf-8"),
    ]
}
