"""procstatus.py: what /proc/PID/status says of a process, for the bench scripts."""


def rss_and_threads(pid):
    """(VmRSS in KiB, thread count) of process `pid`."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["Threads"])
