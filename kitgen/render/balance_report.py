"""balance.pdf: the balance report with charts, drawn with reportlab.graphics.

Geometry comes from :mod:`chart_layout`; this module only draws.  The PDF is
made with kitgen.output.new_canvas, so the same figures give the same bytes.
"""

from __future__ import annotations

from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from kitgen.layout.chart_axes import axis_for, label_every, nice_ticks, slots
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.units import mm
from solver.altunha.sim.engine import SOURCES
from solver.altunha.sim.stats import ENDS, TRADE_CARDS

INK = HexColor("#222222")
GRID = HexColor("#d8d8d8")
BAR = HexColor("#2a7f62")
BAR2 = HexColor("#a0522d")
NEG = HexColor("#b03a2e")
REF = HexColor("#d9822b")
MARGIN = mm(16)
PAGE_W, PAGE_H = letter
SOURCE_LABELS = {"build": "Building", "no_build": "Could not build", "famine": "Famine",
                 "obsidian": "Obsidian", "pyrite": "Pyrite (net)", "feathers": "Feathers",
                 "textiles": "Textiles"}
END_LABELS = {"famine": "Famine", "stalemate": "Stalemate", "stall": "Stalled (no king)",
              "timeout": "Round limit", "empty_deck": "Deck empty"}


def _pct(x, digits=1):
    return "n/a" if x is None else f"{100 * x:.{digits}f}%"


def _pct_tick(t):
    return f"{100 * t:.4g}%"


