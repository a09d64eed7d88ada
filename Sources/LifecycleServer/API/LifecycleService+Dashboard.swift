import HTTPServer

extension LifecycleService {
    /// `GET /` and `GET /dashboard/{file}`: the dashboard, revalidated by ETag on every load.
    func dashboardResponse(_ request: HTTPRequest, file: String?) throws(APIError) -> HTTPResponse {
        let asset: DashboardAssets.Asset
        if let file {
            guard let found = DashboardAssets.files[file] else {
                throw .notFound("the dashboard has no file \(file); it has \(DashboardAssets.files.keys.sorted().joined(separator: ", "))")
            }
            asset = found
        } else {
            asset = DashboardAssets.page
        }
        var response = HTTPResponse.read(asset.bytes, etag: asset.etag, request: request, contentType: asset.contentType)
        // Only this origin's scripts, styles and API: no inline code, no other host, no framing.
        response.headers.append(
            ("Content-Security-Policy",
             "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
                + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"))
        response.headers.append(("Cache-Control", "no-cache"))
        response.headers.append(("X-Content-Type-Options", "nosniff"))
        response.headers.append(("Referrer-Policy", "no-referrer"))
        return response
    }
}
