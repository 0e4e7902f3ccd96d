"""The rulebook: a jinja2 template (run in a sandbox) -> markup blocks -> rules.pdf.

``render_rulebook(game, paper)`` is the whole public API.  The game's
``rulebook`` key names a template inside its template folder; without one the
generic ``kitgen/render/rulebook/default_rules.md.j2`` is used.  What a template can use is
described in :mod:`kitgen.render.rulebook.template` and the language it writes in
:mod:`kitgen.render.rulebook.markup`.
"""

from __future__ import annotations

from kitgen.render.rulebook import document, markup, template
from kitgen.units import Size


def _blocks(game):
    inserts: list[markup.Insert] = []
    context = template.build_context(game, inserts)
    text, where = template.render_text(game, context, inserts)
    return markup.parse(text, inserts, where) + _credits(game), where


def _credits(game) -> list:
    """A credits section naming the built-in icons the game prints, with their authors and licence."""
    from kitgen.data.icons import builtin_icons_used, credits_text

    used = builtin_icons_used(game)
    if not used:
        return []
    return [markup.Heading(2, "Credits"), markup.Paragraph(markup.escape_value(credits_text(used)))]


def render_rulebook(game, paper: Size, art=None) -> bytes:
    """PDF bytes of the game's rulebook on ``paper`` (e.g. ``kitgen.units.paper_size("a4")``).

    ``art`` (an :class:`~kitgen.data.art_files.ArtLibrary`) draws the cards a
    template shows; by default the game's own.
    """
    if art is None:
        from kitgen.data.art_files import ArtLibrary

        art = ArtLibrary.for_game(game)
    blocks, where = _blocks(game)
    return document.build_pdf(blocks, game, paper, where, art)


def check_rulebook(game, paper: Size | None = None) -> None:
    """Render the template to text, parse it and lay out its blocks, without drawing: template
    mistakes and blocks too large for a page raise here."""
    from kitgen.data.art_files import ArtLibrary
    from kitgen.units import paper_size

    blocks, where = _blocks(game)
    document.check_blocks(blocks, game, paper or paper_size("letter"), where, ArtLibrary.for_game(game))


__all__ = ["render_rulebook", "check_rulebook"]
