import Foundation
import LifecycleTesting
import TestSupport
import Testing

@Suite struct ConcurrencyTests {
    /// One answer to an events request, as a client saw it.
    struct Answer: Sendable {
        var device: String
        var status: Int
        /// The entries' `seq` and canonical JSON, in the order answered.
        var entries: [Seq]
    }

    struct Seq: Sendable {
        var seq: Int
        var json: String
    }

    static let threadsPerGroup = 8
    static let requestsPerThread = 50
    static let hotApps = 4
    static let coldDevices = 16

    /// Alternates a launch batch and a Home batch; apps on one device take the foreground from each other.
    private static func drive(
        _ server: TestDaemon, target: (Int) -> (device: String, app: String)
    ) throws -> [Answer] {
        try (0..<requestsPerThread).map { request in
            let (device, app) = target(request)
            let body =
                request.isMultiple(of: 2)
                ? #"[{"type": "launch"}, {"type": "touch"}]"# : #"[{"type": "homeButton"}, {"type": "redraw"}]"#
            let reply = try server.post("/v1/apps/\(app)/events", body)
            let entries = reply.entries.map { Seq(seq: ($0["seq"] as? NSNumber)?.intValue ?? -1, json: canonical($0)) }
            return Answer(device: device, status: reply.status, entries: entries)
        }
    }

    @Test func concurrentClientsOnOneDeviceAndOnManyLeaveGaplessTimelinesThatMatchEveryAnswer() throws {
        try withDaemon { server in
            try server.createDevice(#"{"id": "hot", "iosVersion": "7.0"}"#)
            for app in 0..<Self.hotApps {
                try server.createApp(#"{"id": "hot-\#(app)", "device": "hot", "bundleId": "com.example.h\#(app)"}"#)
            }
            for device in 0..<Self.coldDevices {
                try server.createDevice(#"{"id": "cold-\#(device)", "iosVersion": "9.0"}"#)
                try server.createApp(
                    #"{"id": "cold-\#(device)-a", "device": "cold-\#(device)", "bundleId": "com.example.c"}"#)
                try server.createApp(
                    #"{"id": "cold-\#(device)-b", "device": "cold-\#(device)", "bundleId": "com.example.c"}"#)
            }

            let hot = (0..<Self.threadsPerGroup).map { thread in
                Background {
                    try Self.drive(server) { request in
                        ("hot", "hot-\((thread + request) % Self.hotApps)")
                    }
                }
            }
            let cold = (0..<Self.threadsPerGroup).map { thread in
                Background {
                    try Self.drive(server) { request in
                        let device = "cold-\((thread * 7 + request) % Self.coldDevices)"
                        return (device, device + ((request / 2 + thread).isMultiple(of: 2) ? "-a" : "-b"))
                    }
                }
            }
            let answers = try (hot + cold).flatMap { try $0.join() }

            #expect(answers.count == 2 * Self.threadsPerGroup * Self.requestsPerThread)
            let unexpected = answers.filter { $0.status != 200 && $0.status != 409 }
            #expect(unexpected.isEmpty, "statuses: \(unexpected.map(\.status))")
            #expect(answers.filter { $0.status == 200 }.count > answers.count / 2)

            for device in ["hot"] + (0..<Self.coldDevices).map({ "cold-\($0)" }) {
                let timeline = try server.allEntries("/v1/devices/\(device)/timeline", limit: 37)
                let timelineSeqs = seqs(timeline)
                #expect(!timeline.isEmpty, "\(device)")
                #expect(timelineSeqs == Array(0..<timeline.count).map { $0 + 1 }, "\(device): a gap or a duplicate")
                let bySeq = Dictionary(zip(timelineSeqs, timeline.map(canonical))) { first, _ in first }
                for answer in answers where answer.device == device {
                    #expect(answer.entries.map(\.seq) == answer.entries.map(\.seq).sorted(), "\(device)")
                    for entry in answer.entries {
                        #expect(bySeq[entry.seq] == entry.json, "\(device) seq \(entry.seq)")
                    }
                }
                let answered = answers.filter { $0.device == device }.flatMap(\.entries).map(\.seq)
                #expect(Set(answered).count == answered.count, "\(device): an entry was answered twice")
                #expect(Set(answered) == Set(timelineSeqs), "\(device): an entry no answer reported")
            }
        }
    }
}
