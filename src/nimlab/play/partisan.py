"""Playing partizan games against the computer by their exact values: red-blue Hackenbush
stalks, Domineering boards and Hackenbush on any graph.

Left (Blue; in Domineering the vertical player) plays against Right (Red; horizontal). A
position has an exact value: a number for stalks (:func:`~nimlab.catalogue.red_blue_hackenbush.
stalk_value` summed), a canonical form (:class:`nimlab.cgt.Game`) for the others. After a move,
the opponent moves next, so Left's move to ``G'`` wins iff ``G' >= 0`` (Right, moving first in
``G'``, loses: its outcome is L or P) and Right's iff ``G' <= 0`` (outcome R or P).

The computer plays a winning move when there is one. Its order of preference (ties broken at
random) is: winning first; then the best stop for the mover of the position left with the
opponent to move (Left: the largest right stop; Right: the smallest left stop); then the best
mean. For numbers (stalks) this is the largest value left for Blue and the smallest for Red.

>>> state = open_partisan("red-blue-hackenbush", "BBRB,RRB", "B")
>>> state.value, [(o.to, o.value, o.winning) for o in state.options()][:2]
(Fraction(1, 4), [('RRB', Fraction(-3, 2), False), ('B,RRB', Fraction(-1, 2), False)])
>>> move, after = state.computer_move(random.Random(0))
>>> move.label, move.value, after.text, after.player
('cut stalk 1 at edge 4', Fraction(0, 1), 'BBR,RRB', 'R')
>>> open_partisan("red-blue-hackenbush", "B", "R").over
True
>>> board = open_partisan("domineering", ".../...", "L")
>>> str(board.value), [(o.typed, str(o.value), o.winning) for o in board.options()]
('{2|-1/2}', [('1 1', '±1', False), ('1 2', '2', True), ('1 3', '±1', False)])
>>> print(board.feedback(board.parse_move("1 2"))["text"])
Good placement: it leaves 2, so Left wins, whoever moves next.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from nimlab.catalogue import CatalogueGame, GameOptions, make_game
from nimlab.catalogue.partizan import DomineeringEntry, HackenbushEntry
from nimlab.catalogue.red_blue_hackenbush import RedBlueHackenbushEntry, options
from nimlab.cgt.game import Game
from nimlab.cgt.rulesets import domineering as dom
from nimlab.cgt.rulesets import hackenbush as hb
from nimlab.core.heaps import heap_name, typed_index
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.exact import exact_str
from nimlab.play.impartial import PLAY_LIMIT, PLAY_MAX_CHARS, check_play_text, render_text

__all__ = [
    "PARTISAN_GAMES",
    "PARTIZAN_PLAY_LIMIT",
    "PartisanOption",
    "PartisanState",
    "Value",
    "leaves_words",
    "open_partisan",
    "outcome_of",
    "value_str",
    "wins_for",
]

#: The partisan games the playground plays (by exact value).
PARTISAN_GAMES = frozenset(
    {RedBlueHackenbushEntry.name, DomineeringEntry.name, HackenbushEntry.name}
)
#: The budget (``--limit`` steps, about a microsecond each) of the value of one position in
#: play: a Domineering board of up to about 22 empty cells (4x5 and 5x5 with three cells
#: blocked; the empty 5x5 board, about 13 s, is refused), a Hackenbush tree of dozens of edges
#: or a graph with cycles of about 12 mixed edges.
PARTIZAN_PLAY_LIMIT = 3_000_000
#: The most edges of a Hackenbush graph and cells of a Domineering board played at all.
MAX_EDGES = 40
MAX_CELLS = 64

Value = Fraction | Game
_LEFT, _RIGHT = "L", "R"
_CUT = re.compile(r"\s*([0-9]{1,4})\s+([0-9]{1,4})\s*")
_EDGE = re.compile(r"\s*(?:edge\s+)?([0-9]{1,4})\s*", re.IGNORECASE)


@dataclass(frozen=True)
class _Words:
    """How a game names its players and moves."""

    letters: dict[str, str]  # side (L/R) -> the letter of the JSON's ``player``
    names: dict[str, str]  # side -> the player's name
    sides: dict[str, str]  # side -> the name with its side, e.g. "Blue (Left)"
    noun: str  # "cut" or "placement"
    rule: dict[str, str]  # side -> what that player may do


_HACKENBUSH_WORDS = _Words(
    {_LEFT: "B", _RIGHT: "R"},
    {_LEFT: "Blue", _RIGHT: "Red"},
    {_LEFT: "Blue (Left)", _RIGHT: "Red (Right)"},
    "cut",
    {_LEFT: "Blue cuts a blue edge", _RIGHT: "Red cuts a red edge"},
)
_GRAPH_WORDS = replace(
    _HACKENBUSH_WORDS,
    letters={_LEFT: "L", _RIGHT: "R"},
    rule={_LEFT: "Blue cuts a blue or green edge", _RIGHT: "Red cuts a red or green edge"},
)
_DOMINEERING_WORDS = _Words(
    {_LEFT: "L", _RIGHT: "R"},
    {_LEFT: "Left", _RIGHT: "Right"},
    {_LEFT: "Left", _RIGHT: "Right"},
    "placement",
    {
        _LEFT: "Left places a vertical domino on two empty cells",
        _RIGHT: "Right places a horizontal domino on two empty cells",
    },
)


def _words(game: CatalogueGame[Any]) -> _Words:
    if isinstance(game, DomineeringEntry):
        return _DOMINEERING_WORDS
    if isinstance(game, HackenbushEntry):
        return _GRAPH_WORDS
    return _HACKENBUSH_WORDS


def value_str(value: Value) -> str:
    """A value in the notation of :mod:`nimlab.cgt` (``1/2``, ``±1``, ``^*``)."""
    return exact_str(value) if isinstance(value, Fraction) else str(value)


def outcome_of(value: Value) -> str:
    """``L``, ``R``, ``N`` or ``P`` of a value."""
    if isinstance(value, Fraction):
        return "L" if value > 0 else "R" if value < 0 else "P"
    return value.outcome


def _stops(value: Value) -> tuple[Fraction, Fraction, Fraction]:
    """Left stop, right stop, mean."""
    if isinstance(value, Fraction):
        return value, value, value
    return value.left_stop, value.right_stop, value.mean


def wins_for(value: Value, side: str) -> bool:
    """Whether a move of ``side`` (``L``/``R``) to a position of ``value`` wins: Left's iff
    ``value >= 0``, Right's iff ``value <= 0``."""
    return outcome_of(value) in ("P", side)


