import HTTPServer

extension HTTPRequest {
    /// `after`, `limit` and `wait` of paged timeline reads.
    func pageQuery() throws(APIError) -> (after: UInt64?, limit: Int, wait: Double) {
        var after: UInt64?
        if let text = query["after"] {
            guard let value = UInt64(text) else {
                throw .invalidField("after", "after must be a seq: a whole number, 0 or more, not \"\(text)\"")
            }
            after = value
        }
        var wait = 0.0
        if let text = query["wait"] {
            guard let value = Double(text), value >= 0, value <= 60 else {
                throw .invalidField("wait", "wait must be a number of seconds from 0 to 60, not \"\(text)\"")
            }
            wait = value
        }
        return (after, try limitQuery(), wait)
    }

    /// `limit` and `after` (an id) of device and app lists.
    func listQuery() throws(APIError) -> (limit: Int, after: String?) {
        (try limitQuery(), query["after"])
    }

    /// `limit`: 1 to 1000, 100 when absent.
    private func limitQuery() throws(APIError) -> Int {
        guard let text = query["limit"] else { return 100 }
        guard let value = Int(text), (1...1000).contains(value) else {
            throw .invalidField("limit", "limit must be a whole number from 1 to 1000, not \"\(text)\"")
        }
        return value
    }
}
