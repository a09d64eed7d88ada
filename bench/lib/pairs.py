"""pairs.py: reads bench/run's results file (lines 'PAIR key side round RESULT k=v ...' and
'HALF key round RESULT k=v ...') and prints its figures.

    pairs.py median-rps RESULTS KEY      the median req/s of the daemon's runs of KEY
    pairs.py report RESULTS SPEC...      the table: per workload the medians and spreads of the pairs,
                                         the ratio against its target, then p99 at half peak

A ratio is taken within each pair (daemon req/s / bare req/s of the same round), and the median of
those ratios is reported with their spread, so a slow minute of the machine moves both sides of a pair
rather than the figure."""
import statistics
import sys

P99_TARGET_MS = 2.0
# A latency row counts only at the rate asked: it fails when the run reached less than this share of it.
REACHED_SHARE = 0.95


def parse(path):
    pairs, halves = {}, {}
    for line in open(path):
        parts = line.split()
        if not parts:
            continue
        values = dict(part.split("=", 1) for part in parts if "=" in part)
        if parts[0] == "PAIR":
            key, side, round_ = parts[1], parts[2], int(parts[3])
            pairs.setdefault(key, {}).setdefault(round_, {})[side] = values
        elif parts[0] == "HALF":
            halves.setdefault(parts[1], []).append(values)
    return pairs, halves


def ok(values):
    return "rps" in values and values.get("err_status", "0") == "0" and not any(
        int(values.get(k, 0)) for k in ("err_connect", "err_read", "err_write", "err_timeout"))


def spread(numbers, fmt):
    return f"{fmt(min(numbers))}–{fmt(max(numbers))}"


def median_rps(path, key):
    pairs, _ = parse(path)
    rates = [float(r["daemon"]["rps"]) for r in pairs.get(key, {}).values() if "rps" in r.get("daemon", {})]
    print(round(statistics.median(rates)) if rates else 1)


def report(path, specs):
    pairs, halves = parse(path)
    print()
    print(f"{'workload':<44} {'pairs':>5} {'bare req/s':>11} {'daemon req/s':>13} {'ratio':>6} "
          f"{'spread':>11} {'target':>7}  verdict")
    failures = []
    for spec in specs:
        key, label, _url, _lua, _bare, _apps, target = spec.split("|")
        rounds = pairs.get(key, {})
        good = [r for r in rounds.values() if ok(r.get("bare", {})) and ok(r.get("daemon", {}))]
        if len(good) < len(rounds):
            failures.append(f"{key}: {len(rounds) - len(good)} of {len(rounds)} pairs had an error or non-2xx answer")
        if not good:
            print(f"{label:<44} {0:>5}  FAILED")
            continue
        bare = [float(r["bare"]["rps"]) for r in good]
        daemon = [float(r["daemon"]["rps"]) for r in good]
        ratios = [float(r["daemon"]["rps"]) / float(r["bare"]["rps"]) for r in good]
        ratio = statistics.median(ratios)
        verdict = "" if target == "-" else ("met" if ratio >= float(target) else "missed")
        shown_target = "" if target == "-" else f"≥ {target}"
        print(f"{label:<44} {len(good):>5} {statistics.median(bare):>11,.0f} {statistics.median(daemon):>13,.0f} "
              f"{ratio:>6.2f} {spread(ratios, lambda x: f'{x:.2f}'):>11} {shown_target:>7}  {verdict}")
    print()
    print(f"{'at half the median peak, open loop':<44} {'runs':>5} {'asked/s':>9} {'reached/s':>10} "
          f"{'p50 ms':>7} {'p99 ms':>7} {'spread':>11} {'target':>13}  verdict")
    for spec in specs:
        key, label = spec.split("|")[:2]
        runs = [v for v in halves.get(key, []) if "p99_ms" in v and v.get("errors") == "0" and v.get("non2xx") == "0"]
        if key in halves and len(runs) < len(halves[key]):
            failures.append(f"{key} at half peak: {len(halves[key]) - len(runs)} runs had an error or non-2xx answer")
        if not runs:
            continue
        p99 = [float(v["p99_ms"]) for v in runs]
        median = statistics.median(p99)
        asked = statistics.median(float(v["asked"]) for v in runs)
        reached = statistics.median(float(v["reached"]) for v in runs)
        short = reached < REACHED_SHARE * asked
        verdict = "short of the rate" if short else ("met" if median < P99_TARGET_MS else "missed")
        print(f"{label:<44} {len(runs):>5} {asked:>9,.0f} {reached:>10,.0f} "
              f"{statistics.median(float(v['p50_ms']) for v in runs):>7.2f} {median:>7.2f} "
              f"{spread(p99, lambda x: f'{x:.2f}'):>11} {'< 2 at ≥ 95%':>13}  {verdict}")
    for failure in failures:
        print(f"ERROR {failure}")


if __name__ == "__main__":
    if sys.argv[1] == "median-rps":
        median_rps(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
