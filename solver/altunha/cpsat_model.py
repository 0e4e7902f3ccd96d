"""The CP-SAT model of one Altun Ha turn: Farm and Build chosen together.

Layout (one function per group of constraints):

* :func:`build_rows` lists every Build the hand could make (ignoring Farm)
  as rows of a table; the model picks one row with an allowed-assignments
  constraint.  A row gives, for each of the (up to) two Build slots, the value
  placed, the temple number and whether a God card plays it, then how many
  cards of each kind the Build uses.
* :class:`TurnModel` names the variables (``farm_3``, ``farm_god``,
  ``farm_feed``, ``famine``, ``slot1_value``, ``slot1_temple``, ...),
  and the ``add_*`` functions add the rules:
  :func:`add_farm_rules`, :func:`add_build_table`, :func:`add_card_supply`,
  :func:`add_outcome`, :func:`add_objective`.
* Building nothing costs the no-build penalty only when no card could be laid
  (unless the ``penalty_if_declined`` ruling is on): the ``able`` variable says
  whether a card the Farm left could start or raise a temple, and ``declined``
  (nothing built, no famine, able) takes the penalty back out of the points.
* :func:`solve_model` runs CP-SAT with one worker and a fixed seed, so the
  same question always gets the same answer.

The objective is the preference key of :mod:`.rules` packed into one
integer (each field a digit of a mixed-radix number), so a single solve
returns the best plan under all tie-breaks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Sequence

from ortools.sat.python import cp_model

from solver.altunha.cards import FEED, GOD, Deck, Kind
from solver.altunha.rules import (
    BUILT,
    DEFAULT_PREFERENCE,
    FAMINE,
    KEEP_MAIZE_GODS,
    OPTIMAL_FIELDS,
    PlanKey,
    Rules,
    TurnPlan,
    build_points,
    can_feed,
    farm_cost,
    hand_counts,
    no_build_outcome,
    plan_from_kinds,
)

SLOTS = 2          # Build slots in the table (Rules.max_build_cards may lower the number used)
NONE = 0           # temple number of an empty slot


# --- the table of Builds -------------------------------------------------------

def build_rows(counts: Counter, temples: Sequence[int], rules: Rules, kinds: Sequence[Kind]):
    """Every Build from these cards, one row per play.

    Row layout: ``(value1, temple1, god1, value2, temple2, god2, cards, *uses)``
    where ``uses`` counts the cards of each kind in ``kinds``.  Two placements
    that do not stack are listed in one order only (the preferred one of
    :func:`solver.altunha.rules.canonical_build`).
    """
    n = len(temples)
    index = {k: i for i, k in enumerate(kinds)}
    width = len(kinds)
    builders = [k for k in (GOD, *range(1, rules.max_stage + 1)) if counts[k]]

    def placements(tops, touched, used):
        """(value, temple, is_god, kind, tops after) for one more card."""
        for kind in builders:
            if used[kind] >= counts[kind]:
                continue
            if kind == GOD:
                targets = [(1, len(tops) + 1)] + [(top + 1, i + 1) for i, top in enumerate(tops)
                                                  if top < rules.max_stage]
            elif kind == 1:
                targets = [(1, len(tops) + 1)]
            else:
                targets = [(kind, i + 1) for i, top in enumerate(tops) if top == kind - 1]
            for value, temple in targets:
                if not rules.chain and temple in touched:
                    continue
                after = list(tops)
                if temple > len(tops):
                    after.append(value)
                else:
                    after[temple - 1] = value
                yield value, temple, int(kind == GOD), kind, after

    def uses(*used_kinds):
        row = [0] * width
        for k in used_kinds:
            if k in index:
                row[index[k]] += 1
        return row

    rows = [(0, NONE, 0, 0, NONE, 0, 0, *uses())]
    if rules.max_build_cards < 1:
        return rows
    empty = Counter()
    for v1, t1, g1, k1, tops1 in placements(list(temples), set(), empty):
        rows.append((v1, t1, g1, 0, NONE, 0, 1, *uses(k1)))
        if rules.max_build_cards < 2:
            continue
        for v2, t2, g2, k2, _ in placements(tops1, {t1}, Counter({k1: 1})):
            if t1 != t2:  # independent placements: keep the preferred order only
                if t1 > n and t2 > n:
                    if g1 > g2:
                        continue
                elif t1 > t2:
                    continue
            rows.append((v1, t1, g1, v2, t2, g2, 2, *uses(k1, k2)))
    return rows


# --- the model ---------------------------------------------------------------

class _Model(cp_model.CpModel):
    """A CP-SAT model without OR-Tools' pre-PEP 8 aliases.

    ``CpModel()`` sets a camelCase alias for each of its methods on every new
    model, which costs more than building and solving a turn's model; this
    module calls the snake_case names only.
    """

    def _add_pre_pep8_methods(self) -> None:
        pass


# --- variables ---------------------------------------------------------------

@dataclass
class TurnModel:
    """The model and its named variables for one question."""

    hand: tuple[str, ...]
    population: int
    temples: tuple[int, ...]
    rules: Rules
    deck: Deck
    preference: str = DEFAULT_PREFERENCE               # the order of plays of equal points
    feed_allowed: bool = True                           # the card that feeds alone may be used this round
    model: cp_model.CpModel = field(default_factory=_Model)
    counts: Counter = field(default_factory=Counter)
    farm: dict = field(default_factory=dict)           # kind -> IntVar, cards of that kind farmed
    feed: object = 0                                    # BoolVar farm_feed, or 0 without the feed card
    famine: object = None
    built: object = None
    able: object = 0                                    # a card left after the Farm could be laid
    declined: object = 0                                # nothing laid although a card could be
    slot_value: list = field(default_factory=list)
    slot_temple: list = field(default_factory=list)
    slot_god: list = field(default_factory=list)
    build_cards: object = None
    build_uses: dict = field(default_factory=dict)      # kind -> IntVar (only kinds in short supply)
    build_rank: object = None                           # the Build's share of the objective
    objective: object = None


def new_model(hand, population, temples, rules: Rules, deck: Deck, preference: str = DEFAULT_PREFERENCE,
              feed_allowed: bool = True) -> TurnModel:
    tm = TurnModel(tuple(hand), population, tuple(temples), rules, deck, preference, feed_allowed)
    m = tm.model
    tm.counts = Counter(deck.kind_of(n) for n in hand)
    for kind in sorted((k for k in tm.counts if k == GOD or isinstance(k, int)),
                       key=lambda k: farm_cost(k, rules.max_stage)):
        tm.farm[kind] = m.new_int_var(0, min(tm.counts[kind], rules.max_farm_cards), f"farm_{kind}")
    if tm.counts[FEED] and feed_allowed:
        tm.feed = m.new_bool_var("farm_feed")
    tm.famine = m.new_bool_var("famine")
    tm.built = m.new_bool_var("built")
    top_temple = len(temples) + SLOTS
    for s in range(1, SLOTS + 1):
        tm.slot_value.append(m.new_int_var(0, rules.max_stage, f"slot{s}_value"))
        tm.slot_temple.append(m.new_int_var(0, top_temple, f"slot{s}_temple"))
        tm.slot_god.append(m.new_bool_var(f"slot{s}_god"))
    tm.build_cards = m.new_int_var(0, SLOTS, "build_cards")
    return tm


# --- constraints -------------------------------------------------------------

def add_farm_rules(tm: TurnModel) -> None:
    """Farm: the feed card alone (with other cards too, unless ``feed_alone``), or 1..max_farm_cards
    Bid/God cards worth >= Population; else famine.

    Famine is pinned: it is the only play when no Farm is possible and not a
    play at all otherwise (so a runner-up is never an illegal famine).
    """
    m, r = tm.model, tm.rules
    values, gods, feed = hand_counts(tm.hand, tm.deck)
    m.add(tm.famine == int(not can_feed(values, gods, feed and tm.feed_allowed, tm.population, r)))
    cards = sum(tm.farm.values())
    value = sum((r.god_value if k == GOD else k) * v for k, v in tm.farm.items())
    fed_by_cards = 1 - tm.feed - tm.famine  # 1 when Bid/God cards pay for the Farm
    m.add(tm.feed + tm.famine <= 1)
    if r.feed_alone:
        m.add(cards <= r.max_farm_cards * fed_by_cards)
    else:   # the feed card may take other cards with it, up to max_farm_cards in all
        m.add(cards + tm.feed <= r.max_farm_cards * (1 - tm.famine))
    m.add(cards >= fed_by_cards)
    m.add(value >= tm.population * fed_by_cards)


def add_build_table(tm: TurnModel) -> None:
    """Build: one row of the table of possible Builds."""
    short = [k for k in tm.farm if tm.counts[k] < min(tm.counts[k], tm.rules.max_farm_cards) + SLOTS]
    for kind in short:
        tm.build_uses[kind] = tm.model.new_int_var(0, SLOTS, f"build_uses_{kind}")
    rows = build_rows(tm.counts, tm.temples, tm.rules, short)
    weights = objective_weights(tm)
    rows = [row + (build_rank(row, weights, tm),) for row in rows]
    tm.build_rank = tm.model.new_int_var(min(r[-1] for r in rows), max(r[-1] for r in rows), "build_rank")
    columns = [tm.slot_value[0], tm.slot_temple[0], tm.slot_god[0],
               tm.slot_value[1], tm.slot_temple[1], tm.slot_god[1], tm.build_cards,
               *tm.build_uses.values(), tm.build_rank]
    tm.model.add_allowed_assignments(columns, rows)


def add_card_supply(tm: TurnModel) -> None:
    """A card is farmed or built, not both: per kind, farmed + built <= held."""
    for kind, used in tm.build_uses.items():
        tm.model.add(tm.farm[kind] + used <= tm.counts[kind])


def placeable_kinds(tm: TurnModel) -> list[Kind]:
    """Kinds of card that could be laid alone on this table: God, 1, or v on a temple topped v-1."""
    if tm.rules.max_build_cards < 1:
        return []
    tops = set(tm.temples)
    return [k for k in tm.farm if k == GOD or k == 1 or (k <= tm.rules.max_stage and k - 1 in tops)]


def add_outcome(tm: TurnModel) -> None:
    """Built iff some card is placed; famine builds nothing; declined iff nothing is built though
    a card the Farm left could be laid."""
    m = tm.model
    m.add(tm.build_cards >= tm.built)
    m.add(tm.build_cards <= SLOTS * tm.built)
    m.add(tm.built + tm.famine <= 1)
    kinds = placeable_kinds(tm)
    if not kinds:
        return
    left = sum(tm.counts[k] - tm.farm[k] for k in kinds)
    tm.able = m.new_bool_var("able")
    m.add(left >= 1).only_enforce_if(tm.able)
    m.add(left <= 0).only_enforce_if(tm.able.negated())
    tm.declined = m.new_bool_var("declined")
    m.add_bool_and([tm.able, tm.built.negated(), tm.famine.negated()]).only_enforce_if(tm.declined)
    m.add_bool_or([tm.able.negated(), tm.built, tm.famine, tm.declined])


def declined_refund(tm: TurnModel) -> int:
    """Points a declined Build gets back from the no-build penalty (0 when declining is penalised)."""
    return 0 if tm.rules.penalty_if_declined else tm.rules.no_build_penalty


def points_expr(tm: TurnModel):
    r = tm.rules
    unable = 1 - tm.built - tm.famine
    return (sum(tm.slot_value) - r.no_build_penalty * unable - r.famine_penalty * tm.famine
            + declined_refund(tm) * tm.declined)


def objective_weights(tm: TurnModel) -> dict[str, int]:
    """The weight of each PlanKey field: a mixed-radix packing, first field most significant."""
    r = tm.rules
    n_temples = len(tm.temples) + SLOTS + 1
    max_farm_cost = r.max_farm_cards * farm_cost(FEED, r.max_stage)
    sizes = {  # number of distinct values of each field
        "famine": 2,
        "points": SLOTS * r.max_stage + max(r.famine_penalty, r.no_build_penalty) + 1,
        "farm_feed": 2,
        "farm_gods": r.max_farm_cards + 1,
        "farm_cards": r.max_farm_cards + 2,
        "farm_value": max_farm_cost + 1,
        "build_cards": SLOTS + 1,
        "build_gods": SLOTS + 1,
        "farm_spread": max_farm_cost ** 2 + 1,
        "chained": 2,
        "placement": (n_temples * 2) ** SLOTS,
    }
    weights, weight = {}, 1
    for name in reversed(PlanKey._fields):
        weights[name] = weight
        weight *= sizes[name]
    weights["n_temples"] = n_temples
    return weights


def build_rank(row, w: dict[str, int], tm: TurnModel) -> int:
    """The Build's share of the objective: its points, cards, Gods, chaining and placement key."""
    v1, t1, g1, v2, t2, g2, cards = row[:7]
    points = v1 + v2 if cards else -tm.rules.no_build_penalty
    n = w["n_temples"]
    placement = ((t1 * 2 + g1) * 2 * n + t2 * 2 + g2) if cards else 0
    chained = int(cards == 2 and t1 == t2)
    return (w["points"] * (SLOTS * tm.rules.max_stage - points) + w["build_cards"] * cards
            + w["build_gods"] * (g1 + g2) + w["chained"] * chained + w["placement"] * placement)


