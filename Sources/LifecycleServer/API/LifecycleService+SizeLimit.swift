import LifecycleCore
import LifecycleJSON
import LifecycleWire

extension LifecycleService {
    /// Refuses with 413 an event of `body` (one event or a batch), or a device or app description, whose
    /// compact JSON is over `maxEventBytes`: the request limit bounds a request, this bounds what one
    /// timeline entry or snapshot can hold.
    func checkSize(of body: JSONValue, rawBytes: Int, batch: Bool, what: String) throws(APIError) {
        let limit = options.maxEventBytes
        // A body no larger than the limit holds no event larger than it.
        guard rawBytes > limit else { return }
        let items: [JSONValue]
        if batch, case .array(let array) = body { items = array } else { items = [body] }
        for (index, item) in items.enumerated() {
            let size = JSONWriter.encode(item).count
            guard size > limit else { continue }
            var error = APIError.eventTooLarge(bytes: size, limit: limit, what: what)
            if items.count > 1 { error.extra["index"] = .number(Double(index)) }
            throw error
        }
    }
}
