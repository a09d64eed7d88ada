"""logcost.py URL PID REQUESTS: sends REQUESTS `GET /v1/apps` one after the other over one keep-alive connection
and prints the daemon's CPU time per request in microseconds (user + system, from /proc/PID/stat, measured
around the requests only)."""
import http.client
import os
import sys
from urllib.parse import urlparse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Support"))
import lifecycled_support  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15 of the line)


def main():
    url, pid, requests = urlparse(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    for _ in range(200):  # warm up
        lifecycled_support.call(url.hostname, url.port, "GET", "/v1/apps", conn=conn)
    before = cpu_seconds(pid)
    for _ in range(requests):
        status, _, _ = lifecycled_support.call(url.hostname, url.port, "GET", "/v1/apps", conn=conn)
        if status != 200:
            sys.exit(f"GET /v1/apps answered {status}")
    print(f"{(cpu_seconds(pid) - before) / requests * 1e6:.1f}")


if __name__ == "__main__":
    main()
