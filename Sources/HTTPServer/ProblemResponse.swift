/// The `application/problem+json` answers the HTTP layer produces on its own.
enum ProblemResponse {
    static func payloadTooLarge(bodyBytes: UInt64, maxBodyBytes: Int) -> HTTPResponse {
        problem(
            status: 413,
            title: "Payload Too Large",
            detail: "The request body is \(bodyBytes) bytes; at most \(maxBodyBytes) are allowed.",
            code: "payload-too-large"
        )
    }

    /// For a body sent without `Content-Length` (chunked), whose full size is never read.
    static func payloadTooLarge(maxBodyBytes: Int) -> HTTPResponse {
        problem(
            status: 413,
            title: "Payload Too Large",
            detail: "The request body is larger than the \(maxBodyBytes) bytes allowed.",
            code: "payload-too-large"
        )
    }

    /// The `Host` names no name of this server (DNS rebinding, or a misdirected request).
    static func misdirected(host: String, allowed: [String]) -> HTTPResponse {
        problem(
            status: 421,
            title: "Misdirected Request",
            detail:
                "Host \"\(host)\" does not name this server; it answers to an IP address, \(allowed.joined(separator: ", ")) (more with --allowed-host).",
            code: "misdirected-request"
        )
    }

    static func crossOrigin(origin: String) -> HTTPResponse {
        problem(
            status: 403,
            title: "Forbidden",
            detail:
                "A state-changing request from the web page at \(origin) is refused; only this server's own origin and those given with --allowed-origin may send one.",
            code: "cross-origin-request"
        )
    }

    static let crossSite = problem(
        status: 403,
        title: "Forbidden",
        detail:
            "A state-changing request sent cross-site by a browser (Sec-Fetch-Site: cross-site) is refused; send it from this server's own origin or one given with --allowed-origin.",
        code: "cross-origin-request"
    )

    /// Where the request's body ends is unclear: answered, then the connection is closed.
    static func badFraming(_ detail: String, status: Int = 400, code: String) -> HTTPResponse {
        problem(
            status: status,
            title: status == 501 ? "Not Implemented" : "Bad Request",
            detail: detail,
            code: code,
            extraHeaders: [("Connection", "close")]
        )
    }

    /// Sent, as far as it goes, to a parked request whose client hung up: it only makes libmicrohttpd close.
    static let clientGone = problem(
        status: 499,
        title: "Client Closed Request",
        detail: "The client closed the connection before the answer.",
        code: "client-gone",
        extraHeaders: [("Connection", "close")]
    )

    static let shuttingDown = problem(
        status: 503,
        title: "Service Unavailable",
        detail: "The server is shutting down.",
        code: "shutting-down",
        extraHeaders: [("Connection", "close")]
    )

    static func problem(
        status: Int,
        title: String,
        detail: String,
        code: String,
        extraHeaders: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        var json = #"{"type":"about:blank","title":"#
        appendJSONString(title, to: &json)
        json += #","status":\#(status),"detail":"#
        appendJSONString(detail, to: &json)
        json += #","code":"#
        appendJSONString(code, to: &json)
        json += "}"
        return HTTPResponse(
            status: status,
            headers: [("Content-Type", "application/problem+json")] + extraHeaders,
            body: Array(json.utf8)
        )
    }

    private static func appendJSONString(_ string: String, to json: inout String) {
        json += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
