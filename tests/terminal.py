"""kitgen in a process of its own with its stderr on a pseudo-terminal, where it shows its progress bar from
the start (``KITGEN_PROGRESS_DELAY=0``): a test reads the bar to know how far the run has got, and interrupts
or kills it at the step it chose, however fast or slow the machine is.

Each run is forked from a process that has imported kitgen once (:mod:`tests.kitgen_forks`) rather than
started as a fresh interpreter that imports it again: the same command, in a process of its own that takes
signals and exits with its status as a fresh one does."""

from __future__ import annotations

import atexit
import os
import pickle
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import time

from tests.conftest import HANG_GUARD, REPO
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")           # click hides the cursor while its bar shows
_BAR = re.compile(r"\[[#-]*\]\s+(\d+)/(\d+)")           # click's bar and its position: [#####-----]  12/49


class Terminal:
    """``kitgen ARGS`` in a session of its own, stdout discarded, stderr on a pseudo-terminal; ``env``
    adds to (or overrides) the environment.  Use it as a context manager: whatever is left of the run
    is killed at the end."""

    def __init__(self, args: list, **env: str):
        self.args = [str(a) for a in args]
        leader, follower = pty.openpty()
        try:
            self.process = _Run(self.args, {**os.environ, "KITGEN_PROGRESS_DELAY": "0", **env}, follower)
        finally:
            os.close(follower)
        self._leader: int | None = leader
        self._shown = b""
        self.done: int | None = None            # the last position the bar showed: steps done,
        self.total: int | None = None           # of this many

    def __enter__(self) -> "Terminal":
        return self

    def __exit__(self, *exc) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._close()

    def text(self) -> str:
        """All the terminal has shown so far."""
        return _ANSI.sub("", self._shown.decode("utf-8", "replace"))

    def reach(self, step: int) -> bool:
        """Read the terminal until the bar shows at least ``step`` steps done (True), or until the run
        ends without showing them (False)."""
        deadline = time.monotonic() + HANG_GUARD
        while self.done is None or self.done < step:
            if not self._read(deadline):
                return False
        return True

    def finish(self) -> tuple[int, list[str]]:
        """Read until the run ends: its exit status, and the lines it showed other than its bar's."""
        deadline = time.monotonic() + HANG_GUARD
        while self._read(deadline):
            pass
        status = self.process.wait(timeout=HANG_GUARD)
        return status, [line for line in re.split(r"[\r\n]+", self.text()) if line.strip() and not _BAR.search(line)]

    def _read(self, deadline: float) -> bool:
        """Take in what the terminal shows next; False once it has closed (the run and its workers ended)."""
        if self._leader is None:
            return False
        ready, _, _ = select.select([self._leader], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"kitgen {' '.join(self.args)}: still running after {HANG_GUARD:g} s; it showed {self.text()!r}"
        try:
            chunk = os.read(self._leader, 4096)
        except OSError:                          # EIO: every process holding the terminal has ended
            chunk = b""
        if not chunk:
            self._close()
            return False
        self._shown += chunk
        positions = _BAR.findall(self.text()[-200:])
        if positions:
            self.done, self.total = map(int, positions[-1])
        return True

    def _close(self) -> None:
        if self._leader is not None:
            os.close(self._leader)
            self._leader = None


class _Run:
    """A run of ``kitgen ARGS`` forked by the fork server, as much of :class:`subprocess.Popen` as the
    tests use: its pid (the leader of its own session), poll, wait, kill and its return code."""

    def __init__(self, args: list[str], env: dict[str, str], stderr_fd: int):
        ours, theirs = socket.socketpair()
        try:
            _FORKS.ask(pickle.dumps((args, env, str(REPO))), [stderr_fd, theirs.fileno()])
        finally:
            theirs.close()
        self._status = ours
        self._said = b""
        self.returncode: int | None = None
        self.pid = int(self._line(HANG_GUARD))
        self._pidfd = os.pidfd_open(self.pid)      # kill() never reaches another process that took its pid

    def _line(self, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._said:
            ready, _, _ = select.select([self._status], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
            chunk = self._status.recv(64)
            assert chunk, "the fork server's supervisor ended without saying how the run ended"
            self._said += chunk
        line, self._said = self._said.split(b"\n", 1)
        return line.decode()

    def poll(self) -> int | None:
        return self.wait(0) if self.returncode is None and select.select([self._status], [], [], 0)[0] \
            else self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            line = self._line(HANG_GUARD if timeout is None else timeout)
            if line is None:
                raise subprocess.TimeoutExpired(f"kitgen {self.pid}", timeout)
            self.returncode = int(line)
            self._status.close()
            os.close(self._pidfd)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            try:
                signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
            except ProcessLookupError:
                pass


class _ForkServer:
    """The fork server of this test process, started at its first run (and again should it have died)."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.control: socket.socket | None = None

    def ask(self, message: bytes, fds: list[int]) -> None:
        if self.process is None or self.process.poll() is not None:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            self.process = subprocess.Popen([sys.executable, "-m", "tests.kitgen_forks", str(theirs.fileno())],
                                            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, cwd=REPO, start_new_session=True)
            theirs.close()
            self.control = ours
            atexit.register(self.close)
        socket.send_fds(self.control, [message], fds)

    def close(self) -> None:
        if self.process is not None:
            self.control.close()            # the server ends as its control socket closes
            self.process.wait(HANG_GUARD)
            self.process = None


_FORKS = _ForkServer()
