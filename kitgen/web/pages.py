"""The HTML pages of the web app: jinja2 templates of the package, escaped automatically.

These templates are the package's own; a game folder's rulebook template is
never rendered here (it renders in the sandbox, inside a build).
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

_ENV = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent / "pages"), autoescape=True,
                   undefined=StrictUndefined)


def render_page(name: str, **values) -> str:
    values.setdefault("game", None)
    values.setdefault("solver", False)
    return _ENV.get_template(name).render(**values)
