import LifecycleClient
import LifecycleEmbedded
import Testing

// docs/CLIENTS.md, "Swift: the client library": the example, in a team's own package.
func mailSuspendsOnHome(_ lifecycled: LifecycledClient) async throws {
    let mail = try await lifecycled.createApp(id: "mail", bundleId: "com.example.mail")
    try await mail.send(.launch, .homeButton)
    try await mail.waitUntil(.suspended)
    let callbacks = try await mail.callbacks().items.map(\.selector)
    #expect(callbacks.last == "applicationDidEnterBackground:")
}

@Test func mailSuspendsInsideTheTestProcess() async throws {
    let daemon = try EmbeddedDaemon()
    defer { daemon.stop() }
    try await mailSuspendsOnHome(daemon.client(namespace: "ci-42"))
}
