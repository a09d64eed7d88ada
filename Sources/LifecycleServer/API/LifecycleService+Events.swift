import HTTPServer
import LifecycleApplication
import LifecycleCore
import LifecycleHosting
import LifecycleWire

extension LifecycleService {
    func postEvents(
        _ scope: RequestScope, _ request: HTTPRequest, app id: String,
        _ done: AnswerSink
    ) throws(APIError) {
        let host = try appHost(scope, id)
        try post(request, in: scope.space, to: host, app: id, done)
    }

    func postEvents(
        _ scope: RequestScope, _ request: HTTPRequest, device id: String,
        _ done: AnswerSink
    ) throws(APIError) {
        try post(request, in: scope.space, to: try device(scope, id), app: nil, done)
    }

    private func post(
        _ request: HTTPRequest, in space: Namespace, to host: DeviceHost, app: String?,
        _ done: AnswerSink
    ) throws(APIError) {
        let json = try request.requiredJSONBody()
        try application.send(
            json, rawBytes: request.body.count, to: host, app: app, in: space,
            idempotencyKey: request.header(.idempotencyKey)
        ) { result in
            switch result {
            case .success(let answer):
                var headers = [("Content-Type", "application/json")]
                if answer.replayed { headers.append(("Idempotent-Replayed", "true")) }
                done(HTTPResponse(status: 200, headers: headers, body: answer.body))
            case .failure(let error):
                done(error.response)
            }
        }
    }
}