def _num(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def _text(d, x, y, text, size=7, anchor="start", font=None, color=INK):
    d.add(String(x, y, text, fontName=font or fonts.REGULAR, fontSize=size, fillColor=color,
                 textAnchor=anchor))


def vbar(title, labels, values, width, height, lows=None, highs=None, ref=None, ref_label="",
         fmt=str, ylabel="", xlabel="", color=BAR):
    """Vertical bars (histograms, rates) with optional interval whiskers and a reference line."""
    d = Drawing(width, height)
    _text(d, 0, height - 10, title, 9, font=fonts.BOLD)
    left, bottom, top = 34, 30 if xlabel else 22, height - 18
    plot_w, plot_h = width - left - 6, top - bottom
    hi_vals = list(values) + [h for h in (highs or []) if h is not None] + ([ref] if ref is not None else [])
    lo_vals = list(values) + [v for v in (lows or []) if v is not None]
    ticks = nice_ticks(min(lo_vals + [0]), max(hi_vals + [0]) or 1, 5)
    ax = axis_for(ticks, bottom, plot_h)
    for t in ticks:
        y = ax.at(t)
        d.add(Line(left, y, left + plot_w, y, strokeColor=GRID, strokeWidth=0.4))
        _text(d, left - 3, y - 2.5, fmt(t), 6.5, "end")
    zero = ax.at(0)
    bars = slots(len(values), left, plot_w, 0.2 if len(values) > 12 else 0.3)
    widest = max((stringWidth(str(l), fonts.REGULAR, 6.5) for l in labels), default=0)
    every = label_every(len(labels), plot_w, widest)
    for i, (slot, v) in enumerate(zip(bars, values)):
        y = ax.at(v)
        d.add(Rect(slot.start, min(y, zero), slot.size, abs(y - zero), fillColor=NEG if v < 0 else color,
                   strokeColor=None))
        if lows and highs and lows[i] is not None:
            x, y0, y1 = slot.centre, ax.at(lows[i]), ax.at(highs[i])
            d.add(Line(x, y0, x, y1, strokeColor=INK, strokeWidth=0.7))
            for yy in (y0, y1):
                d.add(Line(x - 2, yy, x + 2, yy, strokeColor=INK, strokeWidth=0.7))
        if i % every == 0:
            _text(d, slot.centre, bottom - 9, str(labels[i]), 6.5, "middle")
    d.add(Line(left, zero, left + plot_w, zero, strokeColor=INK, strokeWidth=0.6))
    if ref is not None:
        y = ax.at(ref)
        d.add(Line(left, y, left + plot_w, y, strokeColor=REF, strokeWidth=1, strokeDashArray=[3, 2]))
        if ref_label:
            d.add(Line(width - 60, 5, width - 48, 5, strokeColor=REF, strokeWidth=1, strokeDashArray=[3, 2]))
            _text(d, width - 45, 2.5, ref_label, 6.5, color=REF)
    if xlabel:
        _text(d, left + plot_w / 2, 2, xlabel, 7, "middle")
    if ylabel:
        _text(d, width - 4, height - 10, ylabel, 6.5, "end", color=HexColor("#555555"))
    return d


def hbar(title, labels, series, width, height, ref=None, ref_label="", fmt=str, note=""):
    """Horizontal bars by named row; ``series`` is [(name, values, lows, highs, colour)]."""
    d = Drawing(width, height)
    _text(d, 0, height - 10, title, 9, font=fonts.BOLD)
    label_w = max((stringWidth(l, fonts.REGULAR, 7) for l in labels), default=0) + 6
    left, right, bottom, top = label_w, width - 8, 22 if len(series) > 1 or note else 14, height - 16
    values = [v for _, vals, *_ in series for v in vals if v is not None]
    highs = [h for _, _, _, hs, _ in series if hs for h in hs if h is not None]
    lows = [lo for _, _, ls, _, _ in series if ls for lo in ls if lo is not None]
    ticks = nice_ticks(min(values + lows + [0]), max(values + highs + ([ref] if ref else []) + [0]) or 1, 5)
    ax = axis_for(ticks, left, right - left)
    rows = slots(len(labels), bottom, top - bottom, 0.25)[::-1]
    for t in ticks:
        x = ax.at(t)
        d.add(Line(x, bottom, x, top, strokeColor=GRID, strokeWidth=0.4))
        _text(d, x, bottom - 8, fmt(t), 6.5, "middle")
    zero = ax.at(0)
    k = len(series)
    for r, (row, label) in enumerate(zip(rows, labels)):
        _text(d, left - 4, row.centre - 2.5, label, 7, "end")
        sub = slots(k, row.start, row.size, 0.1)[::-1]
        for (name, vals, ls, hs, color), s in zip(series, sub):
            v = vals[r]
            if v is None:
                continue
            x = ax.at(v)
            d.add(Rect(min(x, zero), s.start, abs(x - zero), s.size, fillColor=NEG if v < 0 and k == 1 else color,
                       strokeColor=None))
            if ls and hs and ls[r] is not None:
                x0, x1, yc = ax.at(ls[r]), ax.at(hs[r]), s.centre
                d.add(Line(x0, yc, x1, yc, strokeColor=INK, strokeWidth=0.7))
                for xx in (x0, x1):
                    d.add(Line(xx, yc - 1.8, xx, yc + 1.8, strokeColor=INK, strokeWidth=0.7))
    d.add(Line(zero, bottom, zero, top, strokeColor=INK, strokeWidth=0.6))
    if ref is not None:
        x = ax.at(ref)
        d.add(Line(x, bottom, x, top, strokeColor=REF, strokeWidth=1, strokeDashArray=[3, 2]))
        if ref_label:
            d.add(Line(width - 60, 5, width - 48, 5, strokeColor=REF, strokeWidth=1, strokeDashArray=[3, 2]))
            _text(d, width - 45, 2.5, ref_label, 6.5, color=REF)
    if k > 1:
        x = left
        for name, _, _, _, color in series:
            d.add(Rect(x, 2, 7, 7, fillColor=color, strokeColor=None))
            _text(d, x + 10, 3, name, 7)
            x += 20 + stringWidth(name, fonts.REGULAR, 7)
    elif note:
        _text(d, left, 2, note, 6.5, color=HexColor("#555555"))
    return d


class Pages:
    """A portrait Letter report: a heading per page and a cursor moving down."""

    def __init__(self, title):
        fonts.register()
        self.c = new_canvas(letter, title, "Altun Ha balance report")
        self.title = title
        self.page = 0
        self.y = 0.0
        self.new_page()

    def new_page(self):
        if self.page:
            self.c.showPage()
        self.page += 1
        self.c.setFont(fonts.BOLD, 8)
        self.c.setFillColor(HexColor("#777777"))
        self.c.drawString(MARGIN, PAGE_H - mm(10), self.title)
        self.c.drawRightString(PAGE_W - MARGIN, mm(9), f"page {self.page}")
        self.c.setFillColor(INK)
        self.y = PAGE_H - mm(16)

    @property
    def width(self):
        return PAGE_W - 2 * MARGIN

    def heading(self, text, size=13):
        self.c.setFont(fonts.BOLD, size)
        self.c.drawString(MARGIN, self.y - size, text)
        self.y -= size + 8

    def para(self, text, size=9, space=4):
        style = ParagraphStyle("p", fontName=fonts.REGULAR, fontSize=size, leading=size * 1.3)
        p = Paragraph(text, style)
        _, h = p.wrap(self.width, self.y)
        if self.y - h < MARGIN:
            self.new_page()
            _, h = p.wrap(self.width, self.y)
        p.drawOn(self.c, MARGIN, self.y - h)
        self.y -= h + space

    def warning(self, text, size=9.5):
        """A boxed bold paragraph in red, for what must not be missed."""
        pad = 5
        style = ParagraphStyle("w", fontName=fonts.BOLD, fontSize=size, leading=size * 1.3, textColor=NEG,
                               backColor=HexColor("#fbeceb"), borderColor=NEG, borderWidth=0.8,
                               borderPadding=pad)
        p = Paragraph(_escape(text), style)
        _, h = p.wrap(self.width - 2 * pad, self.y)
        p.drawOn(self.c, MARGIN + pad, self.y - h - pad)
        self.y -= h + 2 * pad + 8

    def table(self, rows, widths, size=8, header=True):
        line = size + 4.5
        for i, row in enumerate(rows):
            if self.y - line < MARGIN:
                self.new_page()
            x = MARGIN
            font = fonts.BOLD if header and i == 0 else fonts.REGULAR
            if i % 2 == 1:
                self.c.setFillColor(HexColor("#f1efe8"))
                self.c.rect(MARGIN, self.y - line + 1, sum(widths), line, stroke=0, fill=1)
                self.c.setFillColor(INK)
            for j, (cell, w) in enumerate(zip(row, widths)):
                self.c.setFont(font, size)
                if j == 0:
                    self.c.drawString(x + 2, self.y - size - 1, str(cell))
                else:
                    self.c.drawRightString(x + w - 2, self.y - size - 1, str(cell))
                x += w
            self.y -= line
        self.y -= 6

    def charts(self, drawings, height, columns=2):
        w = self.width / columns
        for i in range(0, len(drawings), columns):
            if self.y - height < MARGIN:
                self.new_page()
            for j, d in enumerate(drawings[i:i + columns]):
                renderPDF.draw(d, self.c, MARGIN + j * w, self.y - height)
            self.y -= height + 10

    def bytes(self):
        return canvas_bytes(self.c)


def _escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;")


def _ci(w):
    return f"{_pct(w['rate'])} [{_pct(w['low'])}, {_pct(w['high'])}]"


def _mean(m, digits=1):
    return "n/a" if m["mean"] is None else f"{m['mean']:.{digits}f} [{m['low']:.{digits}f}, {m['high']:.{digits}f}]"


def key_rows(s):
    b, h = s["balance"], s["rule_holes"]
    return [
        ("Figure", "Value [95% interval]"),
        ("Games played", f"{s['games']}"),
        ("Game length, rounds (sd)", f"{_mean(s['length'])} (sd {s['length']['sd']:.1f})"),
        ("Length median / 10th / 90th percentile", f"{s['length']['median']} / {s['length']['p10']} / {s['length']['p90']}"),
        ("Games ended by famine", _ci(s["ends"]["famine"])),
        ("Famine round (famine games)", _mean(s["famine_round"])),
        ("Seat win-rate gap (balance)", f"{_pct(b['seat_gap'])}"),
        ("Seat 1 win rate (fair share " + _pct(b["fair_share"]) + ")", _ci(b["first_seat"])),
        (f"Seat dealt the Calendar (seat {b['dealt_calendar_seat']}) win rate", _ci(b["dealt_calendar_seat_win"])),
        ("Lead changes per game", _mean(b["lead_changes"], 2)),
        ("Winner clear from (share of the game)", _mean(b["decisiveness"], 2)),
        ("Winning score / margin", f"{_mean(s['scores']['winner'])} / {_mean(s['scores']['margin'])}"),
        ("Priest King could not build", _ci(s["priest_king"]["could_not_build"])),
        ("Rounds with a Priest King", _ci(s["priest_king"]["rounds_with_king"])),
        ("Never ended in famine (rule hole)", _ci(h["timeouts"])),
        ("Games with 3+ kingless rounds in a row", _ci(h["kingless_runs"])),
        ("Famine by the eventual winner (exploit)", _ci(h["famine_by_eventual_winner"])),
        ("Famine penalty changed the winner", _ci(h["famine_penalty_decisive"])),
    ]


def _hist_chart(title, hist, width, height, xlabel):
    labels = list(hist)
    if labels and all(l.lstrip("-").isdigit() for l in labels):
        lo, hi = int(labels[0]), int(labels[-1])
        labels = [str(v) for v in range(lo, hi + 1)]
    values = [hist.get(l, 0) for l in labels]
    return vbar(title, labels, values, width, height, fmt=lambda t: f"{t:g}", ylabel="games",
                xlabel=xlabel)


def summary_pages(pages: Pages, s: dict, label: str = ""):
    w, h = pages.width / 2 - 6, mm(62)
    players = s["players"]
    pages.heading(f"Charts{(' - ' + label) if label else ''}", 12)
    ends = [e for e in ENDS if s["ends"][e]["count"]]
    pages.charts([
        _hist_chart("Game length", s["length"]["histogram"], w, h, "rounds played"),
        _hist_chart("Round of the famine", s["famine_round"]["histogram"] or {"0": 0}, w, h, "round"),
        vbar("How games ended", [END_LABELS[e] for e in ends], [s["ends"][e]["rate"] for e in ends], w, h,
             [s["ends"][e]["low"] for e in ends], [s["ends"][e]["high"] for e in ends],
             fmt=_pct_tick, ylabel="share of games"),
        vbar("Final scores (all players)", [k.split("..")[0] for k in s["scores"]["histogram"]],
             list(s["scores"]["histogram"].values()), w, h, fmt=lambda t: f"{t:g}", ylabel="players",
             xlabel="points (bins of 5, labelled by their lowest score)"),
    ], h)
    seats = s["win_rate_by_seat"]
    pol = s["win_rate_by_policy"]
    pages.charts([
        vbar("Win rate by seat", [f"seat {i + 1}" for i in range(players)], [x["rate"] for x in seats], w, h,
             [x["low"] for x in seats], [x["high"] for x in seats], ref=s["balance"]["fair_share"],
             ref_label="fair share", fmt=_pct_tick, ylabel="wins (shared wins split)"),
        vbar("Win rate by policy", list(pol), [x["rate"] for x in pol.values()], w, h,
             [x["low"] for x in pol.values()], [x["high"] for x in pol.values()],
             ref=s["balance"]["fair_share"], ref_label="fair share", fmt=_pct_tick,
             ylabel="wins per seat played"),
    ], h)
    pts = s["points_by_source"]
    trades = s["trade_cards"]
    cards = [c for c in TRADE_CARDS]
    pages.charts([
        hbar("Points by source (mean per player per game)", [SOURCE_LABELS[x] for x in SOURCES],
             [("points", [pts[x]["mean"] for x in SOURCES], [pts[x]["low"] for x in SOURCES],
               [pts[x]["high"] for x in SOURCES], BAR)], w, h, fmt=lambda t: f"{t:g}"),
        hbar("Trade cards played per game", cards, [("plays", [trades[c]["per_game"] for c in cards], None, None,
                                                     BAR2)], w, h, fmt=lambda t: f"{t:g}"),
    ], h)
    pk = s["priest_king"]["could_not_build"]
    won = [trades[c]["player_won"] for c in cards]
    pages.charts([
        hbar("Win rate of a Trade card's player", cards,
             [("won", [x["rate"] for x in won], [x["low"] for x in won], [x["high"] for x in won], BAR)],
             w, h, ref=s["balance"]["fair_share"], ref_label="fair share", fmt=_pct_tick,
             note="once per game and player; shared wins split"),
        vbar("Priest King rounds", ["could not build", "no king (no bid won)"],
             [pk["rate"] or 0, 1 - (s["priest_king"]["rounds_with_king"]["rate"] or 0)], w, h,
             [pk["low"], 1 - (s["priest_king"]["rounds_with_king"]["high"] or 0)],
             [pk["high"], 1 - (s["priest_king"]["rounds_with_king"]["low"] or 0)],
             fmt=_pct_tick, ylabel="of king rounds / of all rounds"),
    ], h)


def _fmt_cell(v):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 1 else f"{v:.2f}"
    return str(v)


def render_report(summary: dict, variant: dict | None = None, variant_name: str = "",
                  rows: list[dict] | None = None) -> bytes:
    s = summary
    pages = Pages("Altun Ha - balance report")
    pages.heading("Altun Ha balance report", 18)
    changed = ", ".join(f"{k}={s['rules'][k]}" for k in s["changed_rules"]) or "none (the seed's rules)"
    pages.para(f"<b>{s['games']}</b> games of <b>{s['players']}</b> players; policies by seat in play order "
               f"cycling <b>{', '.join(s['policies'])}</b>; seed <b>{s['seed']}</b>. Rules changed: {changed}. "
               "Seat 1 holds the Calendar in round 1 and plays first; rates carry 95% Wilson intervals, "
               "means 95% normal intervals.")
    pages.heading("Findings", 12)
    if s["warning"]:
        pages.warning(s["warning"])
    for line in s["findings"]:
        pages.para("&bull; " + _escape(line), 9, 3)
    pages.y -= 4
    pages.heading("Key figures", 12)
    pages.table(key_rows(s), [pages.width * 0.55, pages.width * 0.45])
    pages.new_page()
    summary_pages(pages, s)
    if variant is not None and rows is not None:
        pages.new_page()
        pages.heading(f"Variant '{variant_name}' against the baseline (same seeds)", 13)
        changed_v = ", ".join(f"{k}={variant['rules'][k]}" for k in variant["changed_rules"]) or "none"
        pages.para(f"Variant rules changed: {changed_v}.")
        if variant["warning"]:
            pages.warning(f"Variant '{variant_name}': {variant['warning']}")
        table = [("Figure", "Baseline", "Variant", "Difference")]
        table += [(r["figure"], _fmt_cell(r["baseline"]), _fmt_cell(r["variant"]), _fmt_cell(r["difference"]))
                  for r in rows]
        pages.table(table, [pages.width * 0.46, pages.width * 0.18, pages.width * 0.18, pages.width * 0.18])
        w, h = pages.width / 2 - 6, mm(62)
        seats = [f"seat {i + 1}" for i in range(s["players"])]
        lengths = sorted(set(s["length"]["histogram"]) | set(variant["length"]["histogram"]), key=int)
        pages.charts([
            hbar("Win rate by seat", seats,
                 [("baseline", [x["rate"] for x in s["win_rate_by_seat"]], None, None, BAR),
                  (variant_name, [x["rate"] for x in variant["win_rate_by_seat"]], None, None, BAR2)],
                 w, h, ref=s["balance"]["fair_share"], fmt=_pct_tick),
            hbar("How games ended", [END_LABELS[e] for e in ENDS],
                 [("baseline", [s["ends"][e]["rate"] for e in ENDS], None, None, BAR),
                  (variant_name, [variant["ends"][e]["rate"] for e in ENDS], None, None, BAR2)],
                 w, h, fmt=_pct_tick),
        ], h)
        pages.charts([
            _hist_chart("Game length - baseline", {k: s["length"]["histogram"].get(k, 0) for k in lengths},
                        w, h, "rounds played"),
            _hist_chart(f"Game length - {variant_name}",
                        {k: variant["length"]["histogram"].get(k, 0) for k in lengths}, w, h, "rounds played"),
        ], h)
        pages.new_page()
        summary_pages(pages, variant, f"variant '{variant_name}'")
    return pages.bytes()
