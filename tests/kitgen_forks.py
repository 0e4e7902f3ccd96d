"""A process that imports what ``kitgen build`` and ``kitgen export`` import, once, and forks each run of the
command the tests ask for from itself (see :class:`tests.terminal.Terminal`).

A fresh interpreter spends about a quarter of a CPU-second importing kitgen, reportlab and Pillow before a
build's first line of work; the tests that interrupt and kill builds start some twenty of them.  A run
forked from here is a process of its own as a fresh one is: it runs ``kitgen.cli.main()`` with its own
arguments, environment, working folder and session, stdin and stdout on /dev/null and stderr on the test's
pseudo-terminal; it takes signals, exits with its status and ends through the interpreter's own exit
(atexit, finalisers) as a fresh ``python -c "from kitgen.cli import main; main()"`` does.  This process
never runs a command itself, so every run starts from the same state, that of a fresh interpreter that has
imported kitgen.

Each request (on the control socket: the arguments, environment and folder, with the terminal's descriptor
and a status socket) forks a supervisor, which forks the run, writes the run's pid on the status socket,
reaps it, and writes its exit code (negative: the signal that ended it) there.  The server ends when the
test process's end of the control socket closes, once every run has ended.
"""

from __future__ import annotations

import importlib
import os
import pickle
import socket
import sys

# kitgen's commands import their drawing modules as they first need them (a command that draws nothing starts
# sooner): a build or an export imports these, some 130 modules with reportlab's, which a run forked from here
# finds imported, as the commands' own modules
PRELOAD = ("kitgen.cli", "kitgen.outputs.kit", "kitgen.outputs.memory", "kitgen.outputs.exports",
           "kitgen.outputs.raster", "kitgen.outputs.workers", "kitgen.outputs.manifest", "kitgen.outputs.png",
           "kitgen.outputs.card_pages", "kitgen.outputs.naming", "kitgen.data.decks", "kitgen.data.components",
           "kitgen.data.component_text", "kitgen.data.derived", "kitgen.data.icons", "kitgen.layout.areas",
           "kitgen.layout.card_boxes", "kitgen.layout.known", "kitgen.layout.stack_diagram", "kitgen.render.sheets",
           "kitgen.render.card", "kitgen.render.card_draw", "kitgen.render.card_fit", "kitgen.render.card_text",
           "kitgen.render.card_contrast", "kitgen.render.rulebook", "kitgen.render.aids", "kitgen.render.scale_bar",
           "kitgen.render.canvas", "kitgen.render.fonts", "kitgen.render.images", "kitgen.render.art_frame",
           "kitgen.render.rich_text", "kitgen.render.paragraphs", "kitgen.render.text_fit",
           "kitgen.render.aids.reference", "jinja2.meta", "multiprocessing.connection", "multiprocessing.popen_fork")
MAX_MESSAGE = 1 << 20


def serve(control_fd: int) -> bool:
    """The server's loop; True in a forked run, which then runs the command (see the end of this module)."""
    for module in PRELOAD:
        importlib.import_module(module)
    control = socket.socket(fileno=control_fd)
    while True:
        try:
            request, fds, _, _ = socket.recv_fds(control, MAX_MESSAGE, 2)
        except OSError:
            request, fds = b"", []
        if not request or len(fds) != 2:
            _reap(0)                                  # every supervisor, each once its run has ended
            return False
        pid = os.fork()
        if pid == 0:
            control.close()
            return _supervise(pickle.loads(request), *fds)
        for fd in fds:
            os.close(fd)
        _reap(os.WNOHANG)                             # the supervisors that have ended


def _reap(options: int) -> None:
    try:
        while os.waitpid(-1, options)[0]:
            pass
    except ChildProcessError:
        pass


def _supervise(request, stderr_fd: int, status_fd: int) -> bool:
    args, env, cwd = request
    status = socket.socket(fileno=status_fd)
    try:
        pid = os.fork()
    except BaseException:
        os._exit(1)             # the test sees the status socket close without a pid
    if pid == 0:
        status.close()
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0), os.dup2(devnull, 1), os.dup2(stderr_fd, 2)
        os.close(devnull), os.close(stderr_fd)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        sys.argv = ["-c", *args]
        return True
    code = 1
    try:
        os.close(stderr_fd)
        status.sendall(f"{pid}\n".encode())
        _, waited = os.waitpid(pid, 0)
        status.sendall(f"{os.waitstatus_to_exitcode(waited)}\n".encode())
        code = 0
    finally:
        os._exit(code)


if __name__ == "__main__":
    if serve(int(sys.argv[1])):
        from kitgen.cli import main

        main()
