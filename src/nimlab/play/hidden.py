"""Hidden-information games against the equilibrium: any variant (Schrödinger, Fuzzy,
Kriegspiel, Kriegspiel-empty) of Nim or of a catalogue game with components.

The game tree is unrolled without reductions (every decision is played out), with its nodes
recorded, and solved exactly. A match stands on one node of that tree
(:class:`~nimlab.equilibrium.cursor.Cursor`) and moves along its edges: the computer samples each
of its actions from its equilibrium behaviour strategy at its information set, and what each
player has seen is the tree's own record of the histories, so no rule is applied beside the
tree. The player sees only what the rules tell them; the true state and the full record are
revealed when the game ends. Shared by the web playground and ``nimlab play``.

Components are numbered from 1 in everything shown to people (``look 2``, ``1_3``).

>>> match = HiddenMatch.start("sn", (2, 1), human_first=True, seed=0)
>>> match.view()["knowledge"], [a["label"] for a in match.view()["actions"]]
('[2, 1]', ['1_1', '1_2', '2_1'])
>>> match.act(1)  # take 2 from heap 1: the computer must take the last chip... and wins
>>> match.over, match.view()["winner"]
(True, 'computer')
>>> kayles = HiddenMatch.start("kn", "3", game="kayles", seed=1)
>>> kayles.view()["knowledge"], kayles.view()["name"]
('[3]', 'Kriegspiel kayles')
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from nimlab.budget import Budget, Cost, check_cost
from nimlab.catalogue.base import GameOptions
from nimlab.equilibrium.cursor import Cursor
from nimlab.errors import (
    InvalidPositionError,
    NoSuchPositionError,
    PlaygroundFullError,
    TooLargeError,
)
from nimlab.exact import exact_str
from nimlab.hidden.components import ComponentType, HeapComponent
from nimlab.hidden.games import HiddenGame, estimate_hidden, hidden_game
from nimlab.hidden.transforms import Action, Look, Request
from nimlab.hidden.variants import VARIANTS

__all__ = [
    "HIDDEN_EXAMPLES",
    "HIDDEN_MAX_NODES",
    "PLAY_COST_FACTOR",
    "VARIANT_NAMES",
    "HiddenMatch",
    "MatchStore",
    "Solved",
    "hidden_variants",
    "knowledge",
    "match_spec",
    "playable",
    "possible_states",
    "solved",
]

#: Largest game tree (nodes) played in the playground.
HIDDEN_MAX_NODES = 300_000
#: How much more the playground's solve may cost than the solver's estimate: it builds the
#: whole tree with every node recorded and no reductions. Measured (BENCHMARKS.md): sn(5,5,1)
#: 13.1 s against 5.5 s estimated, kn(3,2,1) 1.2 s against 0.87 s, kn[kayles](3,2) 8.0 s
#: against 8.2 s; the largest ratio, rounded up.
PLAY_COST_FACTOR = 3
#: The variants and their full names (from the registry of nimlab.hidden.variants).
VARIANT_NAMES = {name: entry.title for name, entry in VARIANTS.items()}

#: A small starting position of each game with components (quick to solve in every variant).
HIDDEN_EXAMPLES = {
    "nim": "3,2,1",
    "nimble": "2,1",
    "subtraction": "3,2",
    "octal": "3,2",
    "kayles": "3,1",
    "dawson-kayles": "4,3",
    "grundy-game": "5,2",
    "nim2d": "1:1,2:0",
    "red-blue-hackenbush": "BR,RB",
    "domineering": ".../...",
    "hackenbush": "g-a:B,a-b:G,g-c:R",
}

_PLAYERS = ("L", "R")
Position = str | list[int] | tuple[int, ...]


@dataclass(frozen=True)
class Solved:
    """A solved game: its rules on a component type, the recorded tree (at its root), both
    behaviour strategies and the value for L (who moves first)."""

    hidden: HiddenGame
    root: Cursor
    behaviours: tuple[list[tuple[Fraction, ...]], list[tuple[Fraction, ...]]]
    value: Fraction
    exact: bool

    def __repr__(self) -> str:
        spec = self.hidden.spec(self.root.state, self.root.tree.misere)
        return f"<Solved {spec}: value {self.value}, {self.root.tree.nodes:,} nodes>"

    @property
    def component(self) -> ComponentType[Any]:
        """The type of the game's components (how their states are written)."""
        return self.hidden.component

    @property
    def name(self) -> str:
        """``Schrödinger Nim``, ``Kriegspiel kayles``: the variant's title, with the game."""
        title = VARIANT_NAMES[self.hidden.variant]
        return title if self.hidden.game == "nim" else title.replace("Nim", self.hidden.game)


