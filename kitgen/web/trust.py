"""Which requests the web app answers: those sent to its own names, and changes asked by its own pages.

Any web page the user opens can make the browser send requests to this
server: a form or a ``fetch`` aimed at ``127.0.0.1:8000`` (cross-site request
forgery), or a name of its own that it points at this machine once its page
has loaded (DNS rebinding), after which the browser lets it read the answers.
Three rules, in :class:`Guard`, close these ways in:

- **Host**: a request must name the server by a name or address it was
  started on (:func:`allowed_hosts`).  A page elsewhere that rebinds its name
  sends that name, and is refused.
- **Other pages**: a request that sends an ``Origin`` (a browser sends one
  with every request a page makes by script to another site, event streams
  included, and with every change) must name this server's own: ``http://``,
  one of its names, and the port the request came in on.  A page elsewhere
  reads none of the answers anyway (its browser keeps them from it); refused
  at once, its requests start no work either.  What a page elsewhere embeds
  (an image, a script, a frame) sends no ``Origin``, but browsers say where it
  comes from (``Sec-Fetch-Site``): it is refused too, so such a page can
  neither learn which files a game folder holds (by an image that loads or
  fails), nor set the server drawing pages, nor frame the server's pages to
  have the user click in them.  Only a link followed from elsewhere (the whole
  window navigating) is answered.
- **Changes**: every request but GET and HEAD (the API's questions, the
  simulator's runs) must send ``Content-Type: application/json``, which a page
  elsewhere cannot send without the browser asking this server first (a
  question it never says yes to).

Refusals are one line of JSON, ``{"error": "..."}``: 400 for the Host, 403
for the rest.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse

WILDCARDS = frozenset({"0.0.0.0", "::", ""})      # every address of the machine
LOOPBACK_NAMES = frozenset({"localhost"})
SAFE_METHODS = frozenset({"GET", "HEAD"})
OTHER_SITES = frozenset({"cross-site", "same-site"})   # Sec-Fetch-Site of a page elsewhere (same-site: another port)
JSON = "application/json"
SHOWN = 80                                         # characters of a refused header shown back


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address (an IPv4 address mapped into IPv6 as itself), or None when it is a name."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return getattr(address, "ipv4_mapped", None) or address


def _resolve(name: str) -> set[str]:
    """The addresses ``name`` stands for on this machine (none when it does not resolve)."""
    try:
        infos = socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return set()
    addresses = (_address(info[4][0].split("%")[0]) for info in infos)     # without an IPv6 zone (%eth0)
    return {str(a) for a in addresses if a is not None}


def _name(text: str) -> str:
    """A host as written in a URL or on the command line, as compared: lower case, no brackets or final dot."""
    text = text.strip().lower()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    address = _address(text)
    return str(address) if address is not None else text.rstrip(".")


@dataclass(frozen=True)
class Hosts:
    """The names a server answers to; besides them, the address a request came in on, written as an address."""

    names: frozenset[str]

    def allow(self, name: str, local: str | None) -> bool:
        """Whether Host (or Origin) ``name`` (as :func:`_name` writes it) may reach a server whose
        connection came in on the address ``local`` (None when unknown)."""
        if name in self.names:
            return True
        # An address is no name a page elsewhere can point at this machine: the very address the
        # request came in on is this server's own (a server on 0.0.0.0 has one for each network).
        mine = _address(local) if local else None
        return mine is not None and _address(name) == mine


def allowed_hosts(host: str) -> Hosts:
    """The names and addresses a server started on ``--host host`` answers to.

    - ``host`` itself, and the addresses it resolves to;
    - ``localhost`` too when they are all loopback addresses (``127.0.0.0/8``, ``::1``);
    - for ``0.0.0.0`` and ``::`` (every address of the machine): ``localhost``, the machine's own
      host name (plain, fully qualified and as ``NAME.local``) and its addresses.  Besides these,
      :meth:`Hosts.allow` takes the address each request came in on.
    """
    wanted = _name(host)
    names = {wanted}
    if wanted in WILDCARDS:
        machine, fqdn = _name(socket.gethostname()), _name(socket.getfqdn())
        own = {n for n in (machine, fqdn, f"{machine}.local") if n and n.split(".")[0] not in LOOPBACK_NAMES}
        names |= own | LOOPBACK_NAMES
        for name in own - {f"{machine}.local"}:         # resolving an absent .local name can take seconds
            names |= _resolve(name)
    else:
        names |= _addresses(wanted)
        if loopback(host):
            names |= LOOPBACK_NAMES
    return Hosts(frozenset(n for n in names if n))


def _addresses(name: str) -> set[str]:
    return {name} if _address(name) is not None else _resolve(name)


def loopback(host: str) -> bool:
    """Whether ``--host host`` serves this machine alone: every address it stands for is a loopback address."""
    addresses = _addresses(_name(host)) if _name(host) not in WILDCARDS else set()
    return bool(addresses) and all(_address(a).is_loopback for a in addresses)


def host_name(value: str) -> str | None:
    """The name a Host header gives (``localhost:8000`` -> ``localhost``, ``[::1]:8000`` -> ``::1``),
    or None when it is not a host and port."""
    value = value.strip()
    if value.startswith("["):
        end = value.find("]")
        name, rest = (value[1:end], value[end + 1:]) if end > 0 else ("", "")
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if rest and not (rest.startswith(":") and rest[1:].isascii() and (rest[1:].isdigit() or rest == ":")):
        return None
    name = _name(name)
    return name or None


def _shown(text: str) -> str:
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "...")


class Guard:
    """ASGI middleware: the Host and Origin rules for every request, the JSON rule for changes."""

    def __init__(self, app, hosts: Hosts):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        server = scope.get("server") or (None, None)
        problem, status = self._host_problem(headers.get("host", ""), server[0]), 400
        if problem is None:
            problem, status = self._elsewhere_problem(scope, headers, server), 403
        if problem is None and scope["method"] not in SAFE_METHODS:
            problem, status = self._kind_problem(scope, headers), 403
        if problem is not None:
            return await JSONResponse({"error": problem}, status_code=status)(scope, receive, send)
        await self.app(scope, receive, send)

    def _host_problem(self, value: str, local: str | None) -> str | None:
        name = host_name(value)
        if name is not None and self.hosts.allow(name, local):
            return None
        return (f"this server answers only to the names it was started on, not to Host {_shown(value)}; "
                "open the address kitgen serve printed")

    def _elsewhere_problem(self, scope, headers: Headers, server) -> str | None:
        method, origin, site = scope["method"], headers.get("origin"), headers.get("sec-fetch-site")
        if origin is not None and not self._own_origin(origin, scope, server):
            return f"a {method} from another web page is refused: Origin {_shown(origin)} is not this server's own"
        if site in OTHER_SITES and not (method in SAFE_METHODS and headers.get("sec-fetch-mode") == "navigate"
                                        and headers.get("sec-fetch-dest") == "document"):
            return (f"a {method} from another web page is refused (Sec-Fetch-Site: {site}); open the address "
                    "kitgen serve printed")
        return None

    def _kind_problem(self, scope, headers: Headers) -> str | None:
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == JSON:
            return None
        return (f"a {scope['method']} must send JSON with Content-Type: {JSON}, not "
                f"{_shown(kind) if kind else 'without a Content-Type'}")

    def _own_origin(self, origin: str, scope, server) -> bool:
        """Whether ``origin`` is this server's: its scheme, one of its names, the port the request came in on."""
        try:
            parts = urlsplit(origin)
            port = parts.port
        except ValueError:
            return False
        scheme = scope.get("scheme", "http")
        if parts.scheme != scheme or not parts.hostname or parts.path or parts.query or parts.username:
            return False
        if port is None:
            port = 443 if scheme == "https" else 80
        return server[1] in (None, port) and self.hosts.allow(_name(parts.hostname), server[0])
