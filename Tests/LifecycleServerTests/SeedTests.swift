import Foundation
import LifecycleApplication
import LifecycleDaemon
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// `--seed`: scenarios applied at start-up, before the daemon is ready, into the namespaces they name, once.
@Suite struct SeedTests {
    static func seed(namespace: String?, _ steps: String) -> SeedScenario {
        let named = namespace.map { #""namespace": "\#($0)", "# } ?? ""
        return SeedScenario(
            file: "01_seed.json",
            bytes: Array(#"{"name": "seed", "source": "test", \#(named)"steps": [\#(steps)]}"#.utf8))
    }

    static let lockedPhone =
        #"{"do": "POST /v1/devices", "body": {"id": "phone"}, "status": 201}, {"do": "POST /v1/devices/phone/events", "body": {"type": "lock"}}, {"do": "GET /v1/devices/phone", "expect": {"locked": true}}"#

    @Test func aSeedAppliesOnceIntoTheNamespaceItNames() throws {
        try withTemporaryDirectory { directory in
            let seeds = [Self.seed(namespace: "team", Self.lockedPhone), Self.seed(namespace: nil, Self.lockedPhone)]
            do {
                let server = try TestDaemon(store: .sqlite(directory: directory), configure: { $0.seeds = seeds })
                defer { server.stop() }
                #expect(try server.get("/v1/namespaces/team/devices/phone").object["locked"] as? Bool == true)
                #expect(try server.get("/v1/devices/phone").object["locked"] as? Bool == true)
                try server.postEvents("/v1/namespaces/team/devices/phone/events", #"{"type": "unlock"}"#)
                try server.postEvents("/v1/devices/phone/events", #"{"type": "unlock"}"#)
            }
            // Applied again, the seeds would fail (the devices exist) and stop the start; they are skipped.
            let server = try TestDaemon(store: .sqlite(directory: directory), configure: { $0.seeds = seeds })
            defer { server.stop() }
            #expect(try server.get("/v1/namespaces/team/devices/phone").object["locked"] as? Bool == false)
            #expect(try server.get("/v1/devices/phone").object["locked"] as? Bool == false)
        }
    }

    @Test func aSeedThatFailsStopsTheStartAndLeavesNothing() throws {
        try withTemporaryDirectory { directory in
            let failing = Self.seed(
                namespace: "team", Self.lockedPhone + #", {"do": "GET /v1/devices/phone", "expect": {"locked": false}}"#
            )
            #expect {
                _ = try TestDaemon(store: .sqlite(directory: directory), configure: { $0.seeds = [failing] })
            } throws: { error in
                "\(error)".contains("cannot seed") && "\(error)".contains("step 4")
            }
            let server = try TestDaemon(store: .sqlite(directory: directory))
            defer { server.stop() }
            #expect(try server.get("/v1/namespaces/team").status == 404)
            let notAScenario = SeedScenario(file: "01_seed.json", bytes: Array(#"{"steps": []}"#.utf8))
            #expect(throws: DaemonError.self) {
                _ = try TestDaemon(configure: { $0.seeds = [notAScenario] })
            }
            // A seed that does not fit the format stops the start before any of it runs, naming the member.
            let misspelt = Self.seed(
                namespace: "typo", Self.lockedPhone + #", {"do": "GET /v1/devices/phone", "expcet": {"locked": true}}"#)
            #expect {
                _ = try TestDaemon(configure: { $0.seeds = [misspelt] })
            } throws: { error in
                "\(error)".contains("01_seed.json") && "\(error)".contains("expcet")
                    && "\(error)".contains("did you mean expect?")
            }
        }
    }

    @Test func seedPathsReadFilesAndFoldersInNameOrder() throws {
        try withTemporaryDirectory { directory in
            for name in ["02_b.json", "01_a.json", "notes.txt"] {
                try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name)"))
            }
            let read = try SeedScenario.read([directory], limit: 1024).map { ($0.file as NSString).lastPathComponent }
            #expect(read == ["01_a.json", "02_b.json"])
            #expect(throws: SeedError.self) { try SeedScenario.read(["\(directory)/missing.json"], limit: 1024) }
            // Bounded as an import's body is.
            #expect {
                try SeedScenario.read([directory], limit: 1)
            } throws: { error in
                "\(error)".contains("more bytes than a scenario may (1, --max-body-bytes)")
            }
        }
    }

    /// The limit holds for the bytes read, not for what the path's own size says: a symbolic link (whose size is
    /// its target's name) to a large file, or an endless one, is refused after reading one byte past the limit.
    @Test func theSeedLimitHoldsForTheBytesRead() throws {
        try withTemporaryDirectory { directory in
            let large = "\(directory)/large.json"
            try Data(String(repeating: " ", count: 4096).utf8).write(to: URL(fileURLWithPath: large))
            for (link, target) in [("linked.json", large), ("endless.json", "/dev/zero")] {
                try FileManager.default.createSymbolicLink(atPath: "\(directory)/\(link)", withDestinationPath: target)
                #expect {
                    try SeedScenario.read(["\(directory)/\(link)"], limit: 1024)
                } throws: { error in
                    "\(error)".contains("more bytes than a scenario may (1024, --max-body-bytes)")
                }
            }
            #expect(try SeedScenario.read(["\(directory)/linked.json"], limit: 4096).first?.bytes.count == 4096)
        }
    }
}
