extension Double {
    /// The number as a person writes it in a message: `1000000000000` rather than `1e+12`, `2.5` as is.
    public var plainText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return description
    }
}