def farm_terms(tm: TurnModel) -> dict[str, object]:
    """The Farm's key fields as linear expressions (the feed card and God cards count apart only under
    the preference that keeps them)."""
    costs = {k: farm_cost(k, tm.rules.max_stage) for k in tm.farm}
    feed_cost = farm_cost(FEED, tm.rules.max_stage)
    keep = tm.preference == KEEP_MAIZE_GODS
    return {
        "farm_feed": tm.feed if keep else 0,
        "farm_gods": tm.farm.get(GOD, 0) if keep else 0,
        "farm_cards": sum(tm.farm.values()) + tm.feed,
        "farm_value": sum(costs[k] * v for k, v in tm.farm.items()) + feed_cost * tm.feed,
        "farm_spread": sum(costs[k] ** 2 * v for k, v in tm.farm.items()) + feed_cost ** 2 * tm.feed,
    }


def add_objective(tm: TurnModel) -> None:
    """Minimise the preference key packed into one number (see objective_weights)."""
    r, w = tm.rules, objective_weights(tm)
    famine_extra = w["famine"] + w["points"] * (r.famine_penalty - r.no_build_penalty)
    total = tm.build_rank + famine_extra * tm.famine - w["points"] * declined_refund(tm) * tm.declined
    for name, expr in farm_terms(tm).items():
        total = total + w[name] * expr
    tm.objective = total
    tm.model.minimize(total)


