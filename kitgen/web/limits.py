"""Limits on what a request may send: body size and JSON depth."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

MAX_BODY = 64 * 1024     # bytes: a question is a few hundred; a simulator form a few dozen


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413, whether declared or streamed."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self._refuse(scope, receive, send)
        seen = 0
        started = False

        async def limited_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge
            return message

        async def tracking_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(scope, receive, send)

    async def _refuse(self, scope, receive, send):
        response = JSONResponse({"error": f"the request body is larger than {self.limit // 1024} KiB"},
                                status_code=413)
        await response(scope, receive, send)


async def read_json(request: Request):
    """The request's JSON body, or a 400 response saying why it is not JSON."""
    body = await request.body()
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as exc:
        message = f"the request body is not UTF-8 text (byte {exc.start + 1})"
    except json.JSONDecodeError as exc:
        message = f"not JSON ({exc.msg} at column {exc.colno})"
    except RecursionError:
        message = "not a question (JSON nested too deeply)"
    return Response(json.dumps({"error": message}), status_code=400, media_type="application/json")
