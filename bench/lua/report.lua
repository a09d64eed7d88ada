-- Appended before each benchmark's script: prints one parseable line when wrk is done.
-- Latencies in microseconds. err_status counts answers that were not 2xx or 3xx.
done = function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d mean_us=%.1f " ..
    "err_connect=%d err_read=%d err_write=%d err_status=%d err_timeout=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, latency.mean,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status,
    summary.errors.timeout))
end

-- Pacing for the reduced-rate runs: BENCH_DELAY_MS > 0 makes each connection wait that long before
-- each request (wrk's delay() hook), so the offered rate is about connections / (delay + latency).
local pacing = tonumber(os.getenv("BENCH_DELAY_MS") or "0")
if pacing > 0 then
  delay = function() return pacing end
end
