"""balance.pdf: a simulator's balance figures, of any rules engine, laid out with platypus and
reportlab.graphics charts.

The figures arrive as plain data: the summaries balance.json holds, each with the generic
figures of every engine (how games ended, length, scores, seat and policy win rates,
findings) and the engine's own section (``engine_report``: key figures, tables, charts
described as data, findings).  Nothing here computes a figure, imports the simulator or
knows a game.  Text flows with platypus (paragraphs, tables, page breaks); charts are
reportlab's own bar charts, with their 95 % intervals and reference lines added as chart
annotations.  The canvas comes from :func:`kitgen.render.canvas.new_canvas`, so the same
figures give the same bytes.

A chart of an engine is one of::

    {"kind": "histogram", "title", "counts": {value: count}, "xlabel", "units", "step"}
    {"kind": "bars", "title", "labels", "series": [[name, values]], "horizontal", "percent",
     "low", "high" (95 % intervals of a single series), "ref", "ref_label", "note", "xlabel"}

and a table ``{"title", "columns", "rows"}``.
"""

from __future__ import annotations

import math

from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib.colors import white
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.colors import BAR, WARNING_FILL
from kitgen.render.colors import BAR_THIRD as BAR3
from kitgen.render.colors import BAR_VARIANT as BAR2
from kitgen.render.colors import CHART_GRID as GRID
from kitgen.render.colors import NEGATIVE as NEG
from kitgen.render.colors import REFERENCE as REF
from kitgen.render.colors import REPORT_HEAD as HEAD
from kitgen.render.colors import REPORT_STRIPE as STRIPE
from kitgen.render.colors import RULEBOOK_INK as INK
from kitgen.render.colors import RULEBOOK_MUTED as MUTED
from kitgen.render.xml_text import escape
from kitgen.units import mm

MARGIN = mm(18)
PAGE = letter
WIDTH = PAGE[0] - 2 * MARGIN
CHART_W, CHART_H = WIDTH / 2 - 6, mm(62)


# --- text ---------------------------------------------------------------------------------

def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=fonts.REGULAR, fontSize=9, leading=12.5, textColor=INK)
    return {
        "title": ParagraphStyle("title", base, fontName=fonts.BOLD, fontSize=20, leading=24, spaceAfter=4,
                                textColor=HEAD),
        "h1": ParagraphStyle("h1", base, fontName=fonts.BOLD, fontSize=13, leading=16, spaceBefore=10,
                             spaceAfter=5, textColor=HEAD),
        "body": base,
        "meta": ParagraphStyle("meta", base, fontSize=8.5, leading=11.5, textColor=MUTED, spaceAfter=6),
        "bullet": ParagraphStyle("bullet", base, leftIndent=11, bulletIndent=0, spaceAfter=3),
        "warning": ParagraphStyle("warning", base, fontName=fonts.BOLD, fontSize=9.5, leading=13, textColor=NEG,
                                  backColor=WARNING_FILL, borderColor=NEG, borderWidth=0.8,
                                  borderPadding=6, spaceBefore=4, spaceAfter=10),
        "cell": ParagraphStyle("cell", base, fontSize=8, leading=10),
        "cell_bold": ParagraphStyle("cell_bold", base, fontName=fonts.BOLD, fontSize=8, leading=10, textColor=white),
    }


def _pct(x, digits: int = 1) -> str:
    return "n/a" if x is None else f"{100 * x:.{digits}f}%"


def _ci(w: dict) -> str:
    return "n/a" if w.get("rate") is None else f"{_pct(w['rate'])} [{_pct(w['low'])}, {_pct(w['high'])}]"


def _mean(m: dict, digits: int = 1) -> str:
    if m.get("mean") is None:
        return "n/a"
    return f"{m['mean']:.{digits}f} [{m['low']:.{digits}f}, {m['high']:.{digits}f}]"


def _cell(v) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 1 else f"{v:.2f}"
    return str(v)