def leaves_words(value: Value, words: _Words = _HACKENBUSH_WORDS) -> str:
    """A partizan move's result in Left/Right terms (never P/N): who wins the position the
    move leaves, whoever moves next.

    >>> leaves_words(Fraction(-1, 2)), leaves_words(Fraction(0))
    ('leaves -1/2: Red (Right) wins', 'leaves 0: the next player to move loses')
    """
    outcome = outcome_of(value)
    text = value_str(value)
    if outcome in (_LEFT, _RIGHT):
        return f"leaves {text}: {words.sides[outcome]} wins"
    if outcome == "P":
        return f"leaves {text}: the next player to move loses"
    return f"leaves {text}: whoever moves next wins"


@dataclass(frozen=True)
class PartisanOption:
    """One move of the player to move: the position after it, its value, whether it wins,
    and how it is typed (``1 2``, ``edge 3``)."""

    to: str
    label: str
    value: Value
    winning: bool
    typed: str = ""
    words: _Words = _HACKENBUSH_WORDS

    def to_json(self, *, evaluate: bool) -> dict[str, Any]:
        """``to`` and ``label`` (and ``typed`` for boards and graphs); with ``evaluate``, the
        exact ``value``, ``winning`` and ``outcome`` (P: the next player to move loses)."""
        payload: dict[str, Any] = {"to": self.to, "label": self.label}
        if self.typed:
            payload["typed"] = self.typed
        if evaluate:
            payload.update(
                value=value_str(self.value),
                winning=self.winning,
                outcome="P" if self.winning else "N",
                verdict=leaves_words(self.value, self.words),
            )
        return payload