def _setup(variant: str, game: str | None, options: GameOptions | None) -> HiddenGame:
    return hidden_game(variant, game or "nim", options)


@lru_cache(maxsize=16)
def solved(
    variant: str,
    position: str,
    misere: bool,
    game: str | None = None,
    options: GameOptions | None = None,
) -> Solved:
    """Build (without reductions, nodes recorded) and solve a game; cached. ``position`` is in
    the game's notation (heaps ``2,1`` for Nim)."""
    from nimlab.hidden.solve import solve_tree
    from nimlab.hidden.tree import build_tree

    hidden = _setup(variant, game, options)
    states = hidden.parse(position)
    try:
        tree = build_tree(
            hidden.rules,
            states,
            misere=misere,
            max_nodes=HIDDEN_MAX_NODES,
            record_nodes=True,
            prune_forced=False,
            known_wins=False,
            check_estimate=False,
        )
    except TooLargeError as error:
        raise _too_large(hidden, states, misere, f"more than {HIDDEN_MAX_NODES:,}") from error
    result = solve_tree(tree)
    return Solved(hidden, Cursor.root(tree), result.behaviours, result.value, result.exact)


def _too_large(hidden: HiddenGame, states: tuple[Any, ...], misere: bool, size: str) -> Exception:
    return TooLargeError(
        f"{hidden.spec(states, misere)} is too large to play here: its game tree has {size}"
        " nodes; try fewer or smaller components",
        limit=HIDDEN_MAX_NODES,
    )


def playable(
    variant: str,
    position: Position,
    misere: bool = False,
    *,
    game: str | None = None,
    options: GameOptions | None = None,
    budget: Budget | None = None,
) -> Solved:
    """The solved game of a match from ``position``, if it is small enough to play here
    (estimated first, in well under a second: :func:`~nimlab.hidden.games.estimate_hidden`)
    and, with ``budget``, if its estimated cost is within it (the server's job budget: a game
    it could not finish is refused before any work, not stopped after it).

    >>> playable("sn", (2, 1)).value
    Fraction(1, 1)
    >>> playable("sn", (6, 6, 6, 6))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: sn[nim](6,6,6,6) is too large to play here: its game tree has ...
    """
    hidden = _setup(variant, game, options)
    states = hidden.parse(position)
    if hidden.rules.over(states, 0):
        text = hidden.component.format_position(states)
        raise InvalidPositionError(f"{hidden.game} position {text!r}: the first player has no move")
    estimate = estimate_hidden(hidden, states, misere=misere)
    nodes = estimate.nodes
    if nodes > HIDDEN_MAX_NODES:
        raise _too_large(hidden, states, misere, f"about {nodes:,}, over {HIDDEN_MAX_NODES:,},")
    if budget is not None:
        cost = Cost(estimate.cost.seconds * PLAY_COST_FACTOR, estimate.cost.bytes)
        what = f"playing {hidden.spec(states, misere)}"
        check_cost(what, cost, budget, "the server's budgets (nimlab serve --job-seconds)")
    text = hidden.component.format_position(states)
    return solved(variant, text, misere, game, options)


