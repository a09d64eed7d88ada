/// Every metric `/metrics` shows, with its help text: the one description of each, from which the
/// `# HELP` lines are written and which docs/OPERATING.md's metrics table must list (a test holds the three
/// together). A metric recorded anywhere in the daemon without a line here fails that test.
enum MetricsCatalogue {
    static let help: KeyValuePairs<String, String> = [
        "lifecycled_build_info": "The build answering: 1, with its version and revision as labels.",
        "lifecycled_http_requests_total": "Requests answered, by route and status.",
        "lifecycled_http_request_duration_seconds": "Time to answer a request, by route (long polls included).",
        "lifecycled_http_connections_open": "Connections open now, parked long polls and streams included.",
        "lifecycled_http_connections_refused_total":
            "Connections refused at accept, by reason: max-connections or max-connections-per-client.",
        "lifecycled_events_total": "Events applied, by type.",
        "lifecycled_devices": "Devices, over every namespace.",
        "lifecycled_apps": "Apps, over every namespace.",
        "lifecycled_long_polls_parked": "Reads waiting for a change (wait=).",
        "lifecycled_event_streams_open": "Event streams and change feeds open now.",
        "lifecycled_timeline_entries_evicted_total": "Timeline entries dropped by the history limits.",
        "lifecycled_history_bytes":
            "Bytes clients make the daemon hold over every device: entries, recordings, remembered answers, descriptions (--memory-bytes caps).",
        "lifecycled_namespace_requests_total": "Requests, by namespace.",
        "lifecycled_namespace_events_total": "Events applied, by namespace.",
        "lifecycled_namespace_apps": "Apps, by namespace.",
        "lifecycled_namespace_devices": "Devices, by namespace.",
        "lifecycled_store_failures_total": "Changes the store failed to make durable (the daemon then drains).",
        "lifecycled_store_commit_duration_seconds": "Time of one group commit of the journal's writer.",
        "lifecycled_store_commit_operations": "Operations (records, snapshots, deletions) per group commit.",
        "lifecycled_store_record_bytes_total": "Bytes of journal records written.",
        "lifecycled_store_snapshots_total": "Device snapshots written.",
        "lifecycled_snapshot_encode_duration_seconds":
            "Time to encode and compress one device snapshot (off the request path).",
        "lifecycled_store_snapshot_bytes_total": "Bytes of device snapshots written (compressed).",
        "lifecycled_store_wal_bytes": "Size of the SQLite write-ahead log after the last commit.",
        "lifecycled_store_used_bytes": "Bytes the store's live pages take (what --max-data-bytes caps).",
        "lifecycled_store_free_disk_bytes": "Bytes left on the store's file system (--min-free-disk-bytes keeps some).",
        "lifecycled_store_refusals_total":
            "Changes refused 507 insufficient-storage (the data cap, or too little disk).",
        "lifecycled_recovery_seconds": "Time the start-up recovery took.",
        "lifecycled_recovery_records": "Journal records the start-up recovery replayed.",
        "process_resident_memory_bytes": "Resident memory of the process.",
        "process_virtual_memory_bytes": "Virtual memory of the process.",
        "process_open_fds": "File descriptors open (connections, the store's files, the event loops').",
        "process_max_fds": "The process's limit on open file descriptors (RLIMIT_NOFILE).",
        "process_cpu_seconds_total": "CPU time the process used, user and system.",
        "process_start_time_seconds": "When the process started, in seconds since the Unix epoch.",
    ]

    /// `text` (Prometheus exposition) with a `# HELP` line before each `# TYPE` line whose metric has one.
    static func withHelp(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 4096)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE ") {
                let name = line.dropFirst(7).prefix { $0 != " " }
                if let help = help.first(where: { $0.key == name })?.value {
                    out += "# HELP \(name) \(help)\n"
                }
            }
            out += line
            out += "\n"
        }
        if out.hasSuffix("\n\n") { out.removeLast() }
        return out
    }
}