@dataclass(frozen=True)
class PartisanState:
    """A partizan position with the player to move (``player``: ``B``/``R`` for stalks and
    ``L``/``R`` for boards and graphs; ``side`` is always ``L`` or ``R``)."""

    game: CatalogueGame[Any]
    position: Any
    side: str

    @property
    def words(self) -> _Words:
        """The game's names of players and moves."""
        return _words(self.game)

    @property
    def player(self) -> str:
        """The letter of the player to move in the game's notation."""
        return self.words.letters[self.side]

    @property
    def text(self) -> str:
        """The position in the game's notation."""
        return str(self.game.format_position(self.position))

    @property
    def value(self) -> Value:
        """The exact value (positive: Left wins whoever starts)."""
        return _value(self.game, self.position)

    def _moves(self) -> Iterator[tuple[Any, str, str]]:
        """``(position after, label, typed move)`` of each move of the player to move."""
        if isinstance(self.game, RedBlueHackenbushEntry):
            for after, label in options(self.position, self.player):
                yield after, label, ""
        elif isinstance(self.game, DomineeringEntry):
            w = self.position.width
            kind = "vertical" if self.side == _LEFT else "horizontal"
            for after, (a, b) in self.position.moves(self.side):
                first = f"row {a // w + 1} col {a % w + 1}"
                second = f"row {b // w + 1} col {b % w + 1}"
                yield after, f"{kind} domino on {first} and {second}", first[4:].replace(" col", "")
        else:
            for graph, i in hb.moves(self.position, self.side):
                u, v, c = self.position[i]
                yield graph, f"cut edge {i + 1} ({u}-{v}:{c})", f"edge {i + 1}"

    @property
    def over(self) -> bool:
        """Whether the player to move has no move left (and so loses)."""
        return next(self._moves(), None) is None

    def options(self) -> list[PartisanOption]:
        """Every move of the player to move, with the value it leaves and whether it wins
        (one per position left)."""
        found: dict[str, PartisanOption] = {}
        for after, label, typed in self._moves():
            text = str(self.game.format_position(after))
            if text not in found:
                value = _value(self.game, after)
                found[text] = PartisanOption(
                    text, label, value, wins_for(value, self.side), typed, self.words
                )
        return list(found.values())

    def _other(self) -> str:
        return _RIGHT if self.side == _LEFT else _LEFT

    def after(self, text: str) -> PartisanState:
        """The state after the player to move leaves ``text`` (checked against their moves)."""
        _check_text(self.game, text)
        wanted = str(self.game.format_position(self.game.parse_position(text)))
        if wanted not in {str(self.game.format_position(q)) for q, _, _ in self._moves()}:
            name = self.words.names[self.side]
            raise InvalidPositionError(
                f"{text.strip()!r} is not a legal move of {name} from {self.text}"
                f" ({self.words.rule[self.side]})"
            )
        return replace(self, position=self.game.parse_position(wanted), side=self._other())

    def parse_move(self, text: str) -> PartisanState:
        """The state after a typed move, or the position after the move. Stalks: ``stalk
        edge`` (both from 1, edges from the ground); Domineering: ``row col`` of the domino's
        top (Left) or left (Right) cell, from 1; Hackenbush: ``edge k`` (from 1).

        >>> state = open_partisan("red-blue-hackenbush", "BBRB,RRB", "R")
        >>> state.parse_move("1 3").text, state.parse_move("BBRB,R").text
        ('BB,RRB', 'BBRB,R')
        >>> open_partisan("domineering", "..#/...", "R").parse_move("2 2").text
        '..#/.##'
        >>> open_partisan("hackenbush", "g-a:B,a-b:R", "L").parse_move("edge 1").text
        ''
        """
        if isinstance(self.game, DomineeringEntry):
            return self._parse_placement(text)
        if isinstance(self.game, HackenbushEntry):
            return self._parse_edge(text)
        match = _CUT.fullmatch(text)
        if match is None:
            return self.after(text)
        index = typed_index(int(match[1]), len(self.position), text, "stalk")
        stalk, edge = heap_name(index, "stalk"), int(match[2])
        if not 1 <= edge <= len(self.position[index]):
            raise InvalidPositionError(
                f"illegal move {text.strip()!r}: there is no edge {edge} on {stalk}"
                " (edges are numbered 1.. from the ground)"
            )
        for after, label, _ in self._moves():
            if label == f"cut {stalk} at edge {edge}":
                return self.after(self.game.format_position(after))
        colour = self.words.names[self.side]
        raise InvalidPositionError(
            f"illegal move {text.strip()!r}: edge {edge} of {stalk} is not {colour.lower()}"
            f" ({colour} cuts {colour.lower()} edges)"
        )

    def _parse_placement(self, text: str) -> PartisanState:
        match = _CUT.fullmatch(text)
        if match is None:
            return self.after(text)
        board: dom.Board = self.position
        row, col = int(match[1]), int(match[2])
        down = self.side == _LEFT
        other = (row + 1, col) if down else (row, col + 1)
        if not (1 <= row <= board.height and 1 <= col <= board.width):
            raise InvalidPositionError(
                f"illegal move {text.strip()!r}: the board has rows 1..{board.height} and"
                f" columns 1..{board.width}"
            )
        for after, _, typed in self._moves():
            if typed == f"{row} {col}":
                return self.after(dom.format_board(after))
        raise InvalidPositionError(
            f"illegal move {text.strip()!r}: row {row} col {col} and row {other[0]} col"
            f" {other[1]} are not both empty cells of the board"
            f" ({self.words.rule[self.side]}; type the {'top' if down else 'left'} cell)"
        )

    def _parse_edge(self, text: str) -> PartisanState:
        match = _EDGE.fullmatch(text)
        if match is None:
            return self.after(text)
        edges: tuple[hb.ColouredEdge, ...] = self.position
        k = int(match[1])
        if not 1 <= k <= len(edges):
            raise InvalidPositionError(
                f"illegal move {text.strip()!r}: there is no edge {k}"
                f" (the graph has edges 1..{len(edges)})"
            )
        for after, _, typed in self._moves():
            if typed == f"edge {k}":
                return self.after(hb.format_graph(after))
        u, v, c = edges[k - 1]
        raise InvalidPositionError(
            f"illegal move {text.strip()!r}: edge {k} ({u}-{v}:{c}) is not"
            f" {self.words.names[self.side].lower()} or green ({self.words.rule[self.side]})"
        )

    def feedback(self, after: PartisanState) -> dict[str, str]:
        """Words on the move from this position to ``after``, in Left/Right terms: ``kind`` is
        ``kept`` (the move wins), ``gave-away`` (a winning move was there and this is not
        one) or ``lost-already`` (no move wins); ``text`` says why with the values.

        >>> state = open_partisan("red-blue-hackenbush", "BBRB,RRB", "B")
        >>> print(state.feedback(state.parse_move("1 1"))["text"])  # doctest: +NORMALIZE_WHITESPACE
        That cut leaves -3/2: Red (Right) can now win, whoever moves next. The best cut was cut
        stalk 1 at edge 4, leaving 0 (Red, who moves next, loses).
        >>> print(state.feedback(state.parse_move("1 4"))["text"])
        Good cut: it leaves 0, so Red, who moves next, loses.
        >>> board = open_partisan("domineering", ".../...", "L")
        >>> print(board.feedback(board.parse_move("1 1"))["text"])  # doctest: +NORMALIZE_WHITESPACE
        That placement leaves ±1: whoever moves next wins — Right, who moves next, can now win.
        The best placement was vertical domino on row 1 col 2 and row 2 col 2, leaving 2 (Left
        wins, whoever moves next).
        """
        words = self.words
        me, other = words.names[self.side], words.names[after.side]
        noun = words.noun
        left = after.value
        outcome = outcome_of(left)
        winning = [o for o in self.options() if o.winning]

        def why(value: Value) -> str:
            if outcome_of(value) == "P":
                return f"{other}, who moves next, loses"
            return f"{me} wins, whoever moves next"

        if wins_for(left, self.side):
            because = (
                why(left)
                if outcome == "P"
                else f"{words.sides[self.side]} wins, whoever moves next"
            )
            return {
                "kind": "kept",
                "text": f"Good {noun}: it leaves {value_str(left)}, so {because}.",
            }
        if outcome == "N":
            lost = f"whoever moves next wins — {other}, who moves next, can now win"
        else:
            lost = f"{words.sides[after.side]} can now win, whoever moves next"
        if not winning:
            return {
                "kind": "lost-already",
                "text": f"No {noun} wins for {me} from {self.text or '(nothing left)'} (value "
                f"{value_str(self.value)}): every {noun} leaves {other} a win. That {noun} "
                f"leaves {value_str(left)}: {lost}. Play on and wait for a mistake.",
            }
        best = _best(winning, self.side)
        return {
            "kind": "gave-away",
            "better": best.to,
            "text": f"That {noun} leaves {value_str(left)}: {lost}. The best {noun} was "
            f"{best.label}, leaving {value_str(best.value)} ({why(best.value)}).",
        }

    def computer_move(
        self, rng: random.Random | None = None
    ) -> tuple[PartisanOption, PartisanState]:
        """A move by the order in the module's docstring (ties broken at random), and the
        state after it."""
        moves = self.options()
        if not moves:
            raise InvalidPositionError(
                f"no move for {self.words.names[self.side]} from {self.text}"
            )
        best = max(_preference(o, self.side) for o in moves)
        chosen = (rng or random.Random()).choice(
            [o for o in moves if _preference(o, self.side) == best]
        )
        return chosen, self.after(chosen.to)

    def to_json(self, *, evaluate: bool = False) -> dict[str, Any]:
        """The public state (with the values of the moves when ``evaluate``, for hints)."""
        payload: dict[str, Any] = {
            "game": self.game.spec,
            "name": self.game.name,
            "position": self.text,
            "player": self.player,
            "moves": [o.to_json(evaluate=evaluate) for o in self.options()],
            "over": self.over,
            "partisan": True,
        }
        if not isinstance(self.game, RedBlueHackenbushEntry):
            payload["side"] = self.side
        if evaluate:
            payload["value"] = value_str(self.value)
            payload["explanation"] = render_text(self.game.explain(self.position))
            if not isinstance(self.game, RedBlueHackenbushEntry):
                payload["outcome"] = outcome_of(self.value)
        return payload


