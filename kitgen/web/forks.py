"""The fork server that starts the web app's worker processes (see :mod:`kitgen.web.worker`).

Importing kitgen, reportlab, Pillow and PDFium takes a fresh interpreter most of
a second; a server starts three workers, and a fresh one after every crash,
time-out or memory bomb.  So one process per server process, the fork server,
is started fresh (``python -m kitgen.web.forks``: it never inherits the
server's threads or its main script), imports the modules the workers want
once, and forks each worker from itself.  It never runs a call, so every
worker starts from the same state: nothing one call did reaches another
worker.  Each worker takes the server's working folder and environment (the
first message on its call socket: no request to the fork server holds more
than a memory limit and module names), stdout and stderr as they are when it
is asked for, and sets its own memory limit.  A fault of one worker, or a fork
the system refuses, fails that worker alone.

A worker is the fork server's child, not the server's: the server asks for one
with two sockets, one for calls and one for its status.  The fork server
writes the worker's exit code on the status socket once it has reaped it;
anything written to the status socket, or its closing, makes the fork server
kill the worker if it has not ended (only the reaper kills, so a pid never
names another process).  When the server's end of the control socket closes
(the server stopped or died) the fork server kills its workers and ends; on
Linux a worker also dies with the fork server.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import pickle
import selectors
import signal
import socket
import subprocess
import sys
import threading
import traceback

from kitgen.outputs.workers import die_with
from kitgen.settings import environment, take_environment
from kitgen.web.worker_loop import serve_calls

MAX_MESSAGE = 1 << 16          # bytes of one request: a memory limit and the modules to import


class ForkServer:
    """The fork server of this process, started when first asked for a worker and again if it died."""

    def __init__(self):
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._control: socket.socket | None = None

    def _ensure(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self._close()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._process = subprocess.Popen([sys.executable, "-m", "kitgen.web.forks", str(theirs.fileno())],
                                         pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self._control = ours

    def _close(self) -> None:
        if self._control is not None:
            self._control.close()
        if self._process is not None:
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = self._control = None

    def worker(self, memory: int | None, preload: tuple[str, ...]) -> tuple[socket.socket, socket.socket]:
        """A new worker process serving calls: its call socket and its status socket (our ends)."""
        message = pickle.dumps((memory, tuple(preload)))        # small: the surroundings go on the call socket
        with self._lock:
            for attempt in (1, 2):              # a fork server found dead is started again once
                self._ensure()
                calls, their_calls = socket.socketpair()
                status, their_status = socket.socketpair()
                try:
                    socket.send_fds(self._control, [message],
                                    [their_calls.fileno(), their_status.fileno(), 1, 2])
                except OSError:
                    calls.close(), status.close()
                    if attempt == 2 or self._process.poll() is None:    # not because it died: say why
                        raise
                    self._close()
                    continue
                finally:
                    their_calls.close(), their_status.close()
                return calls, status
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._lock:
            self._close()

    def forget(self) -> None:
        """In a process forked from this one (a pool's worker): its copy of the control socket closed,
        so the fork server still ends with the process that started it, and a fork server of its own
        started if it asks for a worker."""
        self._lock = threading.Lock()
        if self._control is not None:
            self._control.close()
        self._process = self._control = None


_server = ForkServer()
atexit.register(_server.close)
os.register_at_fork(after_in_child=_server.forget)


def surroundings() -> tuple[str, dict[str, str]]:
    """The working folder and environment a worker takes: the caller sends them as its first message."""
    return os.getcwd(), environment()


def start_worker(memory: int | None, preload: tuple[str, ...]) -> tuple[socket.socket, socket.socket]:
    return _server.worker(memory, preload)


def _reap(children: dict, selector: selectors.BaseSelector) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        channel = children.pop(pid, None)
        if channel is not None:
            try:
                channel.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            except OSError:
                pass
            selector.unregister(channel)
            channel.close()


def _child(fds: list[int], request: bytes, closing: list, server: int) -> None:
    """In the forked worker: take the caller's surroundings, then serve calls until the socket closes."""
    code = 0
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)     # as in any fresh interpreter
        die_with(server)            # its time limit needs the fork server, which alone can kill it
        for thing in closing:
            thing.close()
        calls, status, out, err = fds
        os.close(status)
        os.dup2(out, 1), os.dup2(err, 2)
        os.close(out), os.close(err)
        memory, preload = pickle.loads(request)
        from multiprocessing.connection import Connection

        conn = Connection(calls)
        cwd, env = conn.recv()              # the caller's surroundings, sent first (see surroundings())
        os.chdir(cwd)
        take_environment(env)
        serve_calls(conn, memory, preload)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc(file=sys.stderr)
        code = 1
    finally:
        try:
            sys.stdout.flush(), sys.stderr.flush()
        finally:
            os._exit(code)