def copy_model(tm: TurnModel) -> TurnModel:
    """The same question over a copy of its model, with the same variables: constraints a search adds
    to one leave the other as it was.  Copying the model's data costs far less than assembling it again,
    and the copy is the same model, so it gets the same answers."""
    model = _Model()
    model.proto.copy_from(tm.model.proto)
    model.rebuild_constant_map()
    return replace(tm, model=model)


def assemble(hand, population, temples, rules: Rules, deck: Deck, preference: str = DEFAULT_PREFERENCE,
             feed_allowed: bool = True) -> TurnModel:
    tm = new_model(hand, population, temples, rules, deck, preference, feed_allowed)
    add_farm_rules(tm)
    add_build_table(tm)
    add_card_supply(tm)
    add_outcome(tm)
    add_objective(tm)
    return tm


# --- solving -----------------------------------------------------------------

def make_solver(enumerate_all: bool = False) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1          # parallel search is not deterministic
    p.random_seed = 0
    # The model is tiny: presolve, probing, symmetry detection and the LP
    # relaxation cost far more time than they save (about 10x on a 12-card hand).
    p.cp_model_presolve = False
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    p.linearization_level = 0
    # Nor do clause inprocessing and implied-bounds detection pay on it: each solve (a turn's model
    # needs about ten branches) spends some 13% less time without them, with the same answers.
    p.use_sat_inprocessing = False
    p.use_implied_bounds = False
    p.max_time_in_seconds = 10.0
    if enumerate_all:
        p.enumerate_all_solutions = True
    return solver


