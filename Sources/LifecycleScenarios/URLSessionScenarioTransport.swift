import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scenario requests over HTTP to a running daemon.
package struct URLSessionScenarioTransport: ScenarioTransport {
    package let root: String

    /// `root`: the daemon's URL, without a trailing slash.
    package init(root: String) { self.root = root.hasSuffix("/") ? String(root.dropLast()) : root }

    package func exchange(method: String, path: String, headers: [(String, String)], body: [UInt8]?) throws
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
        let outcome = Outcome()
        URLSession.shared.dataTask(with: request) { data, response, error in
            (outcome.data, outcome.response, outcome.error) = (data, response, error)
            answered.signal()
        }.resume()
        answered.wait()
        let (data, response, error) = (outcome.data, outcome.response, outcome.error)
        guard let response = response as? HTTPURLResponse else {
            throw TransportError(description: "\(method) \(path): \(error.map { "\($0)" } ?? "no answer")")
        }
        let fields = response.allHeaderFields.compactMap { name, value in
            (name as? String).map { ($0, "\(value)") }
        }
        return (response.statusCode, fields, Array(data ?? Data()))
    }
}

/// What the session's completion handler was given: written once on its thread, read after the semaphore it
/// signals, which orders the two.
private final class Outcome: @unchecked Sendable {
    var data: Data?
    var response: URLResponse?
    var error: (any Error)?
}

/// A request that got no answer.
package struct TransportError: Error, CustomStringConvertible {
    package var description: String

    package init(description: String) { self.description = description }
}
