"""How long a connection to ``kitgen serve`` may take: every request arrives whole within a bound.

uvicorn closes a connection left idle after a response (``timeout_keep_alive``)
and refuses headers larger than h11's limit, but it waits for ever on a
connection that never finishes its request: one that sends nothing, headers
without their last line, or a body shorter than it declared (a "slow loris"
holds the server's connections that way).  :func:`protocol` gives uvicorn's
h11 protocol a deadline: from the moment a connection opens, or its last
response ends, the next request must have arrived whole (headers and body)
within ``seconds``, or the connection is closed.  Once a request has arrived,
no deadline runs: an answer may take as long as it takes, and the preview's
event stream stays open for hours.
"""

from __future__ import annotations

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_SECONDS = 10.0          # a whole request (headers and body), from connection or the last answer
KEEP_ALIVE_SECONDS = 5          # an idle connection after an answer
MAX_HEADER_BYTES = 16 * 1024    # request line and headers (h11's own limit, said here)
MAX_CONNECTIONS = 128           # connections and requests at once; more are answered 503


class RequestDeadline(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request is not whole within :attr:`seconds`."""

    seconds: float = REQUEST_SECONDS
    _deadline = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE and self.conn.their_state is not h11.SEND_BODY:
            self._disarm()          # the request is whole (or the connection is ending)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state in (h11.IDLE, h11.SEND_BODY):
            self._arm()             # the next request on this connection has its own deadline

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.logger.info("closed a connection whose request was not whole after %g s", self.seconds)
            self.transport.close()


def protocol(seconds: float = REQUEST_SECONDS) -> type[RequestDeadline]:
    """The protocol class for uvicorn's ``http`` setting, with a deadline of ``seconds``."""
    return type("RequestDeadline", (RequestDeadline,), {"seconds": seconds})


def settings(request_seconds: float = REQUEST_SECONDS) -> dict:
    """The connection settings of ``kitgen serve``'s uvicorn.Config."""
    return {"http": protocol(request_seconds), "timeout_keep_alive": KEEP_ALIVE_SECONDS,
            "h11_max_incomplete_event_size": MAX_HEADER_BYTES, "limit_concurrency": MAX_CONNECTIONS}
