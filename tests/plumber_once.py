"""pdfplumber documents opened once a module, so that each page is parsed once whichever tests read it
(its text, a card's text, its lines or curves): pdfplumber keeps a page's objects once it has parsed them."""

from __future__ import annotations

import io
from collections.abc import Callable, Hashable
from pathlib import Path

import pdfplumber
import pytest


class Opened:
    """``opened(key)``: the document that ``read(key)`` gives (a path, or a PDF's bytes), opened the first
    time it is asked for; :meth:`closing` makes the module's fixture that closes them all at its end."""

    def __init__(self, read: Callable[[Hashable], Path | bytes] = lambda path: path):
        self._read, self._docs = read, {}

    def __call__(self, key: Hashable) -> pdfplumber.PDF:
        if key not in self._docs:
            source = self._read(key)
            self._docs[key] = pdfplumber.open(io.BytesIO(source) if isinstance(source, bytes) else source)
        return self._docs[key]

    def closing(self):
        """A module-scoped autouse fixture that closes every document opened (assign it to a name of the module)."""

        @pytest.fixture(scope="module", autouse=True)
        def close_opened():
            yield
            for doc in self._docs.values():
                doc.close()
            self._docs.clear()

        return close_opened
