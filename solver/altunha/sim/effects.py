"""What a Trade card does when played in the Trade phase, by its effect (the cards.csv ``effect`` column).

Each effect reads its number from the card's ``amount``.  The card played is
out of the hand and not yet on the discard pile while its effect happens
(the engine discards it after), so a reshuffle never brings it back.  Where a card's text
leaves a question open the rulebook says what happens: targets are one
opponent of the player's choice; ``look_and_take`` puts the cards not taken
back on top of the deck in the order they were; ``look`` only looks;
``discard_random`` against a smaller hand discards all of it.  Scores may go
below zero unless the ``negative_scores`` ruling is off (see
:meth:`~solver.altunha.sim.engine.Game.add_points`).  The ``win_bid`` (Jade)
and ``feed`` (Maize) effects belong to the Bid and Farm phases.
"""

from __future__ import annotations


def _draw(game, p, card, play, choose):
    game.draw(p, game.table.amount[card])


def _draw_and_see_hand(game, p, card, play, choose):
    game.draw(p, game.table.amount[card])
    game.seen_hands[p][play.target] = tuple(game.hands[play.target])


def _take_cards(game, p, card, play, choose):
    victim = game.hands[play.target]
    for _ in range(min(game.table.amount[card], len(victim))):
        game.hands[p].append(victim.pop(game.rng.randrange(len(victim))))


def _look_and_take(game, p, card, play, choose):
    if not game.deck:
        game.reshuffle()
    looked = game.deck[-game.table.amount[card]:][::-1]  # top card first
    if not looked:
        game.supply_out()    # a card to take, and none in the deck or the discard pile
        return
    if choose is LATER:      # the player's pick is a decision of its own (see solver.altunha.sim.state)
        game.looking = (p, card, tuple(looked))
        return
    take_looked(game, p, card, looked, choose(looked) if choose else looked[0])


def take_looked(game, p, card, looked, pick):
    """The player takes ``pick``, one of the cards ``looked`` at with ``card``; the others stay on top of the
    deck in their order."""
    if pick not in looked:
        game.illegal(p, f"{game.table.name[card]}: the card taken must be one of the {len(looked)} looked at")
    game.deck.remove(pick)
    game.hands[p].append(pick)


def _discard_random(game, p, card, play, choose):
    victim = game.hands[play.target]
    for _ in range(min(game.table.amount[card], len(victim))):
        game.discard.append(victim.pop(game.rng.randrange(len(victim))))


def _target_loses(game, p, card, play, choose):
    game.add_points(play.target, -game.table.amount[card], game.table.source[card])


def _others_lose(game, p, card, play, choose):
    for q in range(game.n):
        if q != p:
            game.add_points(q, -game.table.amount[card], game.table.source[card])


def _steal_points(game, p, card, play, choose):
    taken = -game.add_points(play.target, -game.table.amount[card], game.table.source[card])
    game.add_points(p, taken, game.table.source[card])


def _gain(game, p, card, play, choose):
    game.add_points(p, game.table.amount[card], game.table.source[card])


def _look(game, p, card, play, choose):
    amount = game.table.amount[card]
    game.seen_deck[p] = tuple(game.deck[-amount:][::-1]) if amount else ()


LATER = object()   # as ``choose``: the effect stops once the player has looked, and the pick comes later

# effects that ask the player to choose, and so can refuse the choice after the card is played;
# they draw randomness only through Game.reshuffle (which keeps the generator's state to put back)
CHOOSES = frozenset({"look_and_take"})

EFFECTS = {
    "draw": _draw, "draw_and_see_hand": _draw_and_see_hand, "take_cards": _take_cards,
    "look_and_take": _look_and_take, "discard_random": _discard_random, "target_loses": _target_loses,
    "others_lose": _others_lose, "steal_points": _steal_points, "gain": _gain, "look": _look,
}