def hidden_variants(game: str, options: GameOptions | None = None) -> list[str]:
    """The variants that can be played on catalogue game ``game`` with ``options``.

    >>> hidden_variants("kayles"), hidden_variants("red-blue-hackenbush")  # kn-empty: heaps only
    (['sn', 'fsn', 'kn'], ['sn', 'fsn', 'kn'])
    >>> hidden_variants("wythoff")
    []
    """
    found = []
    for name in VARIANT_NAMES:
        try:
            hidden_game(name, game, options)
        except InvalidPositionError:
            continue
        found.append(name)
    return found


def knowledge(belief: frozenset[tuple[Any, ...]], component: ComponentType[Any]) -> str:
    """What a player knows, component by component: a state, ``≤h`` for heaps of any height
    from 0 or 1 up to ``h``, or the possible states in braces.

    >>> from nimlab.hidden.components import NimHeap, components_for
    >>> knowledge(frozenset({(3, 1, 2), (3, 0, 3), (3, 1, 3)}), NimHeap())
    '[3, ≤1, {2,3}]'
    >>> knowledge(frozenset({("BR",), ("B",)}), components_for("red-blue-hackenbush"))
    '[{B,BR}]'
    >>> graph = components_for("hackenbush")
    >>> knowledge(frozenset({(graph.parse("x,g-b:R"),), (graph.parse("g-a:B,x"),)}), graph)
    '[{g-a:B | x,g-b:R}]'
    """
    return "[" + ", ".join(_known(part, component) for part in possible_states(belief)) + "]"


def possible_states(belief: frozenset[tuple[Any, ...]]) -> list[list[Any]]:
    """Per component, its possible states in order.

    >>> possible_states(frozenset({(3, 1), (3, 0)}))
    [[3], [0, 1]]
    """
    return [sorted({state[k] for state in belief}) for k in range(len(next(iter(belief))))]


def action_words(action: Action, component: ComponentType[Any]) -> str:
    """An action in the game's own terms, components numbered from 1 (never the tree's codes).

    >>> from nimlab.hidden.components import NimHeap
    >>> from nimlab.hidden.transforms import Move
    >>> action_words(Look(1), NimHeap()), action_words(Request(0, (2,), "1_2"), NimHeap())
    ('look at heap 2', 'ask the umpire for heap 1: remove 2')
    >>> action_words(Move(1, (1,), "2_1"), NimHeap())
    'heap 2: remove 1'
    """
    where = f"{component.unit} {action.component + 1}"
    if isinstance(action, Look):
        return f"look at {where}"
    move = f"{where}: {component.label_text(action.label)}"
    return f"ask the umpire for {move}" if isinstance(action, Request) else move


def told_words(told: str) -> str:
    """What a player is told of the opponent's completed move, in words.

    >>> told_words("heap 2 emptied"), told_words("heap 1"), told_words("")
    ('the computer moved in heap 2 and emptied it', 'the computer moved in heap 1', \
'the computer moved (you are not told where)')
    """
    if not told:
        return "the computer moved (you are not told where)"
    if told.endswith(" emptied"):
        return f"the computer moved in {told.removesuffix(' emptied')} and emptied it"
    return f"the computer moved in {told}"


def chance_words(value_for_you: Fraction) -> str:
    """The equilibrium value for a player (+1 a sure win, -1 a sure loss) in words.

    >>> chance_words(Fraction(1, 3))
    'your expected result +1/3: you win with probability 2/3 against best play'
    """
    sign = "+" if value_for_you > 0 else ""
    chance = (1 + value_for_you) / 2
    return (
        f"your expected result {sign}{exact_str(value_for_you)}: you win with probability"
        f" {exact_str(chance)} against best play"
    )


def _known(states: list[Any], component: ComponentType[Any]) -> str:
    if len(states) == 1:
        return component.format(states[0])
    if isinstance(component, HeapComponent) and states == list(range(states[0], states[-1] + 1)):
        return f"≤{states[-1]}" if states[0] <= 1 else "{" + ",".join(map(str, states)) + "}"
    texts = [component.format(state) for state in states]
    return "{" + (" | " if any("," in text for text in texts) else ",").join(texts) + "}"


