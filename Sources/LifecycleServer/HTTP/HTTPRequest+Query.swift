import HTTPServer
import LifecycleApplication
import LifecycleWire

extension HTTPRequest {
    /// `after`, `limit` and `wait` of paged timeline reads; `wait` above `maxWait` answers 400.
    func pageQuery(maxWait: Double) throws(APIError) -> PageQuery {
        var page = PageQuery()
        if let text = query["after"] {
            guard let value = UInt64(text), value <= PageQuery.maxAfter else {
                throw .invalidField(
                    "after", "after must be a seq: a whole number from 0 to \(PageQuery.maxAfter), not \"\(text)\"")
            }
            page.after = value
        }
        page.wait = try waitQuery(maxWait: maxWait)
        page.limit = try limitQuery()
        return page
    }

    /// `wait`: seconds a long poll is held, 0 when absent; above `maxWait` answers 400.
    func waitQuery(maxWait: Double) throws(APIError) -> Double {
        guard let text = query["wait"] else { return 0 }
        guard let value = Double(text), value.isFinite, value >= 0, value <= maxWait else {
            throw .invalidField(
                "wait", "wait must be a number of seconds from 0 to \(maxWait.formatted) (--max-wait), not \"\(text)\"")
        }
        return value
    }

    /// `limit` and `after` (an id) of device and app lists.
    func listQuery() throws(APIError) -> (limit: Int, after: String?) {
        let limit = try limitQuery()
        guard let after = query["after"] else { return (limit, nil) }
        guard Identifier.isValid(after) else {
            throw .invalidField("after", "after must be an id, [A-Za-z0-9._-]{1,128} (a page's next), not \"\(after)\"")
        }
        return (limit, after)
    }

    /// `limit`: 1 to 1000, 100 when absent.
    private func limitQuery() throws(APIError) -> Int {
        guard let text = query["limit"] else { return PageQuery.defaultLimit }
        guard let value = Int(text), (1...PageQuery.maxLimit).contains(value) else {
            throw .invalidField(
                "limit", "limit must be a whole number from 1 to \(PageQuery.maxLimit), not \"\(text)\"")
        }
        return value
    }
}

extension Double {
    /// `60` rather than `60.0` for whole numbers, for messages.
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
