#!/usr/bin/env python3
"""The disk's own floor under a journaled commit: 4 KiB written and fdatasync'd in a loop in DIR (the file
system the daemon's data directory is on) for SECONDS, each sync timed. Prints one line:
RESULT syncs=N p50_ms=.. p99_ms=.. p999_ms=.. max_ms=..
Usage: diskfloor.py DIR SECONDS"""
import os
import sys
import time


def percentile(sorted_values, fraction):
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    directory, seconds = sys.argv[1], float(sys.argv[2])
    path = os.path.join(directory, "diskfloor.bin")
    block = os.urandom(4096)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    durations = []
    try:
        end = time.monotonic() + seconds
        offset = 0
        while time.monotonic() < end:
            os.pwrite(fd, block, offset)
            started = time.perf_counter()
            os.fdatasync(fd)
            durations.append((time.perf_counter() - started) * 1000)
            offset = (offset + 4096) % (4096 * 256)  # a 1 MiB file, rewritten as a WAL is
    finally:
        os.close(fd)
        os.unlink(path)
    durations.sort()
    print(f"RESULT syncs={len(durations)} p50_ms={percentile(durations, 0.5):.3f} "
          f"p99_ms={percentile(durations, 0.99):.3f} p999_ms={percentile(durations, 0.999):.3f} "
          f"max_ms={durations[-1]:.3f}")


if __name__ == "__main__":
    main()
