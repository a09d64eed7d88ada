import Foundation
import LifecycleTesting
import Testing

/// Edges where the daemon and `api/openapi.yaml` once disagreed: what the spec allows is accepted, what it
/// refuses is refused.
@Suite struct ContractTests {
    @Test func aBundleIdOf255CharactersIsAcceptedWhateverItsBytesAnd256IsNot() throws {
        try withDaemon { server in
            let accepted = try server.post("/v1/apps", #"{"bundleId": "\#(String(repeating: "é", count: 255))"}"#)
            #expect(accepted.status == 201, "\(accepted.text)")
            let refused = try server.post("/v1/apps", #"{"bundleId": "\#(String(repeating: "é", count: 256))"}"#)
            expectProblem(refused, status: 400, code: "invalid-field")
            #expect(refused.string("field") == "bundleId")
        }
    }

    @Test(arguments: ["significantTime", "statusBarFrame"])
    func aMomentIsNotADeviceSetting(kind: String) throws {
        try withDaemon { server in
            let reply = try server.post("/v1/devices", #"{"settings": {"\#(kind)": 1}}"#)
            expectProblem(reply, status: 400, code: "invalid-field")
            #expect(reply.string("field") == "settings.\(kind)")
            #expect((reply.object["allowed"] as? [String])?.contains("orientation") == true)
            #expect(try server.get("/v1/devices").items.isEmpty)
        }
    }

    @Test(arguments: ["7.0", "02.0", "0002", "9999.9999.9999", "13.1.2"])
    func aVersionTheSpecAllowsIsAccepted(version: String) throws {
        try withDaemon { server in
            let reply = try server.post("/v1/devices", #"{"iosVersion": "\#(version)"}"#)
            #expect(reply.status == 201, "\(reply.text)")
        }
    }

    @Test(arguments: ["1.9", "0001.5", "10000", "7.0.0.0", "7.", ".7", "1e1"])
    func aVersionTheSpecRefusesIsRefused(version: String) throws {
        try withDaemon { server in
            let reply = try server.post("/v1/devices", #"{"iosVersion": "\#(version)"}"#)
            expectProblem(reply, status: 400, code: "invalid-field")
        }
    }
}