@dataclass
class HiddenMatch:
    """One game: where it stands in the solved tree, who the human is, and the random source of
    the computer's choices."""

    game: Solved
    misere: bool
    human: int
    rng: random.Random
    at: Cursor = field(init=False)

    def __post_init__(self) -> None:
        self.at = self.game.root

    @classmethod
    def start(
        cls,
        variant: str,
        position: Position,
        *,
        game: str | None = None,
        options: GameOptions | None = None,
        misere: bool = False,
        human_first: bool = True,
        seed: int | None = None,
        solved_game: Solved | None = None,
    ) -> HiddenMatch:
        """A new game (the computer moves at once if it starts); ``solved_game``: the game of
        :func:`playable`, if it was solved elsewhere."""
        if solved_game is None:
            solved_game = playable(variant, position, misere, game=game, options=options)
        match = cls(solved_game, misere, 0 if human_first else 1, random.Random(seed))
        match._computer_turns()
        return match

    @property
    def variant(self) -> str:
        """The variant's name (``sn``, ...)."""
        return self.game.hidden.variant

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.at.terminal

    def _format(self, state: tuple[Any, ...]) -> list[Any]:
        component = self.game.component
        if isinstance(component, HeapComponent):
            return list(state)
        return [component.format(part) for part in state]

    def _computer_turns(self) -> None:
        while not self.over and self.at.player != self.human:
            probabilities = self.game.behaviours[self.at.player][self.at.infoset_index]
            weights = [float(p) for p in probabilities]
            self.at = self.at.child(self.rng.choices(range(len(weights)), weights=weights)[0])

    def act(self, action: int | str) -> None:
        """Play the human's action, given by its index or its label; then the computer's."""
        if self.over:
            raise InvalidPositionError("the game is over")
        labels = [str(a) for a in self.at.actions]
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
        self.at = self.at.child(index)
        self._computer_turns()

    def hint(self) -> dict[str, Any]:
        """The equilibrium's probabilities for the human's actions at this information set."""
        if self.over:
            raise InvalidPositionError("the game is over")
        probabilities = self.game.behaviours[self.human][self.at.infoset_index]
        component = self.game.component
        return {
            "actions": [
                {
                    "label": str(a),
                    "words": action_words(a, component),
                    "probability": exact_str(p),
                }
                for a, p in zip(self.at.actions, probabilities, strict=True)
            ],
            "game_value_for_you": exact_str(
                self.game.value if self.human == 0 else -self.game.value
            ),
        }

    def _record(self) -> list[dict[str, Any]]:
        """The moves, each with the true state before and after it and what each player knew
        before it (:meth:`Cursor.knowledge`)."""
        component = self.game.component
        record = []
        at = self.at
        while (before := at.parent) is not None:
            move = at.last_move
            record.append(
                {
                    "player": "you" if move.player == self.human else "computer",
                    "mover_words": "you" if move.player == self.human else "the computer",
                    "action": str(move.action),
                    "words": action_words(move.action, component),
                    "saw": move.seen,
                    "told_opponent": move.told or "",
                    "before": self._format(move.before),
                    "after": self._format(move.after),
                    "you_knew": knowledge(before.knowledge(self.human), component),
                    "computer_knew": knowledge(before.knowledge(1 - self.human), component),
                }
            )
            at = before
        return record[::-1]

    def view(self) -> dict[str, Any]:
        """What the human may see: their knowledge, their actions, their own history; the true
        state and the full record only once the game is over.

        Each action says its ``component`` (0-based), ``kind`` (``look``, ``move`` or
        ``request``, a Kriegspiel move asked of the umpire) and what it ``says`` in words;
        ``components`` give, for each, its ``name`` (from 1), what is ``known`` (``3``,
        ``≤2``, ``{2,3}``), the ``possible`` states and, for heaps, their ``heights``.

        >>> match = HiddenMatch.start("kn", (2, 1), seed=1)
        >>> view = match.view()
        >>> view["components"][0]  # doctest: +NORMALIZE_WHITESPACE
        {'name': 'heap 1', 'unit': 'heap', 'known': '2', 'possible': [2], 'heights': [2],
         'drawable': None}
        >>> view["actions"][1]["words"], view["you_words"], view["chance_words"]
        ('ask the umpire for heap 1: remove 2', 'you move first', 'your expected result +1: \
you win with probability 1 against best play')
        """
        hidden = self.game.hidden
        root_state = self.game.root.state
        payload: dict[str, Any] = {
            "variant": hidden.variant,
            "game": hidden.game,
            "options": hidden.options,
            "name": self.game.name,
            "position": hidden.component.format_position(root_state),
            "start": self._format(root_state),
            "misere": self.misere,
            "you": _PLAYERS[self.human],
            "you_words": "you move first" if self.human == 0 else "the computer moves first",
            "value_for_L": exact_str(self.game.value),
            "expected_for_you": exact_str(self._value_for_you),
            "win_chance": exact_str((1 + self._value_for_you) / 2),
            "chance_words": chance_words(self._value_for_you),
            "rules": self.rules,
            "exact": self.game.exact,
            "seen": list(self.at.events(self.human)),
            "seen_words": self._seen_words(),
            "over": self.over,
            "winner": None,
            "knowledge": None,
            "possible": None,
            "actions": [],
        }
        if self.over:
            won = 0 if self.at.payoff > 0 else 1
            payload["winner"] = "you" if won == self.human else "computer"
            payload["final"] = self._format(self.at.state)
            payload["history"] = self._record()
            return payload
        belief = self.at.knowledge(self.human)
        component = hidden.component
        possible = possible_states(belief)
        payload["knowledge"] = knowledge(belief, component)
        payload["possible"] = [self._format(tuple(part)) for part in possible]
        payload["actions"] = [
            {
                "index": i,
                "label": str(a),
                "component": a.component,
                "kind": type(a).__name__.lower(),
                "says": "look" if isinstance(a, Look) else component.label_text(a.label),
                "words": action_words(a, component),
            }
            for i, a in enumerate(self.at.actions)
        ]
        payload["components"] = [
            {
                "name": f"{component.unit} {k + 1}",
                "unit": component.unit,
                "known": _known(states, component),
                "possible": self._format(tuple(states)),
                "heights": states if isinstance(component, HeapComponent) else None,
                "drawable": None
                if isinstance(component, HeapComponent)
                else [component.format(state) for state in states],
            }
            for k, states in enumerate(possible)
        ]
        return payload

    @property
    def _value_for_you(self) -> Fraction:
        return self.game.value if self.human == 0 else -self.game.value

    @property
    def rules(self) -> str:
        """The variant's rules in the game's own terms (its components by their name).

        >>> HiddenMatch.start("kn", "BR", game="red-blue-hackenbush", seed=0).rules
        'Kriegspiel red-blue-hackenbush: ask the umpire for a move; an impossible one is \
refused; the opponent only learns that a move was made'
        """
        summary = VARIANTS[self.variant].summary.replace("component", self.game.component.unit)
        return f"{self.game.name}: {summary}"

    def _seen_words(self) -> list[str]:
        """What the human has seen so far, in words: their own actions with what each showed
        them, and what they were told of the computer's moves."""
        component = self.game.component
        moves = []
        at = self.at
        while at.parent is not None:
            moves.append(at.last_move)
            at = at.parent
        said = []
        for move in reversed(moves):
            if move.player == self.human:
                words = f"you: {action_words(move.action, component)}"
                if move.seen == "refused":
                    words += " (refused: not possible)"
                elif move.seen:
                    words += f" (it holds {move.seen})"
                said.append(words)
            elif move.told is not None:
                said.append(told_words(move.told))
        return said