def _value(game: CatalogueGame[Any], position: Any) -> Value:
    """The exact value of a position of a partisan game."""
    value = game.value(position)
    if value is None:  # pragma: no cover - every partisan game has a value
        raise InvalidPositionError(f"{game.name} has no value")
    return value


def _preference(option: PartisanOption, side: str) -> tuple[bool, Fraction, Fraction]:
    """The computer's order: winning, then the mover's stop with the opponent to move, then
    the mean (each from the mover's point of view)."""
    left_stop, right_stop, mean = _stops(option.value)
    if side == _LEFT:
        return option.winning, right_stop, mean
    return option.winning, -left_stop, -mean


def _best(moves: list[PartisanOption], side: str) -> PartisanOption:
    """The first of the best moves by the computer's order."""
    return max(moves, key=lambda o: _preference(o, side))


def _check_text(game: CatalogueGame[Any], text: str) -> None:
    """Refuse (TooLargeError) a position too large to play before parsing it."""
    if isinstance(game, RedBlueHackenbushEntry):
        check_play_text(text)
        return
    if len(text) > PLAY_MAX_CHARS:
        raise TooLargeError(
            f"position has {len(text)} characters; the playground plays at most {PLAY_MAX_CHARS}"
        )


def _check_size(game: CatalogueGame[Any], position: Any) -> None:
    """Refuse (TooLargeError) boards of more than MAX_CELLS cells and graphs of more than
    MAX_EDGES edges; below that, the value's estimate decides (in ``game.value``)."""
    if isinstance(game, DomineeringEntry):
        cells = position.height * position.width
        if cells > MAX_CELLS:
            raise TooLargeError(
                f"the board has {cells} cells; the playground plays at most {MAX_CELLS}"
            )
    elif isinstance(game, HackenbushEntry) and len(position) > MAX_EDGES:
        raise TooLargeError(
            f"the graph has {len(position)} edges; the playground plays at most {MAX_EDGES}"
        )


