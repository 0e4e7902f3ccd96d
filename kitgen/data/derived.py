"""Card fields worked out from the row: ``[columns]`` entries written as templates.

Every entry of ``[columns]`` is either the header of a column (as it always
was) or a template over the row, rendered in the same sandbox as layouts::

    [columns]
    name  = "{{ Name or ('Cave ' ~ row) }}"
    type  = "{{ 'treasure' if Treasure == '1' else 'victory' if Victory == '1' else 'action' }}"
    count = "{{ 12 if type == 'victory' else 10 }}"

A template reads each column by its header, as written (``Treasure``, when the
header is a name Python would accept) and as layouts name it (``treasure``,
``front_name``), a cell of spaces as blank; ``fields["Front Name"]`` for any header; ``row``, the row's
number; and the card's other fields (``type`` above is the ``type`` field
worked out for this row).  A field's own name in its own template is the
column of that name, so ``name = "{{ name or 'Card ' ~ row }}"`` falls back
when the ``name`` column is blank.  Fields are worked out in the order their
templates need one another; two that read each other are refused.

A template's mistake on a row is that row's problem, named as
``[columns] count``, the key the designer wrote.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass

from kitgen.data.bounded_sandbox import TemplateClock, TemplateCost, TemplateTimeout, bounded_render
from kitgen.data.card_context import identifier
from kitgen.data.columns import FIELDS, is_template
from kitgen.errors import GameDataError, LimitError

MAX_TEMPLATE = 10_000     # characters of one [columns] template


@dataclass(frozen=True)
class Derived:
    field: str
    source: str
    template: object
    names: frozenset        # the names its template reads

    @property
    def key(self) -> str:
        """How messages name it: the key the designer wrote."""
        return f"[columns] {self.field}"


def column_namespace(columns) -> dict[str, int]:
    """Name -> column position of the names a [columns] template may read for a column: the header as
    written (when it is a name) and as layouts name it; the first column of a name wins."""
    found: dict[str, int] = {}
    for i in columns.named():
        header = columns.names[i].strip()
        for name in (identifier(header), header):
            if name and name.isidentifier() and not keyword.iskeyword(name) and name not in found:
                found[name] = i
    return found


def derived_fields(table, columns, mapped: dict[str, int], toml_file: str) -> list[Derived]:
    """The templated entries of ``[columns]``, compiled and checked, in the order to work them out."""
    from kitgen.data.sandbox import compile_template, shared_environment

    if not isinstance(table, dict):
        return []
    env = shared_environment()
    names = column_namespace(columns)
    templated = {f: s for f, s in table.items() if f in FIELDS and is_template(s)}
    fields = set(templated) | set(mapped)
    found: dict[str, Derived] = {}
    for field, source in templated.items():
        where = f"[columns] {field}"
        if len(source) > MAX_TEMPLATE:
            raise GameDataError(f"{where}: a template of {len(source):,} characters; at most {MAX_TEMPLATE:,}",
                                file=toml_file)
        try:
            template, read, _ = compile_template(env, source)
        except Exception as exc:               # jinja2's syntax errors, unknown filters and tests
            message = getattr(exc, "message", None) or str(exc)
            raise GameDataError(f"{where} = {source!r}: template error: {message}", file=toml_file) from None
        read = {n for n in read if n not in env.globals}
        allowed = (fields - {field}) | set(names) | {"row", "fields"}
        unknown = sorted(read - allowed)
        if unknown:
            own = " (a field's own name, in its template, is the column of that name)" if unknown[0] == field else ""
            shown = ", ".join(sorted(names)) or "(none)"
            raise GameDataError(f"{where}: no column or field named '{unknown[0]}'{own}; the sheet's columns, "
                                f"as templates name them: {shown}", file=toml_file)
        found[field] = Derived(field, source, template, frozenset(read))
    return _in_order(found, toml_file)


def _in_order(found: dict[str, Derived], toml_file: str) -> list[Derived]:
    order: list[Derived] = []
    state: dict[str, str] = {}

    def visit(field: str, path: list[str]) -> None:
        if state.get(field) == "done":
            return
        if state.get(field) == "open":
            cycle = " -> ".join(path[path.index(field):] + [field])
            raise GameDataError(f"[columns]: the templates read one another in a circle ({cycle}); work one "
                                "of them out from the columns alone", file=toml_file)
        state[field] = "open"
        for other in sorted(found[field].names):
            if other in found and other != field:
                visit(other, path + [field])
        state[field] = "done"
        order.append(found[field])

    for field in found:
        visit(field, [])
    return order


class RowFields:
    """Works out the templated fields of each row."""

    def __init__(self, derived: list[Derived], columns, mapped: dict[str, int], sheet_file: str):
        self.derived, self.mapped, self.file = derived, mapped, sheet_file
        self.names = column_namespace(columns)
        self.columns = columns
        self.costly: dict[str, LimitError] = {}     # field -> its template out of time or room, not run again
        used = {n for d in derived for n in d.names}
        columns.used.update(i for n, i in self.names.items() if n in used)

    def values(self, row: int, cells: tuple[str, ...], fields) -> dict[str, str] | GameDataError:
        """field -> text of every templated field of the row, or the first problem met.  The row's templates
        share one clock (KITGEN_TEMPLATE_SECONDS of processor time); one that runs out of time or room is
        refused on this row and, without running again, on every later one."""
        from kitgen.data.sandbox import TEMPLATE_ERRORS, Lookup, error_text

        # a cell of spaces is blank, as it is everywhere else: `Name or ...` falls back on it
        base = {n: (cells[i] if i < len(cells) and cells[i].strip() else "") for n, i in self.names.items()}
        base["row"], base["fields"] = row, fields
        own = {f: (cells[i].strip() if i < len(cells) else "") for f, i in self.mapped.items()}
        out: dict[str, str] = {}
        clock = TemplateClock()
        for d in self.derived:
            if d.field in self.costly:
                return self.costly[d.field]
            context = {**base, **{f: v for f, v in {**own, **out}.items() if f != d.field}}
            values = {n: context[n] for n in d.names if n in context}
            try:
                if d.template.__class__ is Lookup:          # one value looked up: nothing to bound
                    out[d.field] = d.template.render(values).strip()
                    continue
                with bounded_render(), clock:
                    out[d.field] = d.template.render(values).strip()
            except TemplateTimeout:
                return self._costly(d, row, f"its template was still rendering after {clock.seconds:g} s of "
                                            "processor time (a loop too long?); kitgen stops a row's templates "
                                            "there (KITGEN_TEMPLATE_SECONDS)")
            except MemoryError:
                return self._costly(d, row, "out of memory while rendering its template (a value too large?); "
                                            "kitgen allows itself KITGEN_MEMORY_MB megabytes")
            except TEMPLATE_ERRORS as exc:
                if isinstance(exc, TemplateCost):
                    return self._costly(d, row, error_text(exc))
                return GameDataError(error_text(exc), file=self.file, row=row, column=d.key)
        return out

    def _costly(self, d: Derived, row: int, message: str) -> LimitError:
        error = self.costly[d.field] = LimitError(message, file=self.file, row=row, column=d.key)
        return error
