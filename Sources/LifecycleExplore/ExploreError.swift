/// Why a scenario cannot be explored, or an option makes no exploration: what was wrong and what is allowed.
package struct ExploreError: Error, CustomStringConvertible, Sendable {
    package var description: String

    package init(_ description: String) { self.description = description }
}
