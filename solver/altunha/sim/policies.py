"""Players: pluggable decision rules, looked up by name with :func:`make_policy`.

* ``random``   - any legal move, uniformly among the choices it is offered.
* ``greedy``   - the exact Farm/Build optimum; bids its highest bid that still
  leaves a hand that feeds the people and builds; plays Trade cards at once
  (points first, then cards), aiming attacks at the leader.
* ``cautious`` - keeps the feed card (Maize) for a famine and the card that
  wins the bid (Jade) for a late round; bids only for a Build worth 3 points
  or more.
* ``closer``   - greedy, but once it leads by more than the famine penalty it
  tries to win the bid with a hand that cannot feed, ending the game while
  still ahead (the exploit the report looks for).

Cards are told apart by their effect (cards.csv), never by their name.

Two traits of each policy shape what a balance report may conclude (see
:func:`traits`): ``reads_seen``, whether it uses what a Trade card shows (another
hand, the top of the deck; none of these does, the lookahead player does), and
``bids_only_if_fed``, whether it bids cards only when the hand left can feed the
city (greedy and cautious: such a player starves only after a bid of no cards).
"""

from __future__ import annotations

from itertools import combinations

from kitgen.errors import OptionError
from solver.altunha.cards import TARGETED
from solver.altunha.rules import can_feed
from solver.altunha.sim.cards import BID, GOD
from solver.altunha.sim.effects import EFFECTS
from solver.altunha.sim.engine import NO_BID, Bid, TablePlacement, TradePlay
from solver.altunha.sim.enumerate import Turn, farm_options, summarise
from solver.altunha.sim.state import BIDDING, DISCARDING, FARMING, TRADING, Discard, FarmBuild, Take

# the greedy player's order of Trade effects: points first, then cards, then looking
TRADE_PRIORITY = ("gain", "steal_points", "target_loses", "others_lose", "draw", "look_and_take",
                  "draw_and_see_hand", "take_cards", "discard_random", "look")
PRIORITY = {effect: rank for rank, effect in enumerate(TRADE_PRIORITY)}
AT_LEADER = ("steal_points", "target_loses", "draw_and_see_hand")   # aimed at the leading opponent
AT_BIGGEST_HAND = ("take_cards", "discard_random")                  # aimed at the largest hand


# --- shared helpers ------------------------------------------------------------

def hand_code(game, p, without=(), feed=True) -> int:
    """The enumerator's code of player ``p``'s hand less ``without`` (see Planner); the feed card
    counts only when ``feed`` and the player may still use it."""
    weight = game.table.weight
    hand = game.hands[p]
    if without:
        hand = [c for c in hand if c not in without]
    code = sum(map(weight.__getitem__, hand))
    if not (feed and game.feed_allowed(p)):
        code = game.table.planner.without_feed(code)
    return code


def table_key(game):
    """The enumerator's view of the temples on the table."""
    return game.table.planner.table(game.top_values())


def plan(game, p, without=(), feed=True):
    """The optimal Turn for player ``p``'s hand less ``without``."""
    return game.table.planner.turn(hand_code(game, p, without, feed), game.population, table_key(game))


def pick_cards(game, p, tokens) -> list[int]:
    """The hand's cards for value tokens, in order: for each, the lowest id not picked yet."""
    token, hand = game.table.token, game.hands[p]
    if len(tokens) == 1:
        t = tokens[0]
        found = [c for c in hand if token[c] == t]
        if not found:
            raise AssertionError(f"no card for token {t}")
        return [min(found)]
    pool = sorted([c for c in hand if token[c] in tokens])
    picked: list[int] = []
    for t in tokens:
        for i, c in enumerate(pool):
            if token[c] == t:
                picked.append(pool.pop(i))
                break
        else:
            raise AssertionError(f"no card for token {t}")
    return picked