def read_plan(tm: TurnModel, value) -> TurnPlan:
    """The plan in a solution; ``value`` reads a variable (solver.value or a callback's)."""
    if value(tm.famine):
        return plan_from_kinds(tm.hand, (), (), FAMINE, -tm.rules.famine_penalty, tm.deck)
    farm = [k for k, var in tm.farm.items() for _ in range(value(var))]
    if not isinstance(tm.feed, int) and value(tm.feed):
        farm.append(FEED)
    build = []
    for v, t, g in zip(tm.slot_value, tm.slot_temple, tm.slot_god):
        if value(t) != NONE:
            build.append((GOD if value(g) else value(v), value(v), value(t)))
    able = not isinstance(tm.able, int) and bool(value(tm.able))
    outcome = BUILT if build else no_build_outcome(able)
    points = build_points([v for _, v, _ in build], able, tm.rules)
    return plan_from_kinds(tm.hand, farm, build, outcome, points, tm.deck)


def solve_model(tm: TurnModel) -> tuple[TurnPlan, int] | None:
    """The best plan and its packed objective, or None when no plan is left."""
    solver = make_solver()
    status = solver.solve(tm.model)
    if status == cp_model.INFEASIBLE:
        return None
    if status != cp_model.OPTIMAL:
        raise RuntimeError(f"CP-SAT stopped without proving optimality ({solver.status_name(status)})")
    return read_plan(tm, solver.value), round(solver.objective_value)


