import HTTPServer
import LifecycleApplication
import LifecycleWire

extension LifecycleService {
    /// `POST /v1/reset`: empties every namespace (`Application.resetEverything`); `409 namespace-frozen` with
    /// one frozen.
    func resetEverything(_ done: AnswerSink) throws(APIError) {
        try application.resetEverything { failed in
            done(failed ? APIError.storeFailed.response : HTTPResponse(status: 204))
        }
    }

    /// `POST /v1/namespaces/{ns}/reset`: empties the namespace.
    func resetNamespace(_ space: Namespace, _ done: AnswerSink) {
        application.empty(space, deleting: false) { result in
            done(result.isSuccess ? HTTPResponse(status: 204) : APIError.storeFailed.response)
        }
    }

    /// `DELETE /v1/namespaces/{ns}`: the namespace and everything in it; parked polls on it answer 410.
    /// `default` is never deleted (400): its reset empties it.
    func deleteNamespace(_ space: Namespace, _ done: AnswerSink) throws(APIError) {
        try application.deleteNamespace(space) { result in
            done(result.isSuccess ? HTTPResponse(status: 204) : APIError.storeFailed.response)
        }
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
