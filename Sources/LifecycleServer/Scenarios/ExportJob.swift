import Dispatch
import HTTPServer
import LifecycleApplication
import LifecycleWire
import Logging

/// One export under way: `ScenarioExport.Writer` run on a serial queue of its own, never on an HTTP thread or
/// a device's queue (docs/ARCHITECTURE.md, section 3).
///
/// It writes up to a buffer's worth before it answers, so that an error found by then answers its problem as
/// before exports streamed (an export that small answers whole), then answers `200` with a `ByteStream` and
/// writes on as the connection takes what was written. While the buffer is full it holds no thread: the
/// stream's room resumes it. A client that leaves closes the stream: the writer stops, and the job, its copies
/// of the devices and its buffer go. An error after the first byte cuts the stream (the client sees an
/// incomplete body).
final class ExportJob: @unchecked Sendable {
    private let queue = DispatchQueue(label: "lifecycled.export", qos: .utility, target: .global(qos: .utility))
    /// Touched on `queue` only; nil once the export is over.
    private var writer: ScenarioExport.Writer?
    private var stream: ByteStream?
    private let slot: ExportSlots.Slot
    private let bufferBytes: Int
    private let logger: Logger

    private init(slot: ExportSlots.Slot, bufferBytes: Int, logger: Logger) {
        self.slot = slot
        self.bufferBytes = bufferBytes
        self.logger = logger
    }

    /// Starts an export holding `slot`: `make` makes its writer (on the export's queue: it decodes every
    /// record once), and `done` gets the answer, with `headers` when it is the scenario.
    static func start(
        slot: ExportSlots.Slot, bufferBytes: Int, headers: [(name: String, value: String)], logger: Logger,
        make: @escaping @Sendable () throws -> ScenarioExport.Writer, done: AnswerSink
    ) {
        let job = ExportJob(slot: slot, bufferBytes: bufferBytes, logger: logger)
        job.queue.async { job.begin(make, headers: headers, done: done) }
    }

    private func begin(
        _ make: () throws -> ScenarioExport.Writer, headers: [(name: String, value: String)], done: AnswerSink
    ) {
        var first: [UInt8] = []
        var complete = false
        do {
            var writer = try make()
            while first.count < bufferBytes {
                guard let piece = try writer.next() else {
                    complete = true
                    break
                }
                first += piece
            }
            if !complete { self.writer = writer }
        } catch {
            slot.release()
            return done(Self.notReplayed(error).response)
        }
        let stream = ByteStream(capacity: bufferBytes, onClose: { [slot] in slot.release() })
        slot.hold { stream.bufferedBytes }
        stream.write(first)
        if complete { stream.finish() } else { self.stream = stream }
        done(HTTPResponse(status: 200, headers: headers, stream: stream.http))
        if !complete { write() }
    }

    /// Writes while the stream has room; resumed by the stream once the connection took enough.
    private func write() {
        guard let stream else { return }
        while stream.hasRoom(orWhenRoom: { [self] in queue.async { self.write() } }) {
            do {
                guard let piece = try writer?.next() else {
                    stream.finish()
                    return end()
                }
                guard stream.write(piece) else { return end() }
            } catch {
                logger.error("an export stopped part way: \(error)", metadata: ["namespace": "\(slot.namespace)"])
                stream.cut(instead: Self.notReplayed(error).response)
                return end()
            }
        }
    }

    /// The writer is done: its copies go now.
    private func end() {
        writer = nil
        stream = nil
    }

    /// Recorded inputs were accepted once: they decode and replay. This answers rather than trapping.
    private static func notReplayed(_ error: any Error) -> APIError {
        APIError(.notExportable, "a recorded input does not replay: \(error)")
    }
}
