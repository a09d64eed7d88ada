/// The query parameters of paged reads and lists, range-checked: a value outside its range answers
/// `400 invalid-field` naming the range, never a trap.
package struct PageQuery: Equatable, Sendable {
    /// The largest `after`: a `seq` is an `Int64` on the wire, so 2^63−1.
    package static let maxAfter = UInt64(Int64.max)
    /// The largest `limit` of every page and list.
    package static let maxLimit = 1000
    package static let defaultLimit = 100

    package var after: UInt64?
    package var limit = PageQuery.defaultLimit
    /// Seconds to hold an empty page; 0 answers at once.
    package var wait = 0.0

    package init() {}
}
