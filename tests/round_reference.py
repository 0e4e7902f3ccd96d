"""Exhaustive pure-Python references for the round's questions: who wins the bid, who wins the game.

Written from the seed's sentences and the rulings' option texts, sharing no code with
:mod:`solver.altunha.rules` or :mod:`solver.altunha.round_questions`: the bid is resolved
recursively, one tied total at a time, as the seed tells it ("If there is a tie, the next lowest
bid wins. If there is no next lowest bid card the player with fewer Scoring Points wins. If still
tied, the turn ends immediately"); the end of the game takes the famine's loss and gives the
victory to the most points, a tie going as the end_tie ruling says.
"""

from __future__ import annotations


def bid_winner(values: list[list[int]], revealed: set[int], scores: list[int], tie_drop: bool,
               points_decide: str, empty_bid: str) -> int | None:
    """The player (from 0) who wins the bid, or None.  ``values[p]`` are the values of the cards player p
    bid (a God already counted as its value), ``revealed`` the players who revealed the card that wins."""
    everyone = list(range(len(values)))
    if len(revealed) == 1:
        return next(iter(revealed))
    if revealed:
        pool = sorted(revealed)
    else:
        with_cards = [p for p in everyone if values[p]]
        if empty_bid == "counts":
            pool = everyone                    # a bid of no cards is a total of 0 like any other
        elif with_cards:
            pool = with_cards                  # never_wins, no_bid_card: only bids of cards climb the ladder
        elif empty_bid == "never_wins":
            return None                        # nobody bid a card, and no such bid wins
        else:
            pool = everyone                    # no_bid_card: all tied at 0, no bid card: the points decide
    total = {p: sum(values[p]) for p in pool}

    def ladder(players: list[int], first_tie: list[int]) -> list[int] | int:
        """Who wins among ``players`` (an int), or the players whose points must decide (a list)."""
        top = max(total[p] for p in players)
        tied = [p for p in players if total[p] == top]
        if len(tied) == 1:
            return tied[0]
        if not tie_drop:
            return tied
        lower = [p for p in players if total[p] < top]
        if not lower:
            return tied if points_decide == "lowest_tie" else first_tie
        return ladder(lower, first_tie)

    top = max(total.values())
    found = ladder(pool, [p for p in pool if total[p] == top])
    if isinstance(found, int):
        return found
    fewest = min(scores[p] for p in found)
    winners = [p for p in found if scores[p] == fewest]
    return winners[0] if len(winners) == 1 else None


def game_winners(scores: list[int], king: int | None, calendar: int, famine_penalty: int, negative_scores: bool,
                 end_tie: str) -> list[int]:
    """The winners (players from 0) of a game that ends with these points: the Priest King ``king`` (None when
    the deck ran out) loses the famine's points first; a tie is shared, or goes to the first in turn order
    from the Calendar holder (players numbered clockwise)."""
    final = list(scores)
    if king is not None:
        final[king] -= famine_penalty
        if not negative_scores and final[king] < 0:
            final[king] = min(0, scores[king]) if scores[king] < 0 else 0
    best = max(final)
    tied = [p for p in range(len(final)) if final[p] == best]
    if len(tied) == 1 or end_tie == "shared":
        return tied
    order = [(calendar + k) % len(final) for k in range(len(final))]
    return [next(p for p in order if p in tied)]
