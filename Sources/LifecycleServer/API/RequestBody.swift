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
}
