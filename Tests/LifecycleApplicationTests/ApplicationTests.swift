import LifecycleCore
import LifecycleHosting
import LifecyclePersistence
import LifecycleStore
import LifecycleWire
import Locking
import Logging
import TestSupport
import Testing

@testable import LifecycleApplication

/// The application on its own, with no HTTP in front of it: what it journals, it recovers.
@Suite("Application")
struct ApplicationTests {
    /// Hosting's rendering, which these tests never ask for (they apply no events).
    struct NoRendering: HostRendering {
        func answer(to applied: AppliedEvents, notingEntries: Bool) -> RenderedAnswer {
            RenderedAnswer(body: [], entries: [])
        }
    }

    static func application(_ journal: any Journal, maxNamespaces: Int = 10) -> Application {
        var options = ServiceOptions()
        options.maxNamespaces = maxNamespaces
        options.clock = ManualHostClock(now: 1_000)
        var logger = Logger(label: "ApplicationTests")
        logger.logLevel = .error
        return Application(journal: journal, options: options, logger: logger, rendering: NoRendering())
    }

    @Test("A seed applies to a namespace that does not exist, or to an empty default, and to nothing else")
    func seedsApplyOnce() throws {
        let application = Self.application(MemoryJournal())
        _ = try application.recover(seeding: {})
        #expect(application.seedApplies(to: "default"))
        #expect(application.seedApplies(to: "mail"))
        _ = try application.obtainNamespace(
            "mail", settings: NamespaceSettings(createdAt: 1_000, lastUsedAt: 1_000), method: "POST",
            authorization: { nil })
        #expect(!application.seedApplies(to: "mail"))
        let created = Protected<Bool?>(nil)
        try application.createDevice(
            in: application.namespaces.defaultSpace, id: "d1", request: try DeviceRequest(.object([:]))
        ) { result in created.withLock { $0 = (try? result.get()) != nil } }
        #expect(eventually { created.withLock { $0 } != nil })
        #expect(created.withLock { $0 } == true)
        #expect(!application.seedApplies(to: "default"))
    }

    @Test("A namespace it creates is journaled with its settings, and the next start recovers it")
    func namespacesAreRecovered() throws {
        try TemporaryDirectory.with { directory in
            let logger = Logger(label: "ApplicationTests")
            let journal = try SQLiteJournal(directory: directory.path, logger: logger)
            let first = Self.application(journal)
            _ = try first.recover(seeding: {})
            var settings = NamespaceSettings(createdAt: 1_000, lastUsedAt: 1_000, labels: ["team": "mail"])
            settings.ttlSeconds = 3_600
            let (space, created) = try first.obtainNamespace(
                "mail", settings: settings, method: "POST", authorization: { nil })
            #expect(created)
            #expect(space.settings.labels == ["team": "mail"])
            journal.flush()
            journal.close()

            let reopened = try SQLiteJournal(directory: directory.path, logger: logger)
            defer { reopened.close() }
            let second = Self.application(reopened)
            _ = try second.recover(seeding: {})
            #expect(second.isReady)
            let recovered = try #require(second.namespaces.existing("mail"))
            #expect(recovered.settings.labels == ["team": "mail"])
            #expect(recovered.settings.ttlSeconds == 3_600)
            #expect(second.namespaces.all().map(\.name) == ["default", "mail"])
        }
    }

    @Test("Past --max-namespaces a creation is refused with 403 quota-exceeded and nothing is made")
    func namespaceQuota() throws {
        let app = Self.application(MemoryJournal(), maxNamespaces: 1)
        _ = try app.recover(seeding: {})
        let now = 1_000.0
        _ = try app.obtainNamespace(
            "one", settings: NamespaceSettings(createdAt: now, lastUsedAt: now), method: "POST",
            authorization: { nil })
        #expect(throws: APIError.self) {
            _ = try app.obtainNamespace(
                "two", settings: NamespaceSettings(createdAt: now, lastUsedAt: now), method: "POST",
                authorization: { nil })
        }
        do {
            _ = try app.obtainNamespace(
                "two", settings: NamespaceSettings(createdAt: now, lastUsedAt: now), method: "POST",
                authorization: { nil })
        } catch {
            #expect(error.code == .quotaExceeded)
            #expect(error.extra["limit"] == .number(1))
        }
        #expect(app.namespaces.existing("two") == nil)
    }
}