def farm_kinds(deck: Deck, farm: Sequence[str]) -> Counter:
    """A Farm discard (card names) as the count of each kind, the feed card included."""
    return Counter(deck.kind_of(name) for name in farm)


def _farm_is(tm: TurnModel, kinds: Counter) -> list:
    """Constraints, one a Farm variable, that hold when the Farm discards exactly ``kinds``."""
    m, same = tm.model, []
    for kind, var in [*tm.farm.items(), *([(FEED, tm.feed)] if not isinstance(tm.feed, int) else [])]:
        flag = m.new_bool_var(f"farm_{kind}_same")
        m.add(var == kinds[kind]).only_enforce_if(flag)
        m.add(var != kinds[kind]).only_enforce_if(flag.negated())
        same.append(flag)
    return same


def best_with_other_farm(tm: TurnModel, farm: Sequence[str]) -> TurnPlan | None:
    """The best plan whose Farm discards other cards than ``farm`` (by kind), or None (famine, or no
    other Farm feeds the people)."""
    kinds = farm_kinds(tm.deck, farm)
    if not farm or any(tm.counts[k] < n for k, n in kinds.items()):
        return None
    tm.model.add(tm.famine == 0)
    same = _farm_is(tm, kinds)
    tm.model.add_bool_or([flag.negated() for flag in same])
    found = solve_model(tm)
    return found[0] if found else None


def best_with_farm(tm: TurnModel, farm: Sequence[str]) -> TurnPlan | None:
    """The best plan that discards exactly ``farm`` (by kind), or None when that Farm is not legal."""
    kinds = farm_kinds(tm.deck, farm)
    known = set(tm.farm) | ({FEED} if not isinstance(tm.feed, int) else set())
    if not farm or set(kinds) - known:
        return None
    tm.model.add(tm.famine == 0)
    for flag in _farm_is(tm, kinds):
        tm.model.add(flag == 1)
    found = solve_model(tm)
    return found[0] if found else None


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, tm: TurnModel):
        super().__init__()
        self.tm, self.plans = tm, []

    def on_solution_callback(self):
        self.plans.append(read_plan(self.tm, self.value))


def enumerate_optimal(tm: TurnModel, best: PlanKey) -> list[TurnPlan]:
    """Every plan equal to ``best`` by the rules (the first key fields: famine, points)."""
    m = tm.model
    m.clear_objective()
    targets = dict(zip(PlanKey._fields[:OPTIMAL_FIELDS], best[:OPTIMAL_FIELDS]))
    m.add(tm.famine == targets["famine"])
    m.add(points_expr(tm) == -targets["points"])
    collector = _Collector(tm)
    make_solver(enumerate_all=True).solve(m, collector)
    return collector.plans
