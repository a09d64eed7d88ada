import Dispatch
import Foundation
import HTTPServer
import LifecycleScenarios
import LifecycleServer
import Locking

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scenario requests handed to a service in this process, as the HTTP server would hand them (`InProcessExchange`).
struct InProcessScenarioTransport: ScenarioTransport {
    let exchange: InProcessExchange
    /// A step waits this long for its answer (a long poll's `wait` included), in seconds.
    static let timeout = 60.0

    init(service: LifecycleService) {
        exchange = InProcessExchange(responder: service)
    }

    func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, headers: [(String, String)], body: [UInt8])
    {
        do {
            let answer = try exchange.exchange(
                method: method, target: path, headers: headers.map { (name: $0.0, value: $0.1) }, body: body ?? [],
                within: Self.timeout)
            return (answer.status, answer.headers.map { ($0.name, $0.value) }, answer.body)
        } catch .eventStream {
            throw TransportError(description: "\(method) \(path) answered an event stream, which only --url reads")
        } catch {
            throw TransportError(description: "\(method) \(path): \(error)")
        }
    }
}

/// Scenario requests over HTTP to a running daemon.
struct URLSessionScenarioTransport: ScenarioTransport {
    let root: String

    func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
        -> (status: Int, headers: [(String, String)], body: [UInt8])
    {
        guard let url = URL(string: root + path) else {
            throw TransportError(description: "\(root + path) is not a URL")
        }
        var request = URLRequest(url: url, timeoutInterval: 60)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = Data(body) }
        let answered = DispatchSemaphore(value: 0)
        let outcome = Protected<(Data?, URLResponse?, (any Error)?)>((nil, nil, nil))
        URLSession.shared.dataTask(with: request) { data, response, error in
            outcome.withLock { $0 = (data, response, error) }
            answered.signal()
        }.resume()
        answered.wait()
        let (data, response, error) = outcome.withLock { $0 }
        guard let response = response as? HTTPURLResponse else {
            throw TransportError(description: "\(method) \(path): \(error.map { "\($0)" } ?? "no answer")")
        }
        let fields = response.allHeaderFields.compactMap { name, value in
            (name as? String).map { ($0, "\(value)") }
        }
        return (response.statusCode, fields, Array(data ?? Data()))
    }
}

struct TransportError: Error, CustomStringConvertible {
    var description: String
}
