"""kitgen in a child process with its stderr on a pseudo-terminal, where it shows its progress bar from the
start (``KITGEN_PROGRESS_DELAY=0``): a test reads the bar to know how far the run has got, and interrupts or
kills it at the step it chose, however fast or slow the machine is."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

from tests.conftest import HANG_GUARD, REPO

KITGEN = [sys.executable, "-c", "from kitgen.cli import main; main()"]
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")           # click hides the cursor while its bar shows
_BAR = re.compile(r"\[[#-]*\]\s+(\d+)/(\d+)")           # click's bar and its position: [#####-----]  12/49


class Terminal:
    """``kitgen ARGS`` in a session of its own, stdout discarded, stderr on a pseudo-terminal; ``env``
    adds to (or overrides) the environment.  Use it as a context manager: whatever is left of the run
    is killed at the end."""

    def __init__(self, args: list, **env: str):
        self.args = [str(a) for a in args]
        leader, follower = pty.openpty()
        self.process = subprocess.Popen(KITGEN + self.args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=follower, cwd=REPO, start_new_session=True,
                                        env={**os.environ, "KITGEN_PROGRESS_DELAY": "0", **env})
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
