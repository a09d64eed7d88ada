/// Why the store refused to open or could not make something durable.
///
/// Every case names the file or operation involved; `description` is a sentence fit for a log or a
/// startup failure message.
public enum StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The data directory did not exist and could not be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The file exists but is not a SQLite database written by lifecycled.
    case notALifecycledDatabase(path: String, reason: String)
    /// The database is ours but damaged (`PRAGMA quick_check` failed, or SQLite reported corruption).
    case corrupt(path: String, details: String)
    /// Another process (or another journal in this process) holds the data directory's lock.
    case lockedByAnotherProcess(lockFile: String, holder: String?)
    /// The database was written by a newer lifecycled whose schema this build does not know.
    case schemaVersionTooNew(path: String, found: Int64, supported: Int64)
    /// SQLite or the file system failed; `message` is the underlying error text.
    case io(path: String, operation: String, message: String)
    /// A snapshot claimed to cover journal records that were never appended.
    case snapshotAheadOfJournal(stream: String, upTo: UInt64, lastAppended: UInt64)
    /// The journal was closed before the operation was accepted.
    case closed
    /// The stream was deleted in this process and not started again: nothing more is written to it.
    case streamDeleted(stream: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create data directory \(path): \(reason)"
        case .notALifecycledDatabase(let path, let reason):
            return "\(path) is not a lifecycled database (\(reason)); move it away or choose another data directory"
        case .corrupt(let path, let details):
            return "\(path) is corrupt (integrity check failed: \(details)); restore it from a backup or move it away"
        case .lockedByAnotherProcess(let lockFile, let holder):
            let who = holder.map { " (held by pid \($0))" } ?? ""
            return "data directory is locked by another process\(who): \(lockFile)"
        case .schemaVersionTooNew(let path, let found, let supported):
            return
                "\(path) has schema version \(found), newer than the \(supported) this build supports; upgrade lifecycled"
        case .io(let path, let operation, let message):
            return "I/O error on \(path) during \(operation): \(message)"
        case .snapshotAheadOfJournal(let stream, let upTo, let lastAppended):
            return "snapshot of \(stream) claims sequence \(upTo) but the journal has only reached \(lastAppended)"
        case .closed:
            return "the journal is closed"
        case .streamDeleted(let stream):
            return "stream \(stream) was deleted; nothing more is written to it"
        }
    }
}
