import LifecycleCore
import LifecycleJSON

/// The request decoders as the API runs them, from raw body bytes: the JSON parser, then the decoder of an
/// event post, a device or an app. For fuzzing and tools; any input gives an answer, never a trap.
public enum BodyDecoding {
    public enum Kind: CaseIterable, Sendable {
        case appEvents, deviceEvents, device, app
    }

    /// Decodes `bytes` as the body of `kind`: nil when accepted, else the problem's `code` (and `field`).
    /// The problem document is rendered too, so its encoding runs on whatever the input held.
    public static func problem(decoding bytes: [UInt8], as kind: Kind) -> String? {
        do throws(APIError) {
            let body: JSONValue
            do {
                body = try JSONParser.parse(bytes)
            } catch {
                throw .invalidJSON("the body is not valid JSON: \(error)")
            }
            switch kind {
            case .appEvents: _ = try EventDecoder.decode(body, deviceOnly: false)
            case .deviceEvents: _ = try EventDecoder.decode(body, deviceOnly: true)
            case .device: _ = try DeviceRequest(body)
            case .app: _ = try AppRequest(body)
            }
            return nil
        } catch {
            _ = error.document
            return error.code.rawValue + (error.extra["field"]?.stringValue.map { " " + $0 } ?? "")
        }
    }
}
