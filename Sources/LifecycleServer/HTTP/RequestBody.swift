import HTTPServer
import LifecycleCore
import LifecycleJSON
import LifecycleWire

extension HTTPRequest {
    /// The JSON body; nil when there is none. 415 for a body not labelled `application/json` (or `+json`):
    /// a web page can send form, text or multipart bodies to any server without asking, never JSON.
    func jsonBody() throws(APIError) -> JSONValue? {
        let significant = body.contains { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        guard significant else { return nil }
        let type = header(.contentType) ?? ""
        // What nearly every client sends, checked without splitting or copying the header.
        if type != "application/json" {
            let mediaType =
                type.split(separator: ";").first.map { $0.trimmingCharacters(in: " \t").lowercased() } ?? ""
            guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
                throw .unsupportedMediaType(mediaType.isEmpty ? "a body without Content-Type" : mediaType)
            }
        }
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
