"""The one way the system tests (Tests/System), the scripts (scripts/), the deploy checks (deploy/) and the
benchmarks (bench/) start lifecycled: a `Daemon` started with its arguments on a free port (`--port 0`, or a
chosen one), ready when it says so, stopped with SIGTERM (then SIGKILL), restarted on the same data
directory; and, from the shell, `scripts/with-daemon` (this file's command line). Standard library only.

Readiness is the daemon's own word, not a guess from its log: it is started with `NOTIFY_SOCKET` naming an
abstract socket of this process, and sends systemd's `READY=1` once its store is recovered (when `/readyz`
would answer 200), with `STATUS=listening on port N` and `MAINPID` (docs/OPERATING.md, "Under a
supervisor"). This holds whatever the log format or level, under a command prefix (strace, chroot, another
user: an abstract socket has no file to share or permissions to grant), and with `--port 0`, whose port
only the daemon knows. A daemon that exits first, or is not ready in time, raises `DaemonError` with its
exit status, its command and the tail of its log.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Support"))
    from lifecycled_daemon import Daemon

    with Daemon(binary, "--data-dir", data, log=os.path.join(work, "log")) as daemon:
        request(daemon.url + "/v1/apps")
        daemon.kill()          # SIGKILL, as a crash
        daemon.start()         # the same command on the same data directory (a new port)
        daemon.stop()          # SIGTERM, drained: its exit status
"""
import os
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time


class DaemonError(Exception):
    """The daemon did not start, or did not stop when told: the message says why, with its log's tail."""


