# Shared helpers for bench/run, bench/scale and bench/startup. Source it; it sets strict mode.
# Everything listens on 127.0.0.1 only, and every server started here is killed on exit.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
OUT=${BENCH_OUT:-$BENCH_DIR/out}
mkdir -p "$OUT"
# BENCH_DAEMON: another build of the daemon to measure (e.g. an earlier commit's, for a before/after pair).
DAEMON=${BENCH_DAEMON:-$ROOT/.build/release/lifecycled}
BARE=$BENCH_DIR/bare/bare-server
OPENLOOP=$BENCH_DIR/openloop/openloop
TOOLS=$BENCH_DIR/lib

STARTED_PIDS=()
TEMP_DIRS=()

# data_dir NAME: prints a fresh directory for a journaled daemon's data (removed on exit by the caller's
# TEMP_DIRS), under BENCH_DATA_PARENT (/tmp). BENCH_DATA_PARENT=/dev/shm puts the journal on tmpfs, where an
# fdatasync costs nothing: what is left of a journaled answer's time is the daemon's own, the disk's apart.
data_dir() {
    mktemp -d "${BENCH_DATA_PARENT:-/tmp}/lifecycled-$1.XXXXXX"
}

cleanup() {
    local pid
    for pid in "${STARTED_PIDS[@]}"; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    local dir
    for dir in "${TEMP_DIRS[@]}"; do rm -rf "$dir"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

need() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "missing $tool: run bench/setup" >&2; exit 2; }
    done
}

# Raises the open-file limit as far as the hard limit allows (long polls need one fd per client).
raise_fd_limit() {
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
}

build_all() {
    log "building the daemon (release) and the bare server"
    (cd "$ROOT" && swift build -c release --product lifecycled) >"$OUT/build.log" 2>&1 \
        || { tail -30 "$OUT/build.log" >&2; exit 1; }
    make -s -C "$BENCH_DIR/bare" >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log" >&2; exit 1; }
    make -s -C "$BENCH_DIR/openloop" >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log" >&2; exit 1; }
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_ready URL TIMEOUT_SECONDS: polls URL/readyz until 200.
wait_ready() {
    python3 "$TOOLS/waitready.py" "$1/readyz" "${2:-60}" >/dev/null
}

# start_daemon NAME ARGS...: starts lifecycled on a free port, waits for /readyz, sets DAEMON_PID and
# DAEMON_URL. Its log goes to $OUT/NAME.log.
start_daemon() {
    local name=$1; shift
    local port; port=$(free_port)
    # BENCH_DAEMON_ARGS: extra daemon options for every start (e.g. "--threads 4").
    # shellcheck disable=SC2086
    "$DAEMON" --host 127.0.0.1 --port "$port" --log-level "${BENCH_LOG_LEVEL:-notice}" "$@" ${BENCH_DAEMON_ARGS:-} \
        >"$OUT/$name.log" 2>&1 &
    DAEMON_PID=$!
    STARTED_PIDS+=("$DAEMON_PID")
    DAEMON_URL=http://127.0.0.1:$port
    if ! wait_ready "$DAEMON_URL" 120; then
        echo "lifecycled ($name) did not become ready; log:" >&2; tail -20 "$OUT/$name.log" >&2; exit 1
    fi
}

# stop_pid PID: SIGTERM, wait up to 60 s, then SIGKILL. Sets STOP_STATUS (the exit status) and
# STOP_SECONDS. Call it directly, not in $(...): only this shell can wait for its children.
stop_pid() {
    local pid=$1 status=0 t0
    t0=$(date +%s.%N)
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        echo "pid $pid ignored SIGTERM for 60 s: killed" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || status=$?
    STOP_STATUS=$status
    STOP_SECONDS=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')")
}

# start_bare [THREADS] [MODE] [BODY_BYTES] [NAME]: starts the bare server on a free port (2 threads, mode
# $BENCH_BARE_MODE or epoll, its small body unless BODY_BYTES) and sets BARE_PID and BARE_URL. Its log goes to
# $OUT/NAME.log (bare).
start_bare() {
    local port; port=$(free_port)
    BARE_BODY_BYTES=${3:-} "$BARE" "$port" "${1:-2}" "${2:-${BENCH_BARE_MODE:-epoll}}" >"$OUT/${4:-bare}.log" 2>&1 &
    BARE_PID=$!
    STARTED_PIDS+=("$BARE_PID")
    BARE_URL=http://127.0.0.1:$port
    python3 "$TOOLS/waitready.py" "$BARE_URL/" 10 >/dev/null || { echo "bare server did not start" >&2; exit 1; }
}

proc_field() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }   # proc_field PID VmRSS
rss_kib() { proc_field "$1" VmRSS; }
threads_of() { proc_field "$1" Threads; }

# run_wrk NAME URL CONNECTIONS LUA [extra wrk args]: one bounded wrk run; raw output in $OUT/NAME.txt.
# Prints the Lua done() line (RESULT ...).
run_wrk() {
    local name=$1 url=$2 conns=$3 lua=$4; shift 4
    local script=$OUT/$name.lua
    cat "$BENCH_DIR/lua/report.lua" "$BENCH_DIR/lua/$lua" >"$script"
    timeout "${WRK_TIMEOUT:-60}" wrk -t1 -c"$conns" -d"${WRK_DURATION:-10s}" --timeout 10s --latency \
        -s "$script" "$@" "$url" >"$OUT/$name.txt" 2>&1 || true
    grep '^RESULT ' "$OUT/$name.txt" | tail -1 || echo "RESULT failed=1"
}

# run_wrk_until NAME URL CONNECTIONS LUA MARKER: like run_wrk, for scripts that finish a fixed amount
# of work: wrk always sleeps its whole -d, so once the script prints a line starting with MARKER, wrk
# gets SIGINT (it then stops and reports the time actually run). Bounded by WRK_TIMEOUT (7200 s).
run_wrk_until() {
    local name=$1 url=$2 conns=$3 lua=$4 marker=$5
    local script=$OUT/$name.lua
    cat "$BENCH_DIR/lua/report.lua" "$BENCH_DIR/lua/$lua" >"$script"
    wrk -t1 -c"$conns" -d"${WRK_TIMEOUT:-7200}s" --timeout 30s --latency -s "$script" "$url" >"$OUT/$name.txt" 2>&1 &
    local pid=$! waited=0
    STARTED_PIDS+=("$pid")
    while kill -0 "$pid" 2>/dev/null; do
        if grep -q "^$marker" "$OUT/$name.txt"; then kill -INT "$pid" 2>/dev/null || true; break; fi
        sleep 0.05
        waited=$((waited + 1))
        if ((waited > ${WRK_TIMEOUT:-7200} * 20)); then kill -INT "$pid" 2>/dev/null || true; break; fi
    done
    wait "$pid" 2>/dev/null || true
    grep '^RESULT ' "$OUT/$name.txt" | tail -1 || echo "RESULT failed=1"
}

# field LINE KEY: the value of KEY=... in a RESULT line.
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<" $1"; }
