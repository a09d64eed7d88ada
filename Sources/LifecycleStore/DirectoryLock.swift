#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a file in the data directory, so two daemons never share one store.
///
/// The lock belongs to the open file description: a second lock on the same file fails even from the
/// same process, and the kernel releases it if the process dies. The file keeps the holder's pid for
/// error messages; it is never deleted, because deleting a lock file races with the next locker.
final class DirectoryLock {
    let path: String
    private var descriptor: Int32

    init(path: String) throws(StoreError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError.io(path: path, operation: "open lock file", message: Self.lastErrorMessage())
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let holder = Self.readHolder(descriptor)
            close(descriptor)
            descriptor = -1
            if failure == EWOULDBLOCK {
                throw StoreError.lockedByAnotherProcess(lockFile: path, holder: holder)
            }
            throw StoreError.io(path: path, operation: "lock", message: String(cString: strerror(failure)))
        }
        let pid = Array("\(getpid())\n".utf8)
        // The pid is only a hint for error messages, so failing to write it is not worth refusing to start.
        if ftruncate(descriptor, 0) == 0 {
            _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    deinit {
        release()
    }

    func release() {
        guard descriptor >= 0 else { return }
        // Closing the descriptor drops the flock.
        close(descriptor)
        descriptor = -1
    }

    private static func readHolder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        let pid = text.split(whereSeparator: \.isNewline).first.map(String.init)
        return pid?.isEmpty == false ? pid : nil
    }

    private static func lastErrorMessage() -> String {
        String(cString: strerror(errno))
    }
}
