"""A module that makes the next os.fork() of the process importing it fail once, as a machine out of
processes or memory would (EAGAIN): imported by the web app's fork server as a worker's preload."""

import errno
import os

_fork = os.fork


def _refused():
    os.fork = _fork                             # once only
    raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")


os.fork = _refused
