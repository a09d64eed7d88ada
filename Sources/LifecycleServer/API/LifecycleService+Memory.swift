import LifecycleCore
import LifecycleHosting
import LifecycleWire

extension LifecycleService {
    /// Throws `507 memory-budget-exceeded` when `bytes` more of what nothing evicts (descriptions: devices, apps,
    /// an import's) would not fit in the daemon's or the namespace's budget (`MemoryBudget`); nothing changed then.
    func admitMemory(_ bytes: Int, in namespace: String, what: String) throws(APIError) {
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
}
