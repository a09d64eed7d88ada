#!/usr/bin/env python3
"""stallreport.py SLOW_FILE DAEMON_LOG SAMPLES THRESHOLD_MS: what the daemon was doing during each slow answer.

SLOW_FILE: bench/openloop's slow answers (OPENLOOP_SLOW_FILE); DAEMON_LOG: the daemon's JSON log, run with
--trace-slow-ms (its "Slow ..." lines: events, commits, the groups' completions, checkpoints, log restarts,
snapshot encodings and writes, each with start_ms and end_ms on the monotonic clock); SAMPLES: lib/threadsampler.py's lines. All
three speak the same clock (CLOCK_MONOTONIC, milliseconds).

Each slow answer is given as cause the largest part of its time (from when it was due to when it was
answered): the client waiting for a free connection (answers before it were slow), the time outside the
daemon's trace of its event (HTTP server, network; all of it when its event was faster than the daemon's
--trace-slow-ms), or the event's phases: queued behind its device's queue, applying and rendering, or
waiting to be durable (until its answer was handed back). For the last, the commits and completions that
overlapped that wait say why (a commit's write and fdatasync, the writer held while two groups' completions
were outstanding, what the writer did after a commit, a group's completions waiting for the group before
theirs, or running), and the checkpoints, log restarts and snapshot writes and encodings that overlapped it
are named beside. Threads in disk wait, page faults, and the daemon's CPU and its wait for a core at the time
are shown for the ten slowest, and the same for the five slowest seconds of the run with what was traced in
them.
Prints RESULT lines (parseable) and a short table."""
import bisect
import collections
import json
import sys


def read_slow(path):
    answers = []
    with open(path) as f:
        for line in f:
            if not line.startswith("SLOW "):
                continue
            fields = dict(part.split("=", 1) for part in line.split()[1:])
            answers.append({key: float(value) for key, value in fields.items()})
    return answers


def read_traces(path):
    traces = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if "trace" not in record or "start_ms" not in record:
                continue
            record["start_ms"] = float(record["start_ms"])
            record["end_ms"] = float(record["end_ms"])
            traces[record["trace"]].append(record)
    return {kind: Kind(records) for kind, records in traces.items()}


def read_samples(path):
    samples = []
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 8:
                    samples.append((float(parts[0]), parts[1], parts[2], parts[3], *map(int, parts[4:])))
    except FileNotFoundError:
        pass
    return samples


class Kind:
    """The traced records of one kind, sorted by start, searchable by time."""

    def __init__(self, records):
        self.records = sorted(records, key=lambda r: r["start_ms"])
        self.starts = [r["start_ms"] for r in self.records]
        self.longest = max((r["end_ms"] - r["start_ms"] for r in self.records), default=0.0)

    def __iter__(self):
        return iter(self.records)

    def overlapping(self, start, end):
        first = bisect.bisect_left(self.starts, start - self.longest)
        last = bisect.bisect_left(self.starts, end)
        return [r for r in self.records[first:last] if r["end_ms"] > start]


def overlapping(kind, start, end):
    return kind.overlapping(start, end) if kind is not None else []


def phases(record, names):
    return {name: float(record.get(name + "_ms", 0)) for name in names}


def cause(answer, traces):
    """The largest part of the answer's time, named as the module docstring says."""
    latency = answer["done_ms"] - answer["due_ms"]
    waited = answer["sent_ms"] - answer["due_ms"]
    # The daemon's trace of this answer: an event that began after it was sent and ended before it was done.
    events = [r for r in overlapping(traces.get("event"), answer["sent_ms"], answer["done_ms"])
              if r["start_ms"] >= answer["sent_ms"] - 1 and r["end_ms"] <= answer["done_ms"] + 1]
    event = max(events, key=lambda r: r["end_ms"] - r["start_ms"]) if events else None
    inside = event["end_ms"] - event["start_ms"] if event else 0.0
    parts = {"client: waited for a free connection": waited,
             "outside the event's path (HTTP server, network)": latency - waited - inside}
    if event:
        split = phases(event, ["queued", "apply", "durable"])
        parts["event: queued behind its device"] = split["queued"]
        parts["event: apply and render"] = split["apply"]
        parts["event: durable"] = split["durable"]
    label = max(parts, key=parts.get)
    if label != "event: durable":
        return label, event
    window = (event["start_ms"] + split["queued"] + split["apply"], event["end_ms"])
    commit_parts = collections.Counter()
    for commit in overlapping(traces.get("commit"), *window):
        # "completions" is a commit's phase in traces of builds that ran them on the writer thread.
        for name, value in phases(commit, ["held", "write", "after", "completions"]).items():
            commit_parts[name] += value
    for group in overlapping(traces.get("completions"), *window):
        for name, value in phases(group, ["waited", "run"]).items():
            commit_parts["completions " + name] += value
    named = {"write": "the commit's write and fdatasync",
             "held": "the writer held by two groups' completions",
             "after": "after the commit (log restart, disk use)",
             "completions": "the commits' completions (publishing)",
             "completions waited": "the group's completions waiting for the group before",
             "completions run": "the group's completions (publishing)"}
    label = "event: durable, " + (named[commit_parts.most_common(1)[0][0]] if commit_parts
                                  else "no commit traced")
    beside = [kind for kind in ("log restart", "snapshot write", "snapshot encode", "checkpoint")
              if overlapping(traces.get(kind), *window)]
    if beside:
        label += " (beside: " + ", ".join(beside) + ")"
    return label, event


