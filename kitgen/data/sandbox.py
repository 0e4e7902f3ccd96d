"""The one jinja2 sandbox every template of a game runs in: the rulebook's and the layouts'.

Game folders are shared between designers, so their templates are untrusted
code: they run in jinja2's immutable sandbox, where an undefined name is an
error (never a silent blank), and see only plain data.  Layout templates also
get three colour filters: ``{{ color | darken(0.35) }}``,
``{{ color | lighten(0.8) }}`` and ``{{ color | mix("#ffffff", 0.5) }}``.
"""

from __future__ import annotations

import jinja2
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

from kitgen.data.values import mix_colors


def environment(**options) -> ImmutableSandboxedEnvironment:
    """A sandboxed environment: strict about undefined names, no autoescaping, the colour filters."""
    env = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False, **options)
    env.filters["mix"] = lambda color, other, t=0.5: mix_colors(str(color), str(other), t)
    env.filters["darken"] = lambda color, t=0.2: mix_colors(str(color), "#000000", t)
    env.filters["lighten"] = lambda color, t=0.2: mix_colors(str(color), "#ffffff", t)
    return env


def referenced(env, source: str) -> tuple[set[str], dict[str, set[str]]]:
    """The names a template reads from its context, and for each the attributes or keys read of it
    with a constant (``back.title``, ``fields["Back Name"]``).  Raises jinja2's syntax errors."""
    tree = env.parse(source)
    from jinja2 import meta

    names = meta.find_undeclared_variables(tree)
    members: dict[str, set[str]] = {}
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if isinstance(node.node, nodes.Name) and node.node.name in names:
            key = node.attr if isinstance(node, nodes.Getattr) else (
                node.arg.value if isinstance(node.arg, nodes.Const) else None)
            if isinstance(key, str):
                members.setdefault(node.node.name, set()).add(key)
    return set(names), members


def error_text(exc: Exception) -> str:
    """What went wrong in a template, in one line (the caller says where)."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return f"template syntax error: {exc.message}"
    if isinstance(exc, jinja2.UndefinedError):
        return f"undefined in template: {exc.message}"
    if isinstance(exc, jinja2.exceptions.SecurityError):
        return f"not allowed in a template: {exc}"
    if isinstance(exc, jinja2.TemplateError):
        return f"template error: {exc}"
    return f"template error: {type(exc).__name__}: {exc}"


TEMPLATE_ERRORS = (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError)
