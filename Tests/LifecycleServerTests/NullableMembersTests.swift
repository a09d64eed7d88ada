import Foundation
import LifecycleTesting
import Testing

/// Request members as the spec types them: schemathesis sends every value a schema allows.
@Suite("Members the spec allows")
struct NullableMembersTests {
    @Test("sceneDisconnectDelay: null is the default (never), as DeviceCreate says")
    func sceneDisconnectDelayNull() throws {
        try withDaemon { (server: TestDaemon) throws in
            let reply = try server.post("/v1/devices", #"{"id": "d", "sceneDisconnectDelay": null}"#)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.object["sceneDisconnectDelay"] is NSNull)
            let bad = try server.post("/v1/devices", #"{"sceneDisconnectDelay": "soon"}"#)
            expectProblem(bad, status: 400, code: "invalid-field")
        }
    }

    @Test("info.sceneManifest: null is no manifest, as AppInfo says")
    func sceneManifestNull() throws {
        try withDaemon { (server: TestDaemon) throws in
            let body =
                #"{"id": "a", "bundleId": "com.example.a", "iosVersion": "17.0", "info": {"sceneManifest": null}}"#
            let reply = try server.post("/v1/apps", body)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.string("lifecycle") == "appDelegate")
        }
    }

    @Test("A scene configuration's delegateClass: null is a scene without a delegate, as its schema says")
    func delegateClassNull() throws {
        try withDaemon { (server: TestDaemon) throws in
            let body = """
                {"id": "a", "bundleId": "com.example.a", "iosVersion": "17.0",
                 "info": {"sceneManifest": {"configurations": [{"name": "Default", "delegateClass": null}]}}}
                """
            let reply = try server.post("/v1/apps", body)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.string("lifecycle") == "scene")
            let configurations = (reply.object["info"] as? [String: Any]).flatMap {
                ($0["sceneManifest"] as? [String: Any])?["configurations"] as? [[String: Any]]
            }
            #expect(configurations?.first?["delegateClass"] is NSNull)
        }
    }

    @Test("delegate.returns takes a string only for the configuration selector, as AppDelegate says")
    func returnsTypes() throws {
        try withDaemon { (server: TestDaemon) throws in
            let bool =
                #"{"bundleId": "com.example.a", "delegate": {"returns": {"applicationDidEnterBackground:": ""}}}"#
            expectProblem(try server.post("/v1/apps", bool), status: 400, code: "invalid-field")
        }
    }
}
