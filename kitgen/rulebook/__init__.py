"""The rulebook: a jinja2 template (run in a sandbox) -> markup blocks -> rules.pdf.

``render_rulebook(game, paper)`` is the whole public API.  The game's
``rulebook`` key names a template inside its template folder; without one the
generic ``kitgen/default_rules.md.j2`` is used.  What a template can use is
described in :mod:`kitgen.rulebook.template` and the language it writes in
:mod:`kitgen.rulebook.markup`.
"""

from __future__ import annotations

from ..units import Size
from . import flow, markup, template


def render_rulebook(game, paper: Size) -> bytes:
    """PDF bytes of the game's rulebook on ``paper`` (e.g. ``kitgen.units.paper_size("a4")``)."""
    inserts: list[markup.Insert] = []
    context = template.build_context(game, inserts)
    text, where = template.render_text(game, context, inserts)
    blocks = markup.parse(text, inserts, where)
    return flow.build_pdf(blocks, game, paper, where)


__all__ = ["render_rulebook"]
