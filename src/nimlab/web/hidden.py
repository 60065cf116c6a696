"""Imperfect-information Nim against the equilibrium: Schrödinger, Fuzzy Schrödinger, Kriegspiel.

The game tree is unrolled without the forced-endgame reduction (every decision is played
out), solved exactly, and the computer samples each of its moves from its equilibrium
behaviour strategy at its information set. The player sees only what the rules tell them:
their own observations and the signals about the computer's moves; the true heaps and the
full history are revealed when the game ends. Shared by the web playground and ``nimlab play``.

>>> match = HiddenMatch.start("sn", (2, 1), human_first=True, seed=0)
>>> match.view()["knowledge"], [a["label"] for a in match.view()["actions"]]
('[2, 1]', ['1_1', '1_2', '2_1'])
>>> match.act(1)  # take 2 from heap 1: the computer must take the last chip... and wins
>>> match.over, match.view()["winner"]
(True, 'computer')
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from nimlab.core.heaps import check_heaps
from nimlab.errors import InvalidPositionError, NoSuchPositionError, TooLargeError
from nimlab.exact import exact_str
from nimlab.extensive.variants import VARIANTS

__all__ = [
    "HIDDEN_MAX_NODES",
    "VARIANT_NAMES",
    "HiddenMatch",
    "MatchStore",
    "Solved",
    "playable",
    "solved",
]

#: Largest game tree (nodes) played in the playground.
HIDDEN_MAX_NODES = 300_000
#: The variants and their full names (from the registry of nimlab.extensive.variants).
VARIANT_NAMES = {name: entry.title for name, entry in VARIANTS.items()}

_PLAYERS = ("L", "R")


@dataclass(frozen=True)
class Solved:
    """A solved game: the tree, both behaviour strategies, the value for L, and an index
    from (player, events seen) to information set."""

    tree: Any
    behaviours: tuple[list[tuple[Fraction, ...]], list[tuple[Fraction, ...]]]
    value: Fraction
    exact: bool
    index: dict[tuple[int, tuple[str, ...]], int]


@lru_cache(maxsize=16)
def solved(variant: str, position: tuple[int, ...], misere: bool) -> Solved:
    """Build (without the forced-endgame reduction) and solve a variant; cached."""
    from nimlab.extensive.solve import solve_tree
    from nimlab.extensive.tree import build_tree

    if variant not in VARIANT_NAMES:
        known = ", ".join(VARIANT_NAMES)
        raise InvalidPositionError(f"unknown variant {variant!r}: known variants are {known}")
    try:
        tree = build_tree(
            variant, position, misere=misere, max_nodes=HIDDEN_MAX_NODES, prune_forced=False
        )
    except TooLargeError as error:
        raise TooLargeError(
            f"{variant}{list(position)} is too large to play here: its game tree has more than"
            f" {HIDDEN_MAX_NODES:,} nodes; try fewer or smaller heaps",
            estimate=error.estimate,
            limit=HIDDEN_MAX_NODES,
        ) from error
    result = solve_tree(tree)
    index = {(info.player, info.history): i for i, info in enumerate(tree.infosets)}
    return Solved(tree, result.behaviours, result.value, result.exact, index)


def playable(variant: str, position: tuple[int, ...], misere: bool) -> Solved:
    """The solved game of a match from ``position``, if it is small enough to play here.

    >>> playable("sn", (2, 1), False).value
    Fraction(1, 1)
    >>> playable("sn", (7, 1), False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: position [7, 1] is too large to play here: ...
    """
    heaps = check_heaps(position)
    if len(heaps) > 4 or any(h > 6 for h in heaps):
        raise TooLargeError(
            f"position {list(heaps)} is too large to play here: at most 4 heaps of at most 6",
            limit=HIDDEN_MAX_NODES,
        )
    from nimlab.extensive.budget import estimate_solve

    # The estimate counts the reduced tree, a lower bound of the one played here.
    nodes = estimate_solve(variant, heaps, misere=misere, method="lp").nodes
    if nodes > HIDDEN_MAX_NODES:
        raise TooLargeError(
            f"{variant}{list(heaps)} is too large to play here: its game tree has about"
            f" {nodes:,} nodes, over {HIDDEN_MAX_NODES:,}; try fewer or smaller heaps",
            estimate=nodes,
            limit=HIDDEN_MAX_NODES,
        )
    return solved(variant, heaps, misere)


@dataclass
class HiddenMatch:
    """One game: the true heaps, each player's history of events, and the full record."""

    variant: str
    start_position: tuple[int, ...]
    misere: bool
    human: int
    game: Solved
    rng: random.Random
    state: tuple[int, ...] = ()
    mover: int = 0
    events: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))
    record: list[dict[str, Any]] = field(default_factory=list)
    winner: int | None = None

    @classmethod
    def start(
        cls,
        variant: str,
        position: tuple[int, ...],
        *,
        misere: bool = False,
        human_first: bool = True,
        seed: int | None = None,
        game: Solved | None = None,
    ) -> HiddenMatch:
        """A new game (the computer moves at once if it starts); ``game``: the solved game of
        :func:`playable`, if it was computed elsewhere."""
        heaps = check_heaps(position)
        if game is None:
            game = playable(variant, heaps, misere)
        match = cls(variant, heaps, misere, 0 if human_first else 1, game, random.Random(seed))
        match.state = heaps
        match._computer_turns()
        return match

    @property
    def over(self) -> bool:
        """Whether the last chip has been taken."""
        return self.winner is not None

    def _infoset(self, player: int) -> int:
        return self.game.index[(player, tuple(self.events[player]))]

    def _do(self, action_index: int) -> None:
        from nimlab.extensive.variants import variant_rules

        player = self.mover
        info = self.game.tree.infosets[self._infoset(player)]
        action = info.actions[action_index]
        step = variant_rules(self.variant).step(self.state, action, player)
        self.events[player].append(f"{action}" + (f" -> {step.own}" if step.own else ""))
        self.record.append(
            {
                "player": "you" if player == self.human else "computer",
                "action": str(action),
                "saw": step.own,
                "told_opponent": step.opp if step.done else "",
                "before": list(self.state),
                "after": list(step.state),
            }
        )
        self.state = step.state
        if not step.done:
            return
        other = 1 - player
        if not any(self.state):
            self.winner = other if self.misere else player
            told = f"opponent: {step.opp}" if step.opp else "opponent moved"
            self.events[other].append(f"{told} (the last chip)")
            return
        self.events[other].append(f"opponent: {step.opp}" if step.opp else "opponent moved")
        self.mover = other

    def _computer_turns(self) -> None:
        while not self.over and self.mover != self.human:
            probabilities = self.game.behaviours[self.mover][self._infoset(self.mover)]
            weights = [float(p) for p in probabilities]
            choice = self.rng.choices(range(len(weights)), weights=weights)[0]
            self._do(choice)

    def act(self, action: int | str) -> None:
        """Play the human's action, given by its index or its label; then the computer's."""
        if self.over:
            raise InvalidPositionError("the game is over")
        info = self.game.tree.infosets[self._infoset(self.human)]
        labels = [str(a) for a in info.actions]
        if isinstance(action, str):
            if action.strip() not in labels:
                raise InvalidPositionError(
                    f"illegal action {action!r}: choose one of {', '.join(labels)}"
                )
            index = labels.index(action.strip())
        else:
            if not 0 <= action < len(labels):
                raise InvalidPositionError(
                    f"illegal action index {action}: choose 0..{len(labels) - 1}"
                )
            index = action
        self._do(index)
        self._computer_turns()

    def hint(self) -> dict[str, Any]:
        """The equilibrium's probabilities for the human's actions at this information set."""
        if self.over:
            raise InvalidPositionError("the game is over")
        index = self._infoset(self.human)
        info = self.game.tree.infosets[index]
        probabilities = self.game.behaviours[self.human][index]
        return {
            "actions": [
                {"label": str(a), "probability": exact_str(p)}
                for a, p in zip(info.actions, probabilities, strict=True)
            ],
            "game_value_for_you": exact_str(
                self.game.value if self.human == 0 else -self.game.value
            ),
        }

    def view(self) -> dict[str, Any]:
        """What the human may see: their knowledge, their actions, their own history; the true
        heaps and the full record only once the game is over."""
        from nimlab.extensive.strategy import knowledge

        payload: dict[str, Any] = {
            "variant": self.variant,
            "name": VARIANT_NAMES[self.variant],
            "start": list(self.start_position),
            "misere": self.misere,
            "you": _PLAYERS[self.human],
            "value_for_L": exact_str(self.game.value),
            "exact": self.game.exact,
            "seen": list(self.events[self.human]),
            "over": self.over,
            "winner": None,
            "knowledge": None,
            "actions": [],
        }
        if self.over:
            payload["winner"] = "you" if self.winner == self.human else "computer"
            payload["final"] = list(self.state)
            payload["history"] = list(self.record)
            return payload
        info = self.game.tree.infosets[self._infoset(self.human)]
        payload["knowledge"] = knowledge(info.belief)
        payload["actions"] = [{"index": i, "label": str(a)} for i, a in enumerate(info.actions)]
        return payload


