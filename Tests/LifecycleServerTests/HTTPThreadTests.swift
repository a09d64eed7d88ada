import Dispatch
import Foundation
@testable import LifecycleHosting
import LifecycleTesting
import Locking
import Synchronization
import TestSupport
import Testing

@testable import LifecycleServer

/// No HTTP thread waits for a device: requests to a device whose queue is stuck park, and the server's
/// two threads go on answering everyone else.
@Suite struct HTTPThreadTests {
    @Test func requestsToAStuckDeviceParkAndOtherDevicesStillAnswer() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "stuck"}"#)
            try server.createDevice(#"{"id": "free"}"#)
            let host = try #require(server.service.registry.device("stuck"))
            let release = DispatchSemaphore(value: 0)
            host.queue.async { release.wait() }
            // Released on every path: stopping the server waits for the device's queue.
            var released = false
            defer { if !released { release.signal() } }
            // Three times as many requests as the server has threads, all for the stuck device.
            let sent = Protected(0)
            let stuck = (0..<6).map { _ in
                Background {
                    sent.update { $0 += 1 }
                    return try server.post("/v1/devices/stuck/events", #"{"type": "lock"}"#)
                }
            }
            #expect(eventually { sent.get() == 6 && server.service.inFlight.load(ordering: .relaxed) == 6 })
            // Were an HTTP thread to wait for the stuck queue, these would wait with it, unanswered (their client
            // gives up and throws) until the queue is released below.
            for _ in 0..<10 {
                try server.postEvents("/v1/devices/free/events", #"[{"type": "lock"}, {"type": "unlock"}]"#)
                #expect(try server.get("/v1/devices/free").status == 200)
            }
            release.signal()
            released = true
            let statuses = try stuck.map { try $0.join().status }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
        }
    }
}
