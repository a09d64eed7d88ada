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
        try post(request, in: scope.space.name, to: host, app: id, done)
    }

    func postEvents(
        _ scope: RequestScope, _ request: HTTPRequest, device id: String,
        _ done: AnswerSink
    ) throws(APIError) {
        try post(request, in: scope.space.name, to: try device(scope, id), app: nil, done)
    }

    private func post(
        _ request: HTTPRequest, in namespace: String, to host: DeviceHost, app: String?,
        _ done: AnswerSink
    ) throws(APIError) {
        let json = try request.requiredJSONBody()
        try application.checkSize(of: json, rawBytes: request.body.count, batch: true, what: "an event")
        let events = try EventDecoder.decode(json, deviceOnly: app == nil)
        var key: String?
        if let text = request.header(.idempotencyKey) {
            guard !text.isEmpty, text.utf8.count <= 256 else {
                throw .invalidField("Idempotency-Key", "Idempotency-Key must be 1 to 256 characters")
            }
            key = text
        }
        host.applyEvents(.init(events: events, json: json, app: app, idempotencyKey: key)) {
            [metrics] result in
            switch result {
            case .success(let answer):
                if !answer.replayed { metrics.namespaces.applied(events.count, in: namespace) }
                var headers = [("Content-Type", "application/json")]
                if answer.replayed { headers.append(("Idempotent-Replayed", "true")) }
                done(HTTPResponse(status: 200, headers: headers, body: answer.body))
            case .failure(let error):
                done(APIError(error).response)
            }
        }
    }
}