def serve(control_fd: int) -> None:
    """The fork server's loop: fork a worker for each request, reap them, kill those asked for."""
    control = socket.socket(fileno=control_fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C stops the server, which closes the control socket
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False), os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    signal.set_wakeup_fd(wake_write)
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ, "control")
    selector.register(wake_read, selectors.EVENT_READ, "reap")
    children: dict[int, socket.socket] = {}         # worker pid -> its status socket, until reaped
    me = os.getpid()
    while True:
        for key, _ in selector.select():
            try:
                if key.data == "control":
                    if not _fork_asked(control, children, selector, me, (wake_read, wake_write)):
                        for pid in children:            # the server is gone: so are its workers
                            os.kill(pid, signal.SIGKILL)
                        return
                elif key.data == "reap":
                    try:
                        while os.read(wake_read, 4096):
                            pass
                    except BlockingIOError:
                        pass
                    _reap(children, selector)
                else:
                    _kill_asked(key.data, key.fileobj, children, selector)
            except Exception:           # never all workers for one: say what went wrong, go on
                traceback.print_exc(file=sys.stderr)


def _fork_asked(control: socket.socket, children: dict, selector: selectors.BaseSelector, me: int,
                wake: tuple[int, int]) -> bool:
    """Fork the worker the server asks for on ``control``; False when the server is gone."""
    try:
        request, fds, _, _ = socket.recv_fds(control, MAX_MESSAGE, 4)
    except OSError:
        request, fds = b"", []
    if not request or len(fds) != 4:
        for fd in fds:
            os.close(fd)
        return bool(request)
    try:
        imported = len(sys.modules)
        for module in pickle.loads(request)[1]:      # once here, for every worker after
            try:
                importlib.import_module(module)
            except Exception:       # the worker imports it again, and reports what fails
                pass
        if len(sys.modules) != imported:
            gc.collect()            # a failed import's garbage is not kept for good
        gc.freeze()     # what is imported stays: a worker's collections never walk it (nor copy its pages)
        pid = os.fork()
    except BaseException:           # no worker (fork refused: EAGAIN, ENOMEM): the caller sees it end
        for fd in fds:
            os.close(fd)
        raise
    if pid == 0:
        _child(fds, request, [selector, control, *filter(None, children.values())] +
               [_FD(fd) for fd in wake], me)
    channel = socket.socket(fileno=fds[1])
    for fd in (fds[0], fds[2], fds[3]):
        os.close(fd)
    children[pid] = channel
    selector.register(channel, selectors.EVENT_READ, pid)
    return True


def _kill_asked(pid: int, channel: socket.socket, children: dict, selector: selectors.BaseSelector) -> None:
    """A word or the end on worker ``pid``'s status socket: kill it if it has not been reaped."""
    if children.get(pid) is not channel:        # reaped (its socket closed) earlier in the same wake-up
        return
    try:
        said = channel.recv(64)
    except OSError:
        said = b""
    os.kill(pid, signal.SIGKILL)
    if not said:
        selector.unregister(channel)
        channel.close()
        children[pid] = None


class _FD:
    """A plain file descriptor, closed as the child drops what the fork server holds."""

    def __init__(self, fd: int):
        self.fd = fd

    def close(self) -> None:
        os.close(self.fd)


if __name__ == "__main__":
    serve(int(sys.argv[1]))
