"""Plain text made safe inside reportlab's paragraph markup: ``&``, ``<`` and ``>`` escaped.

``html.escape`` without quotes gives exactly what ``xml.sax.saxutils.escape``
gives, and loads less: saxutils imports ``urllib.request`` (with ``http.client``,
``email`` and ``socket``), some 15 ms of every build's start-up.
"""

from __future__ import annotations

import html
from functools import partial

escape = partial(html.escape, quote=False)