def realize(game, p, turn):
    """Card ids and placements for a Turn's tokens, on the real hand and temples."""
    if not turn.build:
        return tuple(pick_cards(game, p, turn.farm)), ()
    cards = pick_cards(game, p, turn.farm + tuple(token for token, _ in turn.build))
    farm, built = tuple(cards[:len(turn.farm)]), cards[len(turn.farm):]
    tops = game.tops()
    touched: set[int] = set()
    build = []
    for card, (_, w) in zip(built, turn.build):
        if w == 1:
            build.append(TablePlacement(card, 1, None))
            tops.append(1)
            touched.add(len(tops) - 1)
            continue
        if game.R.chain:
            target = tops.index(w - 1)
        else:
            target = next(i for i, t in enumerate(tops) if t == w - 1 and i not in touched)
        tops[target] = w
        touched.add(target)
        build.append(TablePlacement(card, w, target))
    return farm, tuple(build)


def bid_options(game, p):
    """Every distinct bid (by values) of 0..max_bid_cards Bid/God cards: list of card-id tuples."""
    kind, value = game.table.kind, game.table.value
    cards = sorted((c for c in game.hands[p] if kind[c] in (BID, GOD)), key=lambda c: (value[c], kind[c], c))
    seen, options = set(), [()]
    for size in range(1, game.R.max_bid_cards + 1):
        for combo in combinations(cards, size):
            key = tuple((kind[c], value[c]) for c in combo)
            if key not in seen:
                seen.add(key)
                options.append(combo)
    return options


def held(game, p, effect):
    """The player's card with this effect (the lowest id), or None."""
    ids = game.table.by_effect.get(effect)
    if not ids or ids.isdisjoint(game.hands[p]):
        return None
    return min(ids.intersection(game.hands[p]))


def opponents(game, p):
    return [q for q in range(game.n) if q != p]


def leader_among(game, players, p):
    """The highest score among ``players``; ties go to the nearest clockwise from ``p``."""
    return max(players, key=lambda q: (game.scores[q], -((q - p) % game.n)))


def keep_value(game, p, card):
    """How much a hand wants to keep a card (higher = keep)."""
    kind, effect = game.table.kind[card], game.table.effect[card]
    if effect == "feed":
        return 20
    if effect == "win_bid":
        return 15
    if kind == GOD:
        return 12
    if kind == BID:
        v = game.table.value[card]
        return v + (4 if v == 1 and not game.temples else 0)
    return 0 if effect == "look" else 5


class Policy:
    """The decisions a player makes.  Subclasses override what they decide differently."""

    name = "base"
    reads_seen = False        # uses the cards a Trade card shows (seen_hands, seen_deck)
    bids_only_if_fed = False  # bids cards (or reveals the card that wins the bid) only when it can then feed

    def trade(self, game, p):
        return None

    def choose(self, game, p, looked):
        """The card to take of those looked at (look_and_take)."""
        return max(looked, key=lambda c: (keep_value(game, p, c), -c))

    def bid(self, game, p):
        return Bid()

    def farm_build(self, game, p):
        return realize(game, p, plan(game, p))

    def discard(self, game, p, n):
        ranked = sorted(game.hands[p], key=lambda c: (keep_value(game, p, c), c))
        return ranked[:n]