class MatchStore:
    """The games in progress, by random token; the oldest are dropped beyond ``capacity``
    matches, or beyond ``games`` distinct solved games (each holds its tree in memory; matches
    of the same game share it, see :meth:`game`).

    >>> store = MatchStore(capacity=1)
    >>> first = store.add(HiddenMatch.start("sn", (1, 1)))
    >>> second = store.add(HiddenMatch.start("sn", (1, 1)))
    >>> store.use(second, lambda match: match.variant)
    'sn'
    >>> store.use(first, lambda match: match.variant)
    Traceback (most recent call last):
      ...
    nimlab.errors.NoSuchPositionError: no game ... (finished long ago, or the server restarted)
    >>> store.game("sn", (1, 1), False) is store.use(second, lambda match: match.game)
    True
    """

    def __init__(self, capacity: int = 256, games: int = 4) -> None:
        self.capacity = capacity
        self.games = games
        self._matches: OrderedDict[str, HiddenMatch] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, match: HiddenMatch) -> str:
        """Keep ``match``; return its token."""
        token = secrets.token_urlsafe(12)
        with self._lock:
            self._matches[token] = match
            while len(self._matches) > self.capacity or self._distinct_games() > self.games:
                self._matches.popitem(last=False)
        return token

    def _distinct_games(self) -> int:
        return len({id(match.game) for match in self._matches.values()})

    def game(self, variant: str, position: tuple[int, ...], misere: bool) -> Solved | None:
        """The solved game of a match in progress from the same start, if any (to share it)."""
        key = (variant, position, misere)
        with self._lock:
            for match in self._matches.values():
                if (match.variant, match.start_position, match.misere) == key:
                    return match.game
        return None

    def use(self, token: str, job: Callable[[HiddenMatch], Any]) -> Any:
        """Run ``job`` on the match of ``token``, one job at a time."""
        with self._lock:
            match = self._matches.get(token)
            if match is None:
                raise NoSuchPositionError(
                    f"no game {token[:24]!r} (finished long ago, or the server restarted)"
                )
            self._matches.move_to_end(token)
            return job(match)
