import Testing

@testable import LifecycleServer

@Suite("Route index")
struct RouteIndexTests {
    @Test("a route's index is its position in allCases, and its operations are its declaration's")
    func indexIsThePositionInAllCases() {
        #expect(MemoryLayout<Route>.size == 1)
        for (position, route) in Route.allCases.enumerated() {
            #expect(route.index == position, "\(route)")
            #expect(route.operations.map(\.method) == route.declaration.operations.map(\.method), "\(route)")
        }
    }
}