def _table(rows: list[tuple], widths: list[float], st: dict, align_right_from: int = 1) -> Table:
    """A striped table; the first row is the header."""
    data = [[Paragraph(escape(str(c)), st["cell_bold"] if i == 0 else st["cell"]) for c in row]
            for i, row in enumerate(rows)]
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    style = [("BACKGROUND", (0, 0), (-1, 0), HEAD),
             ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
             ("TOPPADDING", (0, 0), (-1, -1), 2.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
             ("LINEBELOW", (0, -1), (-1, -1), 0.5, GRID)]
    style += [("BACKGROUND", (0, r), (-1, r), STRIPE) for r in range(2, len(rows), 2)]
    table.setStyle(TableStyle(style))
    for row in data:
        for cell in row[align_right_from:]:
            cell.style = ParagraphStyle("right", cell.style, alignment=2)
    return table


# --- charts --------------------------------------------------------------------------------

def _axis_range(lo: float, hi: float, most: int = 5) -> tuple[float, float, float]:
    """A round (min, max, step) covering [lo, hi], zero included."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo <= 0:
        hi = lo + 1.0
    raw = (hi - lo) / most
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    return math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step, step


def _titled(title: str, note: str = "") -> Drawing:
    d = Drawing(CHART_W, CHART_H)
    d.add(String(0, CHART_H - 11, title, fontName=fonts.BOLD, fontSize=9.5, fillColor=HEAD))
    if note:
        d.add(String(0, 2, note, fontName=fonts.REGULAR, fontSize=6.5, fillColor=MUTED))
    return d


def _style_axes(chart, value_format, lo: float, hi: float) -> None:
    vmin, vmax, step = _axis_range(lo, hi)
    va, ca = chart.valueAxis, chart.categoryAxis
    va.valueMin, va.valueMax, va.valueStep = vmin, vmax, step
    va.labelTextFormat = value_format
    va.visibleGrid, va.gridStrokeColor, va.gridStrokeWidth = True, GRID, 0.4
    va.strokeColor = ca.strokeColor = MUTED
    for axis in (va, ca):
        axis.labels.fontName, axis.labels.fontSize, axis.labels.fillColor = fonts.REGULAR, 6.5, INK


def _whiskers(lows, highs, flip: bool):
    """A chart annotation: 95 % intervals over the bars of a single series."""
    def draw(chart, cat_scale, val_scale):
        from reportlab.graphics.shapes import Group

        g = Group()
        for i, (lo, hi) in enumerate(zip(lows, highs)):
            if lo is None or hi is None:
                continue
            start, size = cat_scale(i)
            c = start + size / 2
            a, b = val_scale(lo), val_scale(hi)
            if flip:
                g.add(Line(a, c, b, c, strokeColor=INK, strokeWidth=0.7))
                g.add(Line(a, c - 2, a, c + 2, strokeColor=INK, strokeWidth=0.7))
                g.add(Line(b, c - 2, b, c + 2, strokeColor=INK, strokeWidth=0.7))
            else:
                g.add(Line(c, a, c, b, strokeColor=INK, strokeWidth=0.7))
                g.add(Line(c - 2, a, c + 2, a, strokeColor=INK, strokeWidth=0.7))
                g.add(Line(c - 2, b, c + 2, b, strokeColor=INK, strokeWidth=0.7))
        return g
    return draw


def _reference(value: float, flip: bool):
    """A chart annotation: a dashed line at ``value`` across the plot (the fair share)."""
    def draw(chart, cat_scale, val_scale):
        p = val_scale(value)
        if flip:
            return Line(p, chart.y, p, chart.y + chart.height, strokeColor=REF, strokeWidth=1,
                        strokeDashArray=[3, 2])
        return Line(chart.x, p, chart.x + chart.width, p, strokeColor=REF, strokeWidth=1, strokeDashArray=[3, 2])
    return draw


def _legend(d: Drawing, items: list[tuple[str, object, str]]) -> None:
    """Colour keys at the bottom right: (label, colour, 'bar' | 'line')."""
    x = CHART_W
    for label, color, shape in reversed(items):
        width = fonts_width(label, 6.5)
        x -= width
        d.add(String(x, 2, label, fontName=fonts.REGULAR, fontSize=6.5, fillColor=INK))
        x -= 11
        if shape == "line":
            d.add(Line(x, 4.5, x + 9, 4.5, strokeColor=color, strokeWidth=1, strokeDashArray=[3, 2]))
        else:
            d.add(Rect(x + 1, 1.5, 7, 6, fillColor=color, strokeColor=None))
        x -= 8


def fonts_width(text: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, fonts.REGULAR, size)


def _wrapped(text: str, width: float, size: float = 6.5) -> str:
    """``text`` in lines of at most ``width`` points (a word longer than that keeps a line of its own)."""
    lines: list[str] = []
    for word in text.split():
        if lines and fonts_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines) or text


def bar_chart(title: str, labels: list[str], series: list[tuple[str, list]], *, horizontal: bool = False,
              percent: bool = False, intervals: tuple[list, list] | None = None, ref: float | None = None,
              ref_label: str = "", note: str = "", xlabel: str = "") -> Drawing:
    """A titled bar chart of one or more named series over ``labels``."""
    d = _titled(title, "" if len(series) > 1 or ref_label else note)
    chart = HorizontalBarChart() if horizontal else VerticalBarChart()
    values = [[0 if v is None else v for v in vals] for _, vals in series]
    chart.data = values
    label_w = max((fonts_width(str(l), 6.5) for l in labels), default=0) + 6 if horizontal else 0
    bottom = 26 if (len(series) > 1 or ref_label or note or xlabel) else 16
    chart.x = (label_w if horizontal else 30) + 2
    chart.width = CHART_W - chart.x - 8
    names = [str(l) for l in labels]
    if not horizontal and 0 < len(labels) <= 12:   # a label wider than its bar's slot takes more lines
        names = [_wrapped(name, chart.width / len(labels) - 4) for name in names]
        bottom += 7 * max(name.count("\n") for name in names)
    chart.y = bottom + (8 if horizontal else 6)
    chart.height = CHART_H - chart.y - 18
    flat = [v for vals in values for v in vals]
    extra = [v for v in (intervals[0] + intervals[1] if intervals else []) if v is not None]
    fmt = (lambda v: f"{100 * v:.4g}%") if percent else (lambda v: f"{v:.4g}")
    _style_axes(chart, fmt, min(flat + extra + [0]), max(flat + extra + ([ref] if ref is not None else []) + [0]))
    chart.categoryAxis.categoryNames = names
    chart.barSpacing, chart.groupSpacing = 1, 6 if len(labels) < 12 else 2
    if not horizontal and len(labels) > 12:   # long histograms: label every k-th bar
        every = math.ceil(len(labels) / 12)
        chart.categoryAxis.categoryNames = [str(l) if i % every == 0 else "" for i, l in enumerate(labels)]
    colors = [BAR, BAR2, BAR3]
    for i in range(len(series)):
        chart.bars[i].fillColor = colors[i % len(colors)]
        chart.bars[i].strokeColor = None
    if len(series) == 1:   # losses in red
        for j, v in enumerate(values[0]):
            if v < 0:
                chart.bars[(0, j)].fillColor = NEG
    notes = []
    if intervals and len(series) == 1:
        notes.append(_whiskers(*intervals, horizontal))
    if ref is not None:
        notes.append(_reference(ref, horizontal))
    chart.annotations = notes
    if horizontal:
        chart.categoryAxis.reverseDirection = 1
    chart.categoryAxis.joinAxisMode = "left" if horizontal else "bottom"   # labels clear of negative bars
    d.add(chart)
    keys = [(name, colors[i % len(colors)], "bar") for i, (name, _) in enumerate(series)] if len(series) > 1 else []
    if ref_label:
        keys.append((ref_label, REF, "line"))
    if keys:
        _legend(d, keys)
    if xlabel:
        d.add(String(chart.x + chart.width / 2, 12, xlabel, fontName=fonts.REGULAR, fontSize=6.5,
                     fillColor=MUTED, textAnchor="middle"))
    return d


def histogram_chart(title: str, hist: dict[str, int], xlabel: str, ylabel_units: str = "games",
                    step: int = 1) -> Drawing:
    """Counts by whole-number value (or bins of ``step`` labelled by their lowest value), gaps shown empty."""
    labels = list(hist)
    if labels and all(l.lstrip("-").isdigit() for l in labels):
        lo, hi = int(labels[0]), int(labels[-1])
        labels = [str(v) for v in range(lo, hi + 1, step)]
    values = [hist.get(l, 0) for l in labels] or [0]
    return bar_chart(title, labels or [""], [(ylabel_units, values)], xlabel=xlabel)


def _grid(drawings: list[Drawing]) -> list:
    """Charts two to a row."""
    rows = [drawings[i:i + 2] + [""] * (2 - len(drawings[i:i + 2])) for i in range(0, len(drawings), 2)]
    out = []
    for row in rows:
        t = Table([row], colWidths=[WIDTH / 2] * 2, rowHeights=[CHART_H + 8], hAlign="LEFT")
        t.setStyle(TableStyle([("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
        out.append(t)
    return out


# --- the report ------------------------------------------------------------------------------

def key_rows(s: dict) -> list[tuple[str, str]]:
    """The key figures of one run: the generic ones, then the engine's own."""
    b = s["balance"]
    rows = [
        ("Figure", "Value [95% interval]"),
        ("Games played", f"{s['games']:,}"),
        ("Game length, rounds (sd)", f"{_mean(s['length'])} (sd {s['length']['sd']:.1f})"),
        ("Length median / 10th / 90th percentile / range",
         f"{s['length']['median']:g} / {s['length']['p10']:g} / {s['length']['p90']:g} / "
         f"{s['length']['min']}-{s['length']['max']}"),
        ("Seat win-rate gap", _pct(b["seat_gap"])),
        (f"Seat 1 win rate (fair share {_pct(b['fair_share'])})", _ci(b["first_seat"])),
        ("Lead changes per game", _mean(b["lead_changes"], 2)),
        ("Winner clear from (share of the game)", _mean(b["decisiveness"], 2)),
        ("Winning score / margin", f"{_mean(s['scores']['winner'])} / {_mean(s['scores']['margin'])}"),
    ]
    return rows + [tuple(row) for row in s["engine_report"]["key_figures"]]


def _cap(s: dict) -> str:
    """The simulator's safeguard in words: a round cap, or the engine's own words (e.g. 100 rounds or 2,000 turns)."""
    return f"a cap of {s['cap_text']}" if s.get("cap_text") else f"a round cap of {s['round_cap']} rounds"


def _end_label(how: str, s: dict) -> str:
    words = s["end_words"].get(how, how.replace("_", " "))
    return words[:1].upper() + words[1:]


def _ends_rows(s: dict) -> list[tuple]:
    rows = [("How the games ended", "Games", "Share [95% interval]")]
    for how, e in s["ends"].items():
        label = _end_label(how, s)
        if how == "cap":
            label += f" ({s.get('cap_text') or str(s['round_cap']) + ' rounds'}; a safeguard, not a rule)"
        rows.append((label, f"{e['count']:,}", _ci(e)))
    return rows


def chart(spec: dict) -> Drawing:
    """One chart an engine describes as data (see the module's description)."""
    if spec["kind"] == "histogram":
        return histogram_chart(spec["title"], spec["counts"], spec.get("xlabel", ""), spec.get("units", "games"),
                               spec.get("step", 1))
    low, high = spec.get("low"), spec.get("high")
    return bar_chart(spec["title"], spec["labels"], [(name, values) for name, values in spec["series"]],
                     horizontal=spec.get("horizontal", False), percent=spec.get("percent", False),
                     intervals=(low, high) if low is not None and high is not None else None, ref=spec.get("ref"),
                     ref_label=spec.get("ref_label", ""), note=spec.get("note", ""), xlabel=spec.get("xlabel", ""))


def _score_bins(histogram: dict[str, int]) -> tuple[str, str, int]:
    """(the x label, the unit, the step) of the scores' histogram, whose bins ``"lo..hi"`` are 1 or 5 points wide."""
    lo, _, hi = next(iter(histogram), "0..4").partition("..")
    width = int(float(hi)) - int(float(lo)) + 1
    if width == 1:
        return "points", "players", 1
    return f"points, in bins of {width} labelled by their lowest score", "players", width


def chart_pages(s: dict, label: str = "") -> list:
    """The charts of one run: the generic ones, then the engine's."""
    players, fair = s["players"], s["balance"]["fair_share"]
    seats, pol, ends = s["win_rate_by_seat"], s["win_rate_by_policy"], s["ends"]
    shown = [e for e in ends if ends[e]["count"]] or list(ends)
    drawings = [
        histogram_chart("Game length", s["length"]["histogram"], "rounds played"),
        bar_chart("How games ended", [_end_label(e, s) for e in shown], [("games", [ends[e]["rate"] for e in shown])],
                  percent=True, intervals=([ends[e]["low"] for e in shown], [ends[e]["high"] for e in shown]),
                  note="share of games, 95% intervals"),
        histogram_chart("Final scores (all players)",
                        {k.split("..")[0]: v for k, v in s["scores"]["histogram"].items()},
                        *_score_bins(s["scores"]["histogram"])),
        bar_chart("Win rate by seat", [f"seat {i + 1}" for i in range(players)], [("wins", [w["rate"] for w in seats])],
                  percent=True, intervals=([w["low"] for w in seats], [w["high"] for w in seats]), ref=fair,
                  ref_label="fair share"),
        bar_chart("Win rate by policy", list(pol), [("wins", [w["rate"] for w in pol.values()])], percent=True,
                  intervals=([w["low"] for w in pol.values()], [w["high"] for w in pol.values()]), ref=fair,
                  ref_label="fair share"),
        *(chart(spec) for spec in s["engine_report"]["charts"]),
    ]
    st = _styles()
    return [Paragraph(escape(f"Charts{(' - ' + label) if label else ''}"), st["h1"]), *_grid(drawings)]


def _changed(s: dict) -> str:
    return ", ".join(f"{k}={_setting(s['rules'][k])}" for k in s["changed_rules"]) or "none (the rulebook's rulings)"


def _setting(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _engine_tables(s: dict, st: dict) -> list:
    out = []
    for table in s["engine_report"]["tables"]:
        columns = list(table["columns"])
        first = 0.4 if len(columns) > 1 else 1.0
        widths = [WIDTH * first] + [WIDTH * (1 - first) / max(1, len(columns) - 1)] * (len(columns) - 1)
        # a table and its title stay together on one page when they fit one (no row left behind)
        out += [CondPageBreak(mm(40)), KeepTogether([Paragraph(escape(table["title"]), st["h1"]),
                _table([tuple(columns)] + [tuple(_cell(c) for c in row) for row in table["rows"]], widths, st)])]
    return out


def summary_flow(s: dict, st: dict, name: str = "") -> list:
    """Findings, how games ended, the key figures and the engine's tables of one run."""
    out = []
    if s["warning"]:
        out.append(Paragraph(escape(f"{name + ': ' if name else ''}{s['warning']}"), st["warning"]))
    out.append(_table(_ends_rows(s), [WIDTH * 0.58, WIDTH * 0.12, WIDTH * 0.30], st))
    out.append(Paragraph("Findings", st["h1"]))
    out += [Paragraph(escape(line), st["bullet"], bulletText="\u2022")
            for line in [*s["findings"], *s["engine_report"]["findings"]]]
    out.append(CondPageBreak(mm(60)))
    out.append(Paragraph("Key figures", st["h1"]))
    out.append(_table(key_rows(s), [WIDTH * 0.58, WIDTH * 0.42], st))
    return out + _engine_tables(s, st)


def _seating(s: dict) -> str:
    if len(set(s["policies"])) < 2:
        return ""
    return " The policies turn by one seat from each game to the next, so each meets every seat."


class _Report(BaseDocTemplate):
    def __init__(self, title: str):
        super().__init__(None, pagesize=PAGE, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=mm(20),
                         bottomMargin=mm(18), title=title, author="kitgen", creator="kitgen", producer="kitgen",
                         subject="balance report", invariant=1)
        self._doSave = 0
        self.report_title = title
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate("page", [frame], onPageEnd=self._decorate)])

    def _decorate(self, canvas, doc):
        w, h = PAGE
        canvas.saveState()
        canvas.setFillColor(MUTED)
        canvas.setStrokeColor(GRID)
        canvas.setFont(fonts.REGULAR, 8)
        canvas.line(MARGIN, mm(12) + 10, w - MARGIN, mm(12) + 10)
        canvas.drawString(MARGIN, mm(12), self.report_title)
        canvas.drawRightString(w - MARGIN, mm(12), f"Page {doc.page}")
        canvas.restoreState()


