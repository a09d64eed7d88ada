import Foundation
import LifecycleCore

/// The process's own figures for `/metrics`, read when asked (Linux's `/proc/self`; elsewhere only what
/// `getrusage` and `getrlimit` give): memory, descriptors, CPU time and start time, under the names every
/// Prometheus client library uses.
enum ProcessMetrics {
    /// The figures as exposition text, `# TYPE` lines included.
    static func text() -> String {
        var out = ""
        func add(_ name: String, _ type: String, _ value: Double?) {
            guard let value else { return }
            out += "# TYPE \(name) \(type)\n\(name) \(value.plainText)\n"
        }
        let stat = selfStat()
        add(
            "process_resident_memory_bytes", "gauge",
            stat.map { $0.residentPages * Double(sysconf(Int32(_SC_PAGESIZE))) })
        add("process_virtual_memory_bytes", "gauge", stat?.virtualBytes)
        add("process_open_fds", "gauge", openDescriptors())
        var limit = rlimit()
        add("process_max_fds", "gauge", getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 ? Double(limit.rlim_cur) : nil)
        add("process_cpu_seconds_total", "counter", cpuSeconds())
        add("process_start_time_seconds", "gauge", startTime)
        return out
    }

    private static let startTime: Double? = {
        guard let stat = selfStat(), let boot = bootTime() else { return nil }
        return boot + stat.startTicks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }()

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF_VALUE, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func openDescriptors() -> Double? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map { Double($0.count) }
    }

    private struct Stat {
        var startTicks: Double
        var virtualBytes: Double
        var residentPages: Double
    }

    /// `/proc/self/stat`: its fields after the command name (which may hold spaces, so after the last `)`).
    private static func selfStat() -> Stat? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Field 3 (state) is the first after the name; start time is field 22, vsize 23, rss 24.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 21, let start = Double(fields[19]), let virtual = Double(fields[20]),
            let resident = Double(fields[21])
        else { return nil }
        return Stat(startTicks: start, virtualBytes: virtual, residentPages: resident)
    }

    /// The boot time, from `/proc/stat`'s `btime` line.
    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6))
        }
        return nil
    }
}

#if canImport(Glibc)
    private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    private let RUSAGE_SELF_VALUE = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
    private let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
    private let RUSAGE_SELF_VALUE = RUSAGE_SELF
#endif
