"""An answer that sends a file already open, as it is read.

Starlette's ``FileResponse`` takes a path and opens it again when it sends, by
which time the path may lead somewhere else; and reading a whole file before
sending it holds all of it in memory for as long as the client takes to read it,
for each client.  :class:`OpenFileResponse` sends the very file that was opened
and checked (:meth:`kitgen.web.games.ServedGame.open`), a chunk at a time, each
read once the one before has gone out, and closes it at the end, whatever happens.
"""

from __future__ import annotations

import os
import weakref

import anyio.to_thread
from starlette.responses import Response

CHUNK = 64 * 1024          # bytes read and sent at a time


class OpenFileResponse(Response):
    """The file open as ``fd``, sent whole (its size when the answer starts) and closed."""

    def __init__(self, fd: int, media_type: str, headers: dict[str, str] | None = None):
        self._close = weakref.finalize(self, os.close, fd)     # closed once, sent or not
        self.fd = fd
        self.size = os.fstat(fd).st_size
        self.status_code = 200
        self.media_type = media_type
        self.background = None
        self.init_headers({**(headers or {}), "content-length": str(self.size)})

    async def __call__(self, scope, receive, send) -> None:
        try:
            await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
            left = 0 if scope["method"] == "HEAD" else self.size
            while left:
                chunk = await anyio.to_thread.run_sync(os.read, self.fd, min(CHUNK, left))
                if not chunk:       # cut short while sent: the connection ends, and the client knows
                    return
                left -= len(chunk)
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self._close()
