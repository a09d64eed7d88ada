#!/usr/bin/env python3
"""threadsampler.py PID INTERVAL_MS OUT: until PID exits or SIGTERM, every INTERVAL_MS writes one line per
thread of PID to OUT: the monotonic time in ms, the thread's name, its state (R running, S sleeping, D in
disk wait, ...), its minor and major page faults so far (/proc/PID/task/TID/stat), and its time on a core and
waiting in the run queue for one so far, in ns (/proc/PID/task/TID/schedstat). bench/stalls reads it to say
which threads were in disk wait, how many pages faulted, and how much CPU the daemon had and waited for while
an answer was slow."""
import os
import signal
import sys
import time


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    pid, interval, out = int(sys.argv[1]), float(sys.argv[2]) / 1000, sys.argv[3]
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    with open(out, "w") as f:
        while not stopping:
            now_ms = time.monotonic() * 1000  # CLOCK_MONOTONIC, as the daemon's trace and openloop
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except FileNotFoundError:
                break
            for tid in tasks:
                try:
                    with open(f"/proc/{pid}/task/{tid}/stat") as stat:
                        text = stat.read()
                except OSError:
                    continue
                # The name is in parentheses and may hold spaces; the fields after it are space-separated.
                name = text[text.index("(") + 1:text.rindex(")")].replace(" ", "_")
                fields = text[text.rindex(")") + 2:].split()
                try:
                    with open(f"/proc/{pid}/task/{tid}/schedstat") as schedstat:
                        on_cpu, waiting = schedstat.read().split()[:2]
                except (OSError, ValueError):
                    continue
                f.write(f"{now_ms:.3f} {tid} {name} {fields[0]} {fields[7]} {fields[9]} {on_cpu} {waiting}\n")
            time.sleep(interval)


if __name__ == "__main__":
    main()