def render_report(summary: dict, variant: dict | None = None, variant_name: str = "",
                  rows: list[dict] | None = None, title: str = "") -> bytes:
    """balance.pdf from the simulator's summary (and a variant's, with the comparison rows)."""
    fonts.register()
    st = _styles()
    s = summary
    title = title or s["engine_report"].get("title", "Game")
    story = [
        Paragraph(escape(f"{title} balance report"), st["title"]),
        Paragraph(escape(f"{s['games']:,} games of {s['players']} players; policies by seat in play order, cycling "
                         f"{', '.join(s['policies'])}; seed {s['seed']}. Rules changed: {_changed(s)}. Seat 1 plays "
                         f"first in round 1.{_seating(s)} Rates carry 95% Wilson intervals, means 95% "
                         f"normal intervals. The only safeguard is {_cap(s)}."),
                  st["meta"]),
        *summary_flow(s, st),
        PageBreak(),
        *chart_pages(s),
    ]
    if variant is not None and rows is not None:
        story += [PageBreak(), Paragraph(escape(f"Variant '{variant_name}' against the baseline (same seeds)"),
                                         st["title"]),
                  Paragraph(escape(f"Variant rules changed: {_changed(variant)}."), st["meta"])]
        table = [("Figure", "Baseline", "Variant", "Difference")]
        table += [(r["figure"], _cell(r["baseline"]), _cell(r["variant"]), _cell(r["difference"])) for r in rows]
        story.append(_table(table, [WIDTH * 0.46, WIDTH * 0.18, WIDTH * 0.18, WIDTH * 0.18], st))
        seats = [f"seat {i + 1}" for i in range(s["players"])]
        lengths = sorted(set(s["length"]["histogram"]) | set(variant["length"]["histogram"]), key=int)
        story.append(Spacer(0, 8))
        story += _grid([
            bar_chart("Win rate by seat", seats, [("baseline", [x["rate"] for x in s["win_rate_by_seat"]]),
                                                  (variant_name, [x["rate"] for x in variant["win_rate_by_seat"]])],
                      percent=True, ref=s["balance"]["fair_share"]),
            bar_chart("Game length", [str(v) for v in range(int(lengths[0]), int(lengths[-1]) + 1)],
                      [(label, [run["length"]["histogram"].get(str(v), 0)
                                for v in range(int(lengths[0]), int(lengths[-1]) + 1)])
                       for label, run in (("baseline", s), (variant_name, variant))], xlabel="rounds played"),
        ])
        story += [PageBreak(), Paragraph(escape(f"Variant '{variant_name}'"), st["title"]),
                  *summary_flow(variant, st, f"Variant '{variant_name}'"), PageBreak(),
                  *chart_pages(variant, f"variant '{variant_name}'")]
    doc = _Report(f"{title} - balance report")
    doc.build(story, canvasmaker=lambda *a, **k: new_canvas(PAGE, f"{title} - balance report", "balance report"))
    return canvas_bytes(doc.canv)