class MatchStore:
    """The games in progress, by random token: at most ``capacity`` matches and ``games``
    distinct solved games (each holds its tree in memory; matches of the same game share it,
    see :meth:`game`).

    Matches are kept fairly: a new game makes room only by dropping finished matches, then
    matches nobody has touched for ``idle_seconds``, least recently used first. A game in
    progress is never dropped for someone else's new game; when no room can be made, the new
    game is refused with :class:`~nimlab.errors.PlaygroundFullError` (HTTP 429, Too Many Requests).

    >>> store = MatchStore(capacity=1)
    >>> first = store.add(HiddenMatch.start("sn", (1, 1)))
    >>> store.add(HiddenMatch.start("sn", (1, 1)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.PlaygroundFullError: the playground is full: 1 game in progress ...
    >>> store.use(first, lambda match: match.variant)
    'sn'
    >>> patient = MatchStore(capacity=1, idle_seconds=0)  # every match counts as idle at once
    >>> old = patient.add(HiddenMatch.start("sn", (1, 1)))
    >>> new = patient.add(HiddenMatch.start("sn", (1, 1)))
    >>> patient.use(old, lambda match: match.variant)
    Traceback (most recent call last):
      ...
    nimlab.errors.NoSuchPositionError: no game ... (finished long ago, or the server restarted)
    >>> patient.game("sn[nim](1,1)") is patient.use(new, lambda match: match.game)
    True
    """

    def __init__(self, capacity: int = 256, games: int = 4, idle_seconds: float = 1800) -> None:
        self.capacity = capacity
        self.games = games
        self.idle_seconds = idle_seconds
        self._matches: OrderedDict[str, HiddenMatch] = OrderedDict()
        self._used: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, match: HiddenMatch) -> str:
        """Keep ``match`` and return its token, making room as the class says (or refusing
        with :class:`~nimlab.errors.PlaygroundFullError`)."""
        token = secrets.token_urlsafe(12)
        with self._lock:
            self._matches[token] = match
            self._used[token] = time.monotonic()
            while len(self._matches) > self.capacity or self._distinct_games() > self.games:
                victim = self._droppable(token)
                if victim is None:
                    self._drop(token)
                    busy = sum(not m.over for m in self._matches.values())
                    raise PlaygroundFullError(
                        f"the playground is full: {busy} game{'s' * (busy != 1)} in progress"
                        f" (it keeps {self.capacity} games of at most {self.games} different"
                        " positions); try again in a few minutes"
                    )
                self._drop(victim)
        return token

    def _droppable(self, keep: str) -> str | None:
        """A finished match, else the least recently used idle one (never ``keep``)."""
        others = [token for token in self._matches if token != keep]
        finished = [token for token in others if self._matches[token].over]
        if finished:
            return finished[0]
        now = time.monotonic()
        idle = [token for token in others if now - self._used[token] >= self.idle_seconds]
        return idle[0] if idle else None

    def _drop(self, token: str) -> None:
        del self._matches[token]
        del self._used[token]

    def _distinct_games(self) -> int:
        return len({id(match.game) for match in self._matches.values()})

    def game(self, spec: str) -> Solved | None:
        """The solved game of a match in progress of the same game (its
        :meth:`~nimlab.hidden.games.HiddenGame.spec`), if any, to share it."""
        with self._lock:
            for match in self._matches.values():
                if _spec(match.game, match.misere) == spec:
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
            self._used[token] = time.monotonic()
            return job(match)


def _spec(game: Solved, misere: bool) -> str:
    return game.hidden.spec(game.root.state, misere)


def match_spec(
    variant: str,
    position: Position,
    misere: bool = False,
    *,
    game: str | None = None,
    options: GameOptions | None = None,
) -> str:
    """The spec that names a match's game in a :class:`MatchStore` (checked as it is parsed).

    >>> match_spec("kn", "1,2", game="subtraction", options=GameOptions(max_take=2))
    'kn[subtraction(max=2)](1,2)'
    """
    hidden = _setup(variant, game, options)
    return hidden.spec(hidden.parse(position), misere)
