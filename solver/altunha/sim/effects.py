"""What each Trade card does when played in the Trade phase.

Rulings for points the seed leaves open: targets are one opponent of the
player's choice (Salt, Cocoa, Honey, Feathers, Pyrite); Ceramics puts the
cards not taken back on top of the deck in the order they were; Codex only
looks; Honey against a one-card hand discards that card; scores may go
negative.  Jade (Bid phase) and Maize (Farm phase) are not played here.
"""

from __future__ import annotations


def _stone(game, p, play, choose):
    game.draw(p, game.R.stone_draw)


def _salt(game, p, play, choose):
    game.draw(p, game.R.salt_draw)
    game.seen_hands[p][play.target] = tuple(game.hands[play.target])


def _cocoa(game, p, play, choose):
    victim = game.hands[play.target]
    for _ in range(min(game.R.cocoa_steal, len(victim))):
        card = victim.pop(game.rng.randrange(len(victim)))
        game.hands[p].append(card)


def _ceramics(game, p, play, choose):
    if not game.deck:
        game.reshuffle()
    looked = game.deck[-game.R.ceramics_look:][::-1]  # top card first
    if not looked:
        return
    pick = choose(looked) if choose else looked[0]
    if pick not in looked:
        game.illegal(p, f"Ceramics: the card taken must be one of the {len(looked)} looked at")
    game.deck.remove(pick)  # the others stay on top in their order
    game.hands[p].append(pick)


def _honey(game, p, play, choose):
    victim = game.hands[play.target]
    n = min(game.R.honey_discard, len(victim))
    for _ in range(n):
        game.discard.append(victim.pop(game.rng.randrange(len(victim))))


def _feathers(game, p, play, choose):
    game.add_points(play.target, -game.R.feathers_points, "feathers")


def _textiles(game, p, play, choose):
    for q in range(game.n):
        if q != p:
            game.add_points(q, -game.R.textiles_points, "textiles")


def _pyrite(game, p, play, choose):
    game.add_points(play.target, -game.R.pyrite_points, "pyrite")
    game.add_points(p, game.R.pyrite_points, "pyrite")


def _obsidian(game, p, play, choose):
    game.add_points(p, game.R.obsidian_points, "obsidian")


def _codex(game, p, play, choose):
    game.seen_deck[p] = tuple(game.deck[-game.R.codex_look:][::-1]) if game.R.codex_look else ()


# effects that ask the player to choose, and so can refuse the choice after the card is played
CHOOSES = ("Ceramics",)

EFFECTS = {
    "Stone": _stone, "Salt": _salt, "Cocoa": _cocoa, "Ceramics": _ceramics, "Honey": _honey,
    "Feathers": _feathers, "Textiles": _textiles, "Pyrite": _pyrite, "Obsidian": _obsidian,
    "Codex": _codex,
}
