import Foundation
import LifecycleApplication
import LifecycleCore
@testable import LifecycleHosting
import LifecycleTesting
import TestSupport
import Testing

@testable import LifecycleServer

/// `GET /v1/apps?state=` reads the namespace's state index: the same answer as filtering every app, at
/// the cost of the apps in that state.
@Suite struct StateIndexTests {
    /// Every app id in `state`, page by page (`limit` 3, so cursors are exercised).
    private func listed(_ server: TestDaemon, state: String?) throws -> [String] {
        var ids: [String] = []
        var path = "/v1/apps?limit=3" + (state.map { "&state=" + $0 } ?? "")
        while true {
            let reply = try server.get(path)
            try #require(reply.status == 200, "\(reply.text)")
            for item in reply.items {
                if state == nil || item["state"] as? String == state { ids.append(item["id"] as? String ?? "?") }
            }
            guard let next = reply.object["next"] as? String else { return ids }
            path = "/v1/apps?limit=3&after=" + next + (state.map { "&state=" + $0 } ?? "")
        }
    }

    /// After every step of a seeded random walk (events, apps and devices created and deleted, resets), each
    /// filtered listing holds exactly the apps the unfiltered listing shows in that state, in id order.
    @Test func filteredListingsAgreeWithFilteringEveryAppThroughARandomWalk() throws {
        try withDaemon { server in
            var random = SplitMix64(seed: 14)  // the target's seeded generator
            var devices: [String] = []
            var apps: [String: String] = [:]  // app -> device
            var created = 0
            func addDevice() throws {
                created += 1
                let id = "d\(created)"
                try server.createDevice(#"{"id": "\#(id)", "iosVersion": "7.0"}"#)
                devices.append(id)
            }
            func addApp() throws {
                guard let device = devices.randomElement(using: &random) else { return }
                created += 1
                let id = "a\(created)"
                try server.createApp(#"{"id": "\#(id)", "device": "\#(device)", "bundleId": "com.example.\#(id)"}"#)
                apps[id] = device
            }
            // A realtime device whose apps only launch and quit: states the clock does not move.
            try server.createDevice(#"{"id": "rt", "iosVersion": "7.0", "clock": {"mode": "realtime"}}"#)
            for index in 0..<3 {
                try server.createApp(#"{"id": "rt\#(index)", "device": "rt", "bundleId": "com.example.rt\#(index)"}"#)
            }
            for _ in 0..<3 { try addDevice() }
            for _ in 0..<8 { try addApp() }
            let states = AppState.allCases.map(\.rawValue)
            // Built by the first filtered listing; kept from then on.
            _ = try listed(server, state: "active")
            for step in 0..<150 {
                switch random.next() % 20 {
                case 0: try addApp()
                case 1: try addDevice()
                case 2:
                    if let app = apps.keys.sorted().randomElement(using: &random) {
                        #expect(try server.delete("/v1/apps/\(app)").status == 204)
                        apps[app] = nil
                    }
                case 3:
                    if devices.count > 1, let device = devices.randomElement(using: &random) {
                        #expect(try server.delete("/v1/devices/\(device)").status == 204)
                        devices.removeAll { $0 == device }
                        apps = apps.filter { $0.value != device }
                    }
                case 4:
                    let app = "rt\(random.next() % 3)"
                    let type = random.next() % 2 == 0 ? "launch" : "forceQuit"
                    _ = try server.post("/v1/apps/\(app)/events", #"{"type": "\#(type)"}"#)
                case 5 where step % 50 == 5:
                    #expect(try server.request("POST", "/v1/reset").status == 204)
                    devices = []
                    apps = [:]
                    try addDevice()
                    try addApp()
                    try server.createDevice(#"{"id": "rt", "iosVersion": "7.0", "clock": {"mode": "realtime"}}"#)
                    for index in 0..<3 {
                        try server.createApp(
                            #"{"id": "rt\#(index)", "device": "rt", "bundleId": "com.example.rt\#(index)"}"#)
                    }
                default:
                    guard let app = apps.keys.sorted().randomElement(using: &random) else { continue }
                    let events = ["launch", "homeButton", "lock", "unlock", "terminate", "crash", "backgroundFetch"]
                    let type = events[Int(random.next() % UInt64(events.count))]
                    // Illegal events answer 409 and change nothing: either way the listings must agree.
                    _ = try server.post("/v1/apps/\(app)/events", #"{"type": "\#(type)"}"#)
                    if random.next() % 4 == 0, let device = apps[app] {
                        _ = try server.post("/v1/devices/\(device)/events", #"{"type": "advanceTime", "seconds": 700}"#)
                    }
                }
                let all = try server.get("/v1/apps?limit=1000").items
                for state in states {
                    let expected = all.filter { $0["state"] as? String == state }.map { $0["id"] as? String ?? "?" }
                    #expect(try listed(server, state: state) == expected, "step \(step), state \(state)")
                }
            }
        }
    }

    /// A filtered listing visits the apps in that state and the realtime devices' apps, not every app.
    @Test func theCandidatesAreTheAppsInThatStateAndTheRealtimeOnes() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "rt", "clock": {"mode": "realtime"}}"#)
            try server.createApp(#"{"id": "rt0", "device": "rt", "bundleId": "com.example.rt0"}"#)
            for device in 0..<10 {
                try server.createDevice(#"{"id": "d\#(device)"}"#)
                for app in 0..<20 {
                    let id = "a\(device)-\(app)"
                    try server.createApp(
                        #"{"id": "\#(id)", "device": "d\#(device)", "bundleId": "com.example.\#(id)"}"#)
                }
            }
            let index = server.service.application.namespaces.defaultSpace.stateIndex
            #expect(index.candidates(in: .active).map(\.id) == ["rt0"])
            for device in 0..<10 { try server.postEvents("/v1/apps/a\(device)-7/events", #"{"type": "launch"}"#) }
            #expect(index.candidates(in: .active).map(\.id) == (0..<10).map { "a\($0)-7" } + ["rt0"])
            #expect(index.candidates(in: .notRunning).count == 191)
            #expect(try server.delete("/v1/devices/d3").status == 204)
            #expect(index.candidates(in: .active).count == 10)
            #expect(index.candidates(in: .notRunning).count == 172)
            let reply = try server.get("/v1/apps?state=active")
            #expect(reply.items.map { $0["id"] as? String ?? "?" } == (0..<10).filter { $0 != 3 }.map { "a\($0)-7" })
        }
    }
}
