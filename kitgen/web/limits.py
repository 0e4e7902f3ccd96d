"""Limits on what a request may send: body size, JSON depth and the numbers in it."""

from __future__ import annotations

import json
import math

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

MAX_BODY = 64 * 1024     # bytes: a question is a few hundred; a simulator form a few dozen
MAX_DIGITS = 19          # digits of a whole number in a request: every field's range is far below this


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


class BadNumber:
    """A number of a request that no field takes, kept in place so the error can name its field."""

    def __init__(self, why: str):
        self.why = why


def _whole(text: str):
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return BadNumber(f"a whole number of {digits:,} digits is far too large (at most {MAX_DIGITS})")
    return int(text)


def _real(text: str):
    value = float(text)
    return value if math.isfinite(value) else BadNumber(f"{text[:40]} is too large a number")


def _constant(text: str):
    return BadNumber(f"{text} is not a number JSON allows")


def _field(path: list) -> str:
    """A place in a JSON value as a page would write it: hand, hands[2], rules.NAME."""
    text = ""
    for step in path:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            step = step if len(step) <= 40 else step[:40] + "..."
            text += f".{step}" if text else step
    return text or "the body"


def bad_number(data) -> str | None:
    """The first :class:`BadNumber` in ``data`` as one line naming its field, or None."""
    stack = [([], data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, BadNumber):
            return f'"{_field(path)}": {value.why}'
        if isinstance(value, dict):
            stack.extend((path + [key], item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((path + [i], item) for i, item in reversed(list(enumerate(value))))
    return None


def _refuse(message: str) -> Response:
    return Response(json.dumps({"error": message}), status_code=400, media_type="application/json")


async def read_json(request: Request):
    """The request's JSON body, or a 400 response saying in one line why it is not a request.

    Numbers no field takes are refused here, naming their field: a whole number of more than
    :data:`MAX_DIGITS` digits (Python would spend its time on one of millions), one too large for
    a float (``1e999``), and ``NaN`` and ``Infinity`` (which JSON does not have).
    """
    try:
        body = await request.body()
    except ClientDisconnect:
        return _refuse("the request ended before its body")
    try:
        data = json.loads(body.decode("utf-8"), parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except UnicodeDecodeError as exc:
        return _refuse(f"the request body is not UTF-8 text (byte {exc.start + 1})")
    except json.JSONDecodeError as exc:
        return _refuse(f"not JSON ({exc.msg} at column {exc.colno})")
    except RecursionError:
        return _refuse("not a question (JSON nested too deeply)")
    problem = bad_number(data)
    return _refuse(problem) if problem else data
