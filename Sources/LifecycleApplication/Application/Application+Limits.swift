import CoreMetrics
package import LifecycleCore
import LifecycleHosting
import LifecycleJSON
package import LifecycleStore
package import LifecycleWire
import Locking
import Logging

extension Application {
    /// Throws `507 memory-budget-exceeded` when `bytes` more of what nothing evicts (descriptions: devices, apps,
    /// an import's) would not fit in the daemon's or the namespace's budget (`MemoryBudget`); nothing changed then.
    package func admitMemory(_ bytes: Int, in namespace: String, what: String) throws(APIError) {
        guard let refusal = memoryBudget.refusal(adding: bytes, in: namespace) else { return }
        let (budget, option) =
            refusal.namespace.map { ("the namespace \($0)'s", "--namespace-memory-bytes") } ?? (
                "the daemon's", "--memory-bytes"
            )
        var error = APIError(
            .memoryBudgetExceeded,
            "\(what) takes \(refusal.asked) bytes, and \(budget) memory budget (\(option), \(refusal.limit) bytes) holds "
                + "\(refusal.used) bytes of descriptions already, which nothing evicts: delete devices, apps or "
                + "namespaces, or raise \(option); nothing changed")
        error.extra["budget"] = .string(refusal.namespace == nil ? "daemon" : "namespace")
        error.extra["limit"] = .number(Double(refusal.limit))
        error.extra["used"] = .number(Double(refusal.used))
        error.extra["asked"] = .number(Double(refusal.asked))
        throw error
    }

    /// Refuses with 413 an event of `body` (one event or a batch), or a device or app description, whose
    /// compact JSON is over `maxEventBytes`: the request limit bounds a request, this bounds what one
    /// timeline entry or snapshot can hold.
    package func checkSize(of body: JSONValue, rawBytes: Int, batch: Bool, what: String) throws(APIError) {
        let limit = options.maxEventBytes
        // A body no larger than the limit holds no event larger than it.
        guard rawBytes > limit else { return }
        let items: [JSONValue]
        if batch, case .array(let array) = body { items = array } else { items = [body] }
        for (index, item) in items.enumerated() {
            let size = JSONWriter.encode(item).count
            guard size > limit else { continue }
            var error = APIError.eventTooLarge(bytes: size, limit: limit, what: what)
            if items.count > 1 { error.extra["index"] = .number(Double(index)) }
            throw error
        }
    }

    /// `507 insufficient-storage` when the store holds `--max-data-bytes` already or its file system has less
    /// than `--min-free-disk-bytes` left (as of the store's last commit); nil otherwise.
    package func storageRefusal() -> APIError? {
        guard let use = journal.diskUse else { return nil }
        var refusal: APIError?
        if options.maxDataBytes > 0, use.usedBytes >= Int64(options.maxDataBytes) {
            refusal = APIError(
                .insufficientStorage,
                "the data directory holds \(use.usedBytes) bytes, its cap is \(options.maxDataBytes) "
                    + "(--max-data-bytes): delete devices or namespaces, or raise the cap; nothing changed")
            refusal?.extra["limit"] = .number(Double(options.maxDataBytes))
        } else if use.freeBytes < Int64(options.minFreeDiskBytes) {
            refusal = APIError(
                .insufficientStorage,
                "the data directory's disk has \(use.freeBytes) bytes left, less than the \(options.minFreeDiskBytes) "
                    + "it keeps free (--min-free-disk-bytes): free some, or delete devices or namespaces; nothing changed"
            )
            refusal?.extra["limit"] = .number(Double(options.minFreeDiskBytes))
        }
        if refusal != nil { metrics.storageRefusals.increment() }
        return refusal
    }

    /// Refuses changes from now on, logs why, and tells the daemon (once).
    package func storeDidFail(_ error: StoreError) {
        metrics.storeFailures.increment()
        logger.error("the store failed", metadata: ["error": "\(error)"])
        let first = storeFailure.withLock { failure -> Bool in
            guard failure == nil else { return false }
            failure = error.clientReason
            return true
        }
        if first { options.storeFailed() }
    }
}

extension StoreError {
    /// What a client may read about the failure: no file paths, no SQL.
    package var clientReason: String {
        switch self {
        case .io(_, _, let message): return "a write failed (\(message))"
        case .corrupt: return "the database is damaged"
        case .closed: return "the store is closed"
        default: return "a write failed"
        }
    }
}