def threads_at(samples, times, start, end):
    """Threads seen in disk wait, and what the daemon's threads counted between start and end (the samples
    sorted by time, `times` their times): page faults (minor, major), ms on a core and ms waiting in the run
    queue for one."""
    in_disk_wait = set()
    first, last = {}, {}
    for time, tid, name, state, *counts in samples[bisect.bisect_left(times, start - 20):
                                                   bisect.bisect_right(times, end + 20)]:
        if start <= time <= end and state == "D":
            in_disk_wait.add(name)
        first.setdefault(tid, counts)
        last[tid] = counts
    minor, major, on_cpu, waiting = (sum(last[t][i] - first[t][i] for t in last) for i in range(4))
    return sorted(in_disk_wait), minor, major, on_cpu / 1e6, waiting / 1e6


def slowest_seconds(answers, traces, samples, times, count=5):
    """The seconds of the run whose slowest answer was slowest, each with what the daemon did in it."""
    if not answers:
        return
    start = min(answer["due_ms"] for answer in answers)
    worst = collections.defaultdict(float)
    for answer in answers:
        second = int((answer["due_ms"] - start) // 1000)
        worst[second] = max(worst[second], answer["latency_ms"])
    print(f"the {count} slowest seconds (from the first slow answer; the daemon's threads in that second):")
    for second, latency in sorted(worst.items(), key=lambda item: -item[1])[:count]:
        begin, end = start + second * 1000, start + (second + 1) * 1000
        waiting, minor, major, on_cpu, queued = threads_at(samples, times, begin, end)
        traced = collections.Counter({kind: len(spans.overlapping(begin, end)) for kind, spans in traces.items()})
        traced = +traced
        print(f"    second {second:4d}: slowest {latency:7.1f} ms; CPU {on_cpu:6.0f} ms, waiting for a core "
              f"{queued:6.0f} ms; page faults {minor} minor, {major} major; disk wait: {', '.join(waiting) or 'none'};"
              f" traced: {', '.join(f'{kind} {n}' for kind, n in traced.most_common()) or 'nothing'}")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    answers = read_slow(sys.argv[1])
    traces = read_traces(sys.argv[2])
    samples = read_samples(sys.argv[3])
    threshold = float(sys.argv[4])
    causes = collections.Counter()
    rows = []
    for answer in answers:
        label, event = cause(answer, traces)
        causes[label] += 1
        rows.append((answer, label, event))
    print(f"RESULT slow={len(answers)} threshold_ms={threshold:g} "
          + " ".join(f"{label.replace(' ', '_').replace(',', '').replace(':', '')}={count}"
                     for label, count in causes.most_common()))
    for kind in ("commit", "completions", "checkpoint", "log restart", "snapshot write", "snapshot encode",
                 "event"):
        durations = sorted(r["end_ms"] - r["start_ms"] for r in traces.get(kind) or [])
        if durations:
            print(f"TRACED kind={kind.replace(' ', '_')} count={len(durations)} "
                  f"median_ms={durations[len(durations) // 2]:.2f} max_ms={durations[-1]:.2f}")
    print(f"slow answers (>= {threshold:g} ms): {len(answers)}")
    for label, count in causes.most_common():
        print(f"    {count:6d}  {label}")
    print("the ten slowest:")
    samples.sort(key=lambda sample: sample[0])
    times = [sample[0] for sample in samples]
    for answer, label, event in sorted(rows, key=lambda r: -r[0]["latency_ms"])[:10]:
        latency = answer["latency_ms"]
        waiting, minor, major, on_cpu, queued = threads_at(samples, times, answer["sent_ms"], answer["done_ms"])
        split = "" if event is None else " (" + ", ".join(
            f"{name} {float(event.get(name + '_ms', 0)):.1f}" for name in ("queued", "apply", "durable")) + " ms)"
        print(f"    {latency:9.1f} ms  {label}{split}; disk wait: {', '.join(waiting) or 'none'}; "
              f"page faults {minor} minor, {major} major; CPU {on_cpu:.0f} ms, waiting for a core {queued:.0f} ms")
    slowest_seconds(answers, traces, samples, times)


if __name__ == "__main__":
    main()