class RandomPolicy(Policy):
    name = "random"

    def trade(self, game, p):
        rng = game.rng
        playable = [c for c in game.hands[p] if game.table.effect[c] in EFFECTS]
        if not playable or rng.random() < 0.5:
            return None
        card = rng.choice(sorted(playable))
        target = rng.choice(opponents(game, p)) if game.table.effect[card] in TARGETED else None
        return TradePlay(card, target)

    def choose(self, game, p, looked):
        return game.rng.choice(looked)

    def bid(self, game, p):
        rng = game.rng
        cards = sorted(c for c in game.hands[p] if game.table.kind[c] in (BID, GOD))
        size = rng.randint(0, min(game.R.max_bid_cards, len(cards)))
        chosen = tuple(rng.sample(cards, size))
        jade = held(game, p, "win_bid")
        if jade is not None and (rng.random() < 0.5 or (game.R.special_is_trade and p in game.traded)):
            jade = None
        return Bid(chosen, jade)

    def farm_build(self, game, p):
        rng = game.rng
        values, gods, feed = game.hand_summary(p)
        feed = feed and game.feed_allowed(p)
        rules = game.R
        counts, g, m, _ = summarise(values, gods, feed, [], rules)
        options = farm_options(counts, g, m, game.population, rules)
        if not options:
            return (), ()
        farm_tokens = rng.choice(options)
        farm, _ = realize(game, p, Turn("built", 0, farm_tokens, ()))
        left = [c for c in game.hands[p] if c not in farm]
        kind, value = game.table.kind, game.table.value
        tops = game.tops()
        touched: set[int] = set()
        build = []
        for _ in range(rng.randint(0, game.R.max_build_cards)):
            choices = []
            for c in sorted(left):
                vals = [value[c]] if kind[c] == BID else range(1, rules.max_stage + 1) if kind[c] == GOD else []
                for w in vals:
                    if w == 1:
                        choices.append(TablePlacement(c, 1, None))
                    else:
                        choices += [TablePlacement(c, w, i) for i, t in enumerate(tops)
                                    if t == w - 1 and (game.R.chain or i not in touched)]
            if not choices:
                break
            pl = rng.choice(choices)
            left.remove(pl.card)
            if pl.temple is None:
                tops.append(1)
                touched.add(len(tops) - 1)
            else:
                tops[pl.temple] = pl.value
                touched.add(pl.temple)
            build.append(pl)
        return farm, tuple(build)

    def discard(self, game, p, n):
        return game.rng.sample(sorted(game.hands[p]), n)


class GreedyPolicy(Policy):
    name = "greedy"
    bids_only_if_fed = True   # its bids and Jade reveals come from a plan that feeds the city
    min_points = 1        # a Build worth at least this is worth bidding for
    keep_feed = False     # plan Farms without the feed card while something else feeds

    def trade(self, game, p):
        effects = game.table.effect
        held_effects = {effects[c]: c for c in sorted(game.table.trade_ids.intersection(game.hands[p]), reverse=True)
                        if effects[c] in PRIORITY}
        for effect in sorted(held_effects, key=PRIORITY.__getitem__):
            target = None
            if effect in AT_LEADER:
                target = leader_among(game, opponents(game, p), p)
            elif effect in AT_BIGGEST_HAND:
                target = max(opponents(game, p), key=lambda q: (len(game.hands[q]), game.scores[q], -((q - p) % game.n)))
                if not game.hands[target]:
                    continue
            return TradePlay(held_effects[effect], target)
        return None

    def _plan(self, game, p, without=(), feed=True):
        if self.keep_feed or not feed:
            turn = plan(game, p, without, feed=False)
            if turn.outcome != "famine" or not feed:
                return turn
        return plan(game, p, without)

    def _plan_after_jade(self, game, p):
        """The plan of a player who reveals the card that wins the bid: without the feed card when that
        reveal is his one Trade card of the round (special_is_trade)."""
        return self._plan(game, p, feed=not game.R.special_is_trade)

    def bid(self, game, p):
        jade = held(game, p, "win_bid")
        if jade is not None and game.R.special_is_trade and p in game.traded:
            jade = None
        if jade is not None and self.use_jade(game, p):
            return Bid((), jade)
        tokens = game.table.planner.bid(hand_code(game, p), game.population, table_key(game), self.min_points,
                                        self.keep_feed)
        return Bid(tuple(pick_cards(game, p, tokens))) if tokens else NO_BID

    def use_jade(self, game, p):
        turn = self._plan_after_jade(game, p)
        return turn.outcome == "built" and turn.points >= 4

    def farm_build(self, game, p):
        return realize(game, p, self._plan(game, p))


