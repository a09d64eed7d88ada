import HTTPServer
import LifecycleWire

extension LifecycleService {
    /// `GET /` and `GET /dashboard/{file}`: the dashboard, revalidated by ETag on every load.
    func dashboardResponse(_ request: HTTPRequest, file: String?) throws(APIError) -> HTTPResponse {
        let asset: DashboardAssets.Asset
        if let file {
            guard let found = DashboardAssets.files[file] else {
                let names = DashboardAssets.files.keys.sorted().joined(separator: ", ")
                throw .notFound("the dashboard has no file \(file); it has \(names)")
            }
            asset = found
        } else {
            asset = DashboardAssets.page
        }
        var response = HTTPResponse.read(
            asset.bytes, etag: asset.etag, request: request, contentType: asset.contentType)
        response.headers.append(("Content-Security-Policy", DashboardAssets.contentSecurityPolicy))
        response.headers.append(("Cache-Control", "no-cache"))
        response.headers.append(("X-Content-Type-Options", "nosniff"))
        response.headers.append(("Referrer-Policy", "no-referrer"))
        return response
    }
}
