import Foundation
import Testing

/// Request members as the spec types them: schemathesis sends every value a schema allows.
@Suite("Members the spec allows")
struct NullableMembersTests {
    @Test("sceneDisconnectDelay: null is the default (never), as DeviceCreate says")
    func sceneDisconnectDelayNull() throws {
        try withLiveServer { (server: LiveServer) throws in
            let reply = try server.post("/v1/devices", #"{"id": "d", "sceneDisconnectDelay": null}"#)
            #expect(reply.status == 201, "\(reply.text)")
            #expect(reply.object["sceneDisconnectDelay"] is NSNull)
            let bad = try server.post("/v1/devices", #"{"sceneDisconnectDelay": "soon"}"#)
            expectProblem(bad, status: 400, code: "invalid-field")
        }
    }

    @Test("delegate.returns takes a string only for the configuration selector, as AppDelegate says")
    func returnsTypes() throws {
        try withLiveServer { (server: LiveServer) throws in
            let bool =
                #"{"bundleId": "com.example.a", "delegate": {"returns": {"applicationDidEnterBackground:": ""}}}"#
            expectProblem(try server.post("/v1/apps", bool), status: 400, code: "invalid-field")
        }
    }
}
