"""Reads 'ROW key|label|RESULT k=v ...' lines, prints the table of bench/run: requests/s, p50, p99,
max latency, non-2xx answers and the ratio to the bare server (GET runs to bare GET, POST runs to
bare POST)."""
import sys

rows = []
for line in sys.stdin:
    if not line.startswith("ROW "):
        continue
    key, label, result = line[4:].rstrip("\n").split("|", 2)
    values = dict(part.split("=", 1) for part in result.split() if "=" in part)
    rows.append((key, label, values))
by_key = {key: values for key, _, values in rows}


def ms(values, name):
    return f"{int(values[name]) / 1000:.2f}" if name in values else "-"


print(f"{'run':<58} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'non-2xx':>8} {'errors':>7} {'ratio':>6}")
for key, label, values in rows:
    if "rps" not in values:
        print(f"{label:<58} {'FAILED':>9}")
        continue
    base = None
    if not key.endswith("half") and not key.startswith("bare"):
        base = by_key.get("bare-get" if key.startswith("get") else "bare-post", {}).get("rps")
    ratio = f"{float(values['rps']) / float(base):.2f}" if base else ""
    socket_errors = sum(int(values.get(k, 0)) for k in ("err_connect", "err_read", "err_write", "err_timeout"))
    print(f"{label:<58} {float(values['rps']):>9.0f} {ms(values, 'p50_us'):>8} {ms(values, 'p99_us'):>8} "
          f"{ms(values, 'max_us'):>8} {values.get('err_status', '-'):>8} {socket_errors:>7} {ratio:>6}")