class CautiousPolicy(GreedyPolicy):
    name = "cautious"
    min_points = 3
    keep_feed = True

    def use_jade(self, game, p):
        turn = self._plan_after_jade(game, p)
        return game.population >= 10 and turn.outcome == "built" and turn.points >= 4


class CloserPolicy(GreedyPolicy):
    name = "closer"
    bids_only_if_fed = False  # it bids to starve once far enough ahead

    def bid(self, game, p):
        lead = game.scores[p] - max(game.scores[q] for q in opponents(game, p))
        if lead > game.R.famine_penalty:
            starve = self._starving_bid(game, p)
            if starve is not None:
                return starve
        return super().bid(game, p)

    def _starving_bid(self, game, p):
        """The highest bid that leaves a hand unable to feed (so winning it ends the game)."""
        jade = held(game, p, "win_bid")
        if game.R.special_is_trade and p in game.traded:
            jade = None
        feed_allowed = game.feed_allowed(p) and not (jade is not None and game.R.special_is_trade)
        best, best_key = None, None
        for option in bid_options(game, p):
            values, gods, feed = game.hand_summary(p, option)
            if can_feed(values, gods, feed and feed_allowed, game.population, game.R):
                continue
            if not option and jade is None:
                continue
            key = (jade is not None, sum(game.table.value[c] for c in option), -len(option))
            if best_key is None or key > best_key:
                best, best_key = option, key
        if best is None:
            return None
        return Bid(best, jade)


POLICIES = {cls.name: cls for cls in (RandomPolicy, GreedyPolicy, CautiousPolicy, CloserPolicy)}
HELP = {"random": "any legal move, uniformly among the choices it is offered",
        "greedy": "the exact best Farm and Build; bids for it; plays Trade cards at once, attacks aimed at the leader",
        "cautious": "greedy, but keeps Maize for a famine and Jade for a late round; bids for 3 points or more",
        "closer": "greedy, but once it leads by more than the famine penalty it bids to end the game in a famine"}


class PolicyPlayer:
    """A protocol Player (:mod:`solver.engine`) making a policy's decisions in an
    :class:`~solver.altunha.sim.state.AltunHaState`."""

    __slots__ = ("policy",)

    def __init__(self, policy: Policy):
        self.policy = policy

    def choose(self, state, p):
        kind, game, policy = state.kind, state.game, self.policy
        if kind == BIDDING:
            return policy.bid(game, p)
        if kind == TRADING:
            return policy.trade(game, p)
        if kind == FARMING:
            farm, build = policy.farm_build(game, p)
            return FarmBuild(tuple(farm), tuple(build))
        if kind == DISCARDING:
            return Discard(tuple(policy.discard(game, p, state.excess)))
        return Take(policy.choose(game, p, state.looked))


def traits(name: str) -> tuple[bool, bool]:
    """(reads_seen, bids_only_if_fed) of a policy named as ``--policy`` names it: the lookahead player
    keeps what it has seen when it deals the unseen cards, and may bid into a famine."""
    from solver.lookahead import LOOKAHEAD

    if name.split(":")[0] == LOOKAHEAD:
        return True, False
    cls = POLICIES.get(name)
    return (cls.reads_seen, cls.bids_only_if_fed) if cls is not None else (False, False)


def player_factory(name: str):
    """The protocol's policy factory: a player from a seeded generator (the built-in policies draw their
    randomness from the game's generator, as they always have, so the game plays the same)."""
    cls = POLICIES[name]
    return lambda rng: PolicyPlayer(cls())


def make_policy(name: str) -> Policy:
    try:
        return POLICIES[name.strip().lower()]()
    except KeyError:
        raise OptionError("--policy", f"unknown policy {name!r}; accepted: {', '.join(POLICIES)}") from None


def parse_policies(text: str) -> tuple[str, ...]:
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    if not names:
        raise OptionError("--policy", f"give at least one policy name ({', '.join(POLICIES)})")
    for n in names:
        make_policy(n)
    return names