_PLAYER_SIDES = {"L": _LEFT, "B": _LEFT, "R": _RIGHT}


def open_partisan(name: str, text: str, player: str) -> PartisanState:
    """Check the size of ``text``, parse it, and give the move to ``player`` (``L`` or ``B``
    for Left/Blue, ``R`` for Right/Red). A position whose value is estimated over
    :data:`PARTIZAN_PLAY_LIMIT` is refused (TooLargeError).

    >>> open_partisan("nim", "3", "B")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: nim is not a partisan game the playground plays ...
    >>> open_partisan("domineering", "...../...../...../...../.....", "L")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: the value of the Domineering board ... too large to play here ...
    """
    probe = make_game(name)
    if probe.name not in PARTISAN_GAMES:
        raise InvalidPositionError(
            f"{probe.name} is not a partisan game the playground plays"
            f" (it plays {', '.join(sorted(PARTISAN_GAMES))})"
        )
    limit = PLAY_LIMIT if isinstance(probe, RedBlueHackenbushEntry) else PARTIZAN_PLAY_LIMIT
    game = make_game(name, GameOptions(limit=limit))
    _check_text(game, text)
    if player not in _PLAYER_SIDES:
        names = _words(game).names
        raise InvalidPositionError(
            f"invalid player {player!r}: {_words(game).letters[_LEFT]} ({names[_LEFT]}) or R"
            f" ({names[_RIGHT]})"
        )
    position = game.parse_position(text)
    _check_size(game, position)
    state = PartisanState(game, position, _PLAYER_SIDES[player])
    if not isinstance(game, RedBlueHackenbushEntry):
        try:
            _ = state.value  # the estimate refuses what is too large to play
        except TooLargeError as error:
            message = str(error).split("; lift it")[0]
            raise TooLargeError(
                f"{message}: too large to play here (the playground plays positions valued"
                " within about 3 s: Domineering boards of up to about 22 empty cells, e.g."
                f" 4x5; Hackenbush graphs of up to about 16 edges); try 'nimlab analyze {name}'"
            ) from None
    return state
