import Dispatch
import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleExplore
import LifecycleJSON
import LifecycleScenarios
import LifecycleWire

/// The reads that compare: what a namespace's apps exercised (`GET .../coverage`) and an app's recorded inputs
/// on other iOS versions (`GET .../apps/{id}/versions`). Both count or replay in process, off the event loop
/// (on one serial queue of their own, so that however many clients ask, one comparison uses one core and none
/// takes a thread of the pool the devices run on; the first one of a process derives the model's bands,
/// `ModelBands.known`), and answer with an `ETag`, `304` when it matches.
extension LifecycleService {
    private static let comparisons = DispatchQueue(label: "lifecycled.comparisons")

    /// `GET .../coverage`: `Application.coverage(of:)`, in the JSON of `lifecycled check --coverage --json`.
    func coverage(_ scope: RequestScope, _ request: HTTPRequest, _ done: AnswerSink) {
        let application = application
        Self.comparisons.async {
            let json = application.coverage(of: scope.space).json()
            done(.read(Array(json.utf8), request: request))
        }
    }

    /// `GET .../apps/{id}/versions[?versions=9.0,13.0,17.0]`: `Application.versions(of:in:on:)`, the app's
    /// callbacks on each version side by side as `lifecycled check --versions --format json` gives a scenario's.
    /// A `versions` that is no list of versions answers `400 invalid-field` naming the item and what is allowed.
    func compareVersions(_ scope: RequestScope, _ request: HTTPRequest, app id: String, _ done: AnswerSink)
        throws(APIError)
    {
        var versions: [Version]?
        if let list = request.query["versions"] {
            switch VersionComparison.versions(list) {
            case .success(let listed): versions = listed
            case .failure(let problem): throw .invalidField("versions", "versions: \(problem.detail)")
            }
        }
        _ = try appHost(scope, id)
        let application = application
        Self.comparisons.async { [versions] in
            let response: HTTPResponse
            do throws(APIError) {
                var document = try application.versions(of: id, in: scope.space, on: versions).json
                document["app"] = .string(id)
                response = .read(JSONWriter.encode(.object(document)), request: request)
            } catch {
                response = error.response
            }
            done(response)
        }
    }
}
