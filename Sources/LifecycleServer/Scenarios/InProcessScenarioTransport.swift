import HTTPServer
import LifecycleScenarios

/// Scenario requests handed to a service in this process, as the HTTP server would hand them (`InProcessExchange`).
package struct InProcessScenarioTransport: ScenarioTransport {
    let exchange: InProcessExchange
    /// A step waits this long for its answer (a long poll's `wait` included), in seconds.
    static let timeout = 60.0

    package init(service: LifecycleService) {
        exchange = InProcessExchange(responder: service)
    }

    package func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
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
