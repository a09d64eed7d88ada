import HTTPServer
import LifecycleCore

extension HTTPRequest {
    /// The JSON body; nil when there is none. 415 for a body that says it is something else.
    func jsonBody() throws(APIError) -> JSONValue? {
        if let type = header("Content-Type") {
            let mediaType = type.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() } ?? ""
            // curl -d sends form encoding by default; its bodies are read as JSON so pasted commands work.
            let accepted =
                mediaType == "application/json" || mediaType.hasSuffix("+json")
                || mediaType == "application/x-www-form-urlencoded"
            if !accepted && !(body.isEmpty && mediaType.isEmpty) { throw .unsupportedMediaType(mediaType) }
        }
        let significant = body.contains { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        guard significant else { return nil }
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .invalidJSON("the body is not valid JSON: \(error)")
        }
    }

    func requiredJSONBody() throws(APIError) -> JSONValue {
        guard let body = try jsonBody() else { throw .invalidJSON("a JSON body is required") }
        return body
    }

    /// `after`, `limit` and `wait` of paged reads.
    func pageQuery() throws(APIError) -> (after: UInt64?, limit: Int, wait: Double) {
        var after: UInt64?
        if let text = query["after"] {
            guard let value = UInt64(text) else {
                throw .invalidField("after", "after must be a seq: a whole number, 0 or more, not \"\(text)\"")
            }
            after = value
        }
        var limit = 100
        if let text = query["limit"] {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw .invalidField("limit", "limit must be a whole number from 1 to 1000, not \"\(text)\"")
            }
            limit = value
        }
        var wait = 0.0
        if let text = query["wait"] {
            guard let value = Double(text), value >= 0, value <= 60 else {
                throw .invalidField("wait", "wait must be a number of seconds from 0 to 60, not \"\(text)\"")
            }
            wait = value
        }
        return (after, limit, wait)
    }
}
