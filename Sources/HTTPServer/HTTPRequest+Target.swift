extension HTTPRequest {
    /// A request for a target as a client writes it (`/v1/apps?limit=2`), its path percent-decoded and its
    /// query's arguments split (the last of a repeated name wins; a name without `=` maps to ""), as the server
    /// gives them: for responders driven in process (the embedded daemon, the testing library).
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[Self.percentDecoded(nameValue[0])] = nameValue.count > 1 ? Self.percentDecoded(nameValue[1]) : ""
            }
        }
        self.init(method: method, path: Self.percentDecoded(parts[0]), query: query, headers: headers, body: body)
    }

    /// `%XX` as the byte it stands for; a `%` not followed by two hex digits stays as it is.
    static func percentDecoded(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = RequestTarget.hexValue(bytes[index + 1]), let low = RequestTarget.hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
