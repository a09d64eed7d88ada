import Foundation

/// Tells a supervisor that speaks systemd's notify protocol (`Type=notify`) where the daemon is: a datagram
/// to the socket `NOTIFY_SOCKET` names (a path, or an abstract name after `@`). Without the variable it says
/// nothing.
struct SystemdNotifier {
    private let socketPath: String?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The store is recovered and the daemon takes work (`/readyz` says ready).
    func ready(status: String) { send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())") }

    /// The tokens file is being re-read (SIGHUP); `ready` follows.
    func reloading() { send("RELOADING=1") }

    /// The daemon drains and stops.
    func stopping() { send("STOPPING=1") }

    private func send(_ message: String) {
        guard let socketPath else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        // An abstract socket's name starts with a NUL byte where the variable has `@`.
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, bytes, bytes.count, 0, socketAddress, length)
            }
        }
    }
}
