import HTTPServer
public import LifecycleApplication
import LifecycleWire
import Locking
import Logging
import Synchronization

extension LifecycleService {
    /// Replaces the tokens in force (nil turns them off): at start and on `SIGHUP`.
    /// Replaces the tokens; the event streams the new ones no longer allow end at once (`revoked`).
    public func setTokens(_ table: TokenTable?) {
        let policy = AccessPolicy(table: table)
        application.access.withLock { $0 = policy }
        eventStreams.endRevoked(by: policy)
    }

    /// The 401 or 403 for `request` on `route` (nil when it may go on), and the name of the token it
    /// came with, when known.
    func accessDecision(_ request: HTTPRequest, match: Route.Match) -> (refusal: APIError?, token: String?) {
        let policy = application.access.withLock { $0 }
        switch policy.decide(
            method: request.method, scope: match.accessScope, authorization: request.header(.authorization))
        {
        case .allowed(let token):
            return (nil, token?.name)
        case .unauthorized(let detail):
            let error = APIError(
                .unauthorized, detail, headers: [("WWW-Authenticate", "Bearer realm=\"lifecycled\"")])
            logger.notice(
                "request refused",
                metadata: [
                    "status": .stringConvertible(401), "method": "\(request.loggedMethod)",
                    "path": "\(request.loggedPath)",
                ])
            return (error, nil)
        case .forbidden(let token, let detail):
            logger.notice(
                "request refused",
                metadata: [
                    "status": .stringConvertible(403), "token": "\(token.name)", "method": "\(request.loggedMethod)",
                    "path": "\(request.loggedPath)",
                ])
            return (APIError(.forbidden, detail), token.name)
        }
    }
}
