import Testing

@testable import LifecycleApplication

/// The rules of an import's steps, decided by the application from what the route table says of each step.
@Suite("Import steps")
struct ImportStepsTests {
    static func step(
        _ method: String, _ path: String, use: ImportUse?, id: String? = nil, body: String = "{}",
        inNamespace: Bool = true, waits: Bool = false, declared: Bool = true
    ) -> ImportStep {
        ImportStep(
            method: method, path: path, inNamespace: inNamespace, waits: waits, declared: declared, use: use, id: id,
            body: Array(body.utf8))
    }

    @Test("a step outside the namespace, one that waits, and one no import takes are refused, naming why")
    func refusals() {
        let steps = ImportSteps()
        #expect(
            steps.refusal(of: Self.step("GET", "/v1/namespaces/b/devices/d", use: .ownDevice, inNamespace: false))
                == "/v1/namespaces/b/devices/d is outside the namespace the import applies to")
        #expect(
            steps.refusal(of: Self.step("GET", "/v1/apps/a/timeline", use: .ownApp, id: "a", waits: true))
                == "an import does not wait: leave out wait")
        #expect(
            steps.refusal(of: Self.step("POST", "/v1/reset", use: nil))
                == "an import creates devices and apps and drives, reads and deletes them; POST /v1/reset is none of that"
        )
        // A method the route does not answer is answered 405, as outside an import.
        #expect(steps.refusal(of: Self.step("PATCH", "/v1/devices", use: nil, declared: false)) == nil)
    }

    @Test("an import creates ids the namespace does not hold and touches only what it created")
    func ownership() {
        let steps = ImportSteps(taken: { id, app in id == (app ? "taken-app" : "taken-device") })
        #expect(
            steps.refusal(of: Self.step("POST", "/v1/devices", use: .createDevice, body: #"{"id":"taken-device"}"#))
                == "device taken-device already exists in the namespace the import applies to")
        #expect(
            steps.refusal(of: Self.step("POST", "/v1/apps", use: .createApp, body: #"{"id":"taken-app"}"#))
                == "app taken-app already exists in the namespace the import applies to")
        #expect(
            steps.refusal(of: Self.step("POST", "/v1/apps", use: .createApp, body: #"{"id":"a","device":"d"}"#))
                == "the app is for device d, which the import did not create")
        #expect(
            steps.refusal(of: Self.step("GET", "/v1/devices/d", use: .ownDevice, id: "d"))
                == "the import may touch only the devices it creates, and d is not one")
        #expect(
            steps.refusal(of: Self.step("GET", "/v1/apps/a", use: .ownApp, id: "a"))
                == "the import may touch only the apps it creates, and a is not one")

        steps.note(.createDevice, answer: Array(#"{"id":"d"}"#.utf8))
        steps.note(.createApp, answer: Array(#"{"id":"a","device":"d2"}"#.utf8))
        steps.note(.ownApp, answer: Array(#"{"id":"x"}"#.utf8))
        #expect(steps.created.devices == ["d", "d2"])
        #expect(steps.created.apps == ["a"])
        #expect(steps.refusal(of: Self.step("GET", "/v1/devices/d", use: .ownDevice, id: "d")) == nil)
        #expect(steps.refusal(of: Self.step("DELETE", "/v1/apps/a", use: .ownApp, id: "a")) == nil)
        #expect(
            steps.refusal(of: Self.step("POST", "/v1/apps", use: .createApp, body: #"{"id":"b","device":"d"}"#))
                == nil)
    }
}
