"""How long a connection to ``kitgen serve`` may take, and who gets a place when the server is full.

uvicorn closes a connection left idle after a response (``timeout_keep_alive``)
and refuses headers larger than h11's limit, but on its own it waits for ever
on a connection that never finishes its request (one that sends nothing,
headers without their last line, or a body shorter than it declared: a "slow
loris"), and on one that never takes its answer; and when it holds its limit
of connections, it refuses every new request, the user's too, for as long as
the idle ones stay.  :class:`ProgressProtocol` gives uvicorn's h11 protocol
three rules, so that a connection holds its place only while it makes
progress:

- **Deadline**: from the moment a connection opens, or its last answer ends,
  the next request must have arrived whole (headers and body) within
  ``seconds``, or the connection is closed.  Once a request has arrived, no
  deadline runs: an answer may take as long as it takes, and the preview's
  event stream stays open for hours.
- **Stalled answers**: an answer the client takes nothing of for ``seconds``
  (the server's buffer for it stays full) is cut.
- **Room**: the server keeps at most ``most`` connections.  A new one beyond
  that takes the place of the connection that has waited longest for its
  request (idle after an answer, or still sending one), which is closed;
  connections being answered keep theirs.  When ``most`` answers are in
  progress, a further request is answered 503 with one line of JSON.
"""

from __future__ import annotations

import json
import socket
import struct

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0          # a whole request (headers and body), from connection or the last answer
KEEP_ALIVE_SECONDS = 5          # an idle connection after an answer
MAX_HEADER_BYTES = 16 * 1024    # request line and headers still incomplete (h11's own limit, said here)
MAX_CONNECTIONS = 128           # connections, and answers in progress, at once
_WAITING = (h11.IDLE, h11.SEND_BODY)     # the client's states while its request is not whole


class ProgressProtocol(H11Protocol):
    """uvicorn's h11 protocol, where a connection holds its place only while it makes progress: the
    deadline, the stalled-answer and the room rules of the module docstring."""

    seconds: float = REQUEST_SECONDS
    most: int = MAX_CONNECTIONS
    _deadline = None
    _stall = None
    waiting_since: float | None = None  # when the connection began to wait for a request; None: being answered

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.app = _Full(self.app, self.tasks, self.most)   # uvicorn's limit_concurrency would refuse everyone

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()
        if len(self.connections) > self.most:
            self._make_room()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state not in _WAITING:
            self._disarm()          # the request is whole (or the connection is ending)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state in _WAITING:
            self._arm()             # the next request on this connection has its own deadline

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._stall is None:
            self._stall = self.loop.call_later(self.seconds, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._cancel_stall()

    def connection_lost(self, exc) -> None:
        self._disarm()
        self._cancel_stall()
        super().connection_lost(exc)

    def _make_room(self) -> None:
        # A closed connection leaves the set a moment later: it is no longer waiting from now on, so
        # the next connection of a burst makes room by closing another.
        waiting = [c for c in self.connections if c is not self and getattr(c, "waiting_since", None) is not None]
        if waiting:
            min(waiting, key=lambda c: c.waiting_since)._close("closed a connection waiting for its request "
                                                               "to make room for a new one")

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.seconds, self._expired)
        self.waiting_since = self.loop.time()

    def _disarm(self) -> None:
        self.waiting_since = None
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self._close(f"closed a connection whose request was not whole after {self.seconds:g} s")

    def _close(self, why: str) -> None:
        self._disarm()
        self.logger.info(why)
        self.transport.close()

    def _cancel_stall(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def _stalled(self) -> None:
        self._stall = None
        if self.transport.is_closing():
            return
        self.logger.info("cut an answer the client took nothing of for %g s", self.seconds)
        sock = self.transport.get_extra_info("socket")
        if sock is not None:        # reset at once: a plain close keeps trying to send what nobody takes
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()


class _Full:
    """ASGI app: answers 503 (one line of JSON) while ``most`` other answers are in progress."""

    def __init__(self, app, tasks: set, most: int):
        self.app, self.tasks, self.most = app, tasks, most

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or len(self.tasks) <= self.most:     # this request's own task is one
            return await self.app(scope, receive, send)
        body = json.dumps({"error": f"the server is answering {self.most} requests at once; "
                                    "try again when one has ended"}).encode()
        await send({"type": "http.response.start", "status": 503,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def protocol(seconds: float = REQUEST_SECONDS, most: int | None = None) -> type[ProgressProtocol]:
    """The protocol class for uvicorn's ``http`` setting: a deadline of ``seconds``, room for ``most``
    connections (default :data:`MAX_CONNECTIONS`)."""
    return type("ProgressProtocol", (ProgressProtocol,),
                {"seconds": seconds, "most": MAX_CONNECTIONS if most is None else most})


def settings(request_seconds: float = REQUEST_SECONDS) -> dict:
    """The connection settings of ``kitgen serve``'s uvicorn.Config."""
    return {"http": protocol(request_seconds), "timeout_keep_alive": KEEP_ALIVE_SECONDS,
            "h11_max_incomplete_event_size": MAX_HEADER_BYTES}