class Daemon:
    """One lifecycled process, started as `prefix binary [--port PORT] args`.

    `port`: 0 (a free one, the default), a number, or None to pass no `--port` (a config file or
    `LIFECYCLED_PORT` gives it). `env` adds to this process's environment, or is the whole of it (with
    PATH) when `clean_env`. `prefix`: a command the daemon runs under (`strace -f -o FILE`, `chroot ...`);
    signals still go to the daemon itself (its `MAINPID`). `log`: the file its output is appended to
    (a temporary one by default); `log_text()` is what the current run wrote. `ready_seconds`: how long
    a start may take. `notify_path`: the socket the daemon is told of is a file there, as systemd's is,
    rather than an abstract name. `new_session`: the daemon runs in a session of its own (it outlives
    this process, and a terminal's ^C does not reach it)."""

    def __init__(self, binary, *args, port=0, env=None, clean_env=False, prefix=(), log=None, cwd=None,
                 ready_seconds=60, notify_path=None, new_session=False):
        self.binary, self.args, self.port_flag = binary, list(args), port
        self.env, self.clean_env, self.prefix, self.cwd = dict(env or {}), clean_env, list(prefix), cwd
        self.ready_seconds, self.notify_path, self.new_session = ready_seconds, notify_path, new_session
        if log is None:
            descriptor, log = tempfile.mkstemp(prefix="lifecycled-", suffix=".log")
            os.close(descriptor)
        self.log_path = log
        self.process = None
        self.port = None
        self.pid = None  # the daemon's own pid (its MAINPID), which a prefix's pid is not
        self.ready_message = None
        self._socket = None
        self._offset = 0

    # --- Starting -----------------------------------------------------------------------------------------

    @property
    def command(self):
        port = [] if self.port_flag is None else ["--port", str(self.port_flag)]
        return [*self.prefix, self.binary, *port, *self.args]

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        """Starts the daemon and returns once it is ready (`self`); raises `DaemonError` if it exits first
        or is not ready within `ready_seconds` (then it is killed)."""
        return self.launch().wait_ready()

    def launch(self):
        """Starts the daemon and returns at once (`self`), for a test that acts while it starts (a signal
        during its recovery); `wait_ready` waits for it."""
        if self.running():
            raise DaemonError(f"lifecycled is already running (pid {self.pid})")
        self._close_socket()
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if self.notify_path:
            if os.path.exists(self.notify_path):
                os.remove(self.notify_path)
            self._socket.bind(self.notify_path)
            address = self.notify_path
        else:
            name = f"lifecycled-{os.getpid()}-{secrets.token_hex(6)}"
            self._socket.bind("\0" + name)
            address = "@" + name
        env = {"PATH": os.environ.get("PATH", "")} if self.clean_env else dict(os.environ)
        env.update(self.env)
        env["NOTIFY_SOCKET"] = address
        with open(self.log_path, "ab") as log:
            self._offset = log.tell()
            self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            env=env, cwd=self.cwd, start_new_session=self.new_session)
        self.pid, self.port, self.ready_message = self.process.pid, None, None
        return self

    def wait_ready(self):
        """Returns once the daemon launched says it is ready (`self`), as `start` describes."""
        deadline = time.monotonic() + self.ready_seconds
        while True:
            message = self._receive(min(0.05, max(0.0, deadline - time.monotonic())))
            if message is not None and "READY=1" in message.split("\n"):
                return self._ready(message)
            if self.process.poll() is not None:
                raise DaemonError(self._why(f"it exited with status {self.process.returncode} before it was ready"))
            if time.monotonic() >= deadline:
                self._kill_all()
                raise DaemonError(self._why(f"it was not ready within {self.ready_seconds:g} s, so it was killed"))

    def _ready(self, message):
        fields = dict(line.split("=", 1) for line in message.split("\n") if "=" in line)
        self.ready_message = message
        self.pid = int(fields.get("MAINPID", self.process.pid))
        if self.port_flag:
            self.port = self.port_flag
        else:
            found = re.search(r"\bport (\d+)", fields.get("STATUS", ""))
            if not found:
                self._kill_all()
                raise DaemonError(self._why(f"its READY=1 does not say its port: {message!r}"))
            self.port = int(found.group(1))
        return self

    def _why(self, what):
        tail = "\n".join("    " + line for line in self.log_text().splitlines()[-30:]) or "    (nothing)"
        return (f"lifecycled did not start: {what}\n  command: {shlex.join(self.command)}\n"
                f"  the end of its log ({self.log_path}):\n{tail}")

    # --- While it runs ------------------------------------------------------------------------------------

    def running(self):
        return self.process is not None and self.process.poll() is None

    def log_text(self, whole=False):
        """What the current run (or, `whole`, every run) wrote to the log."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0 if whole else self._offset)
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def notification(self, seconds=20):
        """The next message the daemon sends its supervisor after READY=1 (`RELOADING=1`, `READY=1...`,
        `STOPPING=1`), or None if none came within `seconds`."""
        return self._receive(seconds)

    def send_signal(self, number):
        """Sends a signal to the daemon itself (not to a prefix's process)."""
        os.kill(self.pid, number)

    # --- Stopping -----------------------------------------------------------------------------------------

    def stop(self, seconds=60):
        """SIGTERM, then its exit status once it drained; if it has not exited within `seconds` it is killed
        and `DaemonError` says so."""
        if self.running():
            self.send_signal(signal.SIGTERM)
            try:
                self.process.wait(seconds)
            except subprocess.TimeoutExpired:
                self._kill_all()
                raise DaemonError(f"lifecycled did not exit within {seconds:g} s of SIGTERM, so it was killed\n"
                                  f"  the end of its log ({self.log_path}):\n{self.log_text()[-2000:]}")
        return None if self.process is None else self.process.wait()

    def kill(self):
        """SIGKILL, as a crash; returns once it is gone."""
        self._kill_all()

    def restart(self, seconds=60):
        """Stops the daemon if it runs (SIGTERM) and starts the same command again: the same data directory,
        a new port unless one was chosen."""
        self.stop(seconds)
        return self.start()

    def close(self):
        """Stops the daemon if it still runs (SIGTERM for 10 s, then SIGKILL); never raises."""
        try:
            self.stop(10)
        except (DaemonError, OSError):
            self._kill_all()
        self._close_socket()

    def __enter__(self):
        return self if self.running() else self.start()

    def __exit__(self, *_):
        self.close()

    def _kill_all(self):
        if self.process is None or self.process.poll() is not None:
            return
        for pid in {self.pid, self.process.pid}:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            pass

    def _receive(self, seconds):
        if self._socket is None:
            return None
        self._socket.settimeout(max(seconds, 0.001))
        try:
            return self._socket.recv(4096).decode("utf-8", "replace")
        except socket.timeout:
            return None

    def _close_socket(self):
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def refused(binary, *args, seconds=5, env=None, clean_env=False, cwd=None):
    """Runs `binary args` expecting it to refuse to start: (exit status, standard error). If it still runs
    after `seconds` it is stopped (SIGTERM) and the status is None."""
    environment = {"PATH": os.environ.get("PATH", "")} if clean_env else dict(os.environ)
    environment.update(env or {})
    process = subprocess.Popen([binary, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, env=environment, cwd=cwd)
    try:
        _, stderr = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            _, stderr = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            _, stderr = process.communicate()
        return None, stderr
    return process.returncode, stderr


# --- scripts/with-daemon ----------------------------------------------------------------------------------

USAGE = """usage: scripts/with-daemon [OPTION...] --in-memory|--data-dir|--as-given COMMAND [ARGS...]
       scripts/with-daemon --self-test
Starts the daemon on a free port, in memory, on a fresh data directory, or as its options give it
(--as-given), runs COMMAND with LIFECYCLED_URL set to it, then stops it (SIGTERM). Exits with COMMAND's
status, or 1 if the daemon did not start (or, with --clean-stop, did not exit 0).
  --bin PATH      the binary (LIFECYCLED_BIN, else .build/debug/lifecycled)
  --arg ARG       one more option for the daemon (repeated; LIFECYCLED_DAEMON_ARGS adds more, split on spaces)
  --prefix WORD   one word of a command the daemon runs under (repeated: --prefix strace --prefix -f)
  --log FILE      its log (a temporary one by default)
  --ready-seconds N   how long its start may take (60)
  --clean-stop    after COMMAND the daemon must exit 0 on SIGTERM"""


def with_daemon(arguments):
    binary = os.environ.get("LIFECYCLED_BIN") or ".build/debug/lifecycled"
    extra, prefix, log, clean_stop, seconds = [], [], None, False, 60.0
    arguments = list(arguments)
    while arguments and arguments[0] in ("--bin", "--arg", "--prefix", "--log", "--ready-seconds", "--clean-stop"):
        option = arguments.pop(0)
        if option == "--clean-stop":
            clean_stop = True
        elif not arguments:
            break
        elif option == "--bin":
            binary = arguments.pop(0)
        elif option == "--arg":
            extra.append(arguments.pop(0))
        elif option == "--prefix":
            prefix.append(arguments.pop(0))
        elif option == "--ready-seconds":
            seconds = float(arguments.pop(0))
        else:
            log = arguments.pop(0)
    if len(arguments) < 2 or arguments[0] not in ("--in-memory", "--data-dir", "--as-given"):
        print(USAGE, file=sys.stderr)
        return 2
    mode, command = arguments[0], arguments[1:]
    with tempfile.TemporaryDirectory(prefix="lifecycled-with-daemon-") as work:
        store = {"--in-memory": ["--in-memory"], "--data-dir": ["--data-dir", os.path.join(work, "data")],
                 "--as-given": []}[mode]
        extra += os.environ.get("LIFECYCLED_DAEMON_ARGS", "").split()
        daemon = Daemon(binary, *store, *extra, prefix=prefix, log=log or os.path.join(work, "log"),
                        ready_seconds=seconds)
        try:
            daemon.start()
        except DaemonError as error:
            print(f"with-daemon: {error}", file=sys.stderr)
            return 1
        with daemon:
            print(f"with-daemon: daemon on port {daemon.port} ({mode})", flush=True)
            try:
                status = subprocess.run(command, env={**os.environ, "LIFECYCLED_URL": daemon.url}).returncode
            except OSError as error:
                print(f"with-daemon: cannot run {command[0]}: {error.strerror}", file=sys.stderr)
                status = 127
            try:
                stopped = daemon.stop(60)
            except DaemonError as error:
                stopped = str(error)
            if clean_stop and stopped != 0:
                print(f"with-daemon: the daemon did not exit 0 on SIGTERM: {stopped}", file=sys.stderr)
                return status or 1
            return status


def self_test():
    """A daemon that cannot start is reported at once, with why: a bad flag, a port in use. And one that
    starts answers on the port it reports."""
    import urllib.request
    binary = os.environ.get("LIFECYCLED_BIN") or ".build/debug/lifecycled"
    failures = []

    def expect_error(what, daemon, *needles):
        started = time.monotonic()
        try:
            daemon.start()
            daemon.close()
            failures.append(f"{what}: it started")
        except DaemonError as error:
            took = time.monotonic() - started
            text = str(error)
            missing = [n for n in needles if n not in text]
            if missing or took > 10:
                failures.append(f"{what}: after {took:.1f} s the error does not say {missing}:\n{text}")
            else:
                print(f"with-daemon --self-test: {what} reported in {took:.2f} s:\n{text}")

    with tempfile.TemporaryDirectory(prefix="lifecycled-self-test-") as work:
        expect_error("a bad flag", Daemon(binary, "--in-memory", "--no-such-flag", log=os.path.join(work, "a")),
                     "exited with status", "--no-such-flag", "the end of its log")
        with Daemon(binary, "--in-memory", log=os.path.join(work, "b")) as holder:
            if urllib.request.urlopen(holder.url + "/readyz", timeout=10).status != 200:
                failures.append("a started daemon's /readyz is not 200")
            expect_error("a port in use", Daemon(binary, "--in-memory", port=holder.port, log=os.path.join(work, "c")),
                         "exited with status", str(holder.port))
            if holder.stop() != 0:
                failures.append("SIGTERM did not end the daemon with status 0")
    for failure in failures:
        print(f"with-daemon --self-test: FAIL {failure}", file=sys.stderr)
    if not failures:
        print("with-daemon --self-test: PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(self_test() if sys.argv[1:] == ["--self-test"] else with_daemon(sys.argv[1:]))
