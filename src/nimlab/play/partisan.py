"""Playing red-blue Hackenbush stalks against the computer, by their exact values.

The game is partisan: Blue (Left) cuts blue edges, Red (Right) red ones, and a position is a
number (its value, :func:`~nimlab.catalogue.red_blue_hackenbush.stalk_value` summed). Blue's
move to ``q`` wins iff ``value(q) >= 0`` (Red, to move, then loses), Red's iff ``value(q) <= 0``.
The computer plays a move that is optimal by the exact value: the largest value left for Blue,
the smallest for Red (a number's options all worsen it for the mover; this one loses least).

>>> state = open_partisan("red-blue-hackenbush", "BBRB,RRB", "B")
>>> state.value, [(o.to, o.value, o.winning) for o in state.options()][:2]
(Fraction(1, 4), [('RRB', Fraction(-3, 2), False), ('B,RRB', Fraction(-1, 2), False)])
>>> move, after = state.computer_move(random.Random(0))
>>> move.label, move.value, after.text, after.player
('cut stalk 1 at edge 4', Fraction(0, 1), 'BBR,RRB', 'R')
>>> open_partisan("red-blue-hackenbush", "B", "R").over
True
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from nimlab.catalogue import GameOptions, make_game
from nimlab.catalogue.red_blue_hackenbush import LEFT, RIGHT, RedBlueHackenbushEntry, options
from nimlab.core.heaps import heap_name, typed_index
from nimlab.errors import InvalidPositionError
from nimlab.exact import exact_str
from nimlab.play.impartial import PLAY_LIMIT, check_play_text, render_text

__all__ = ["PARTISAN_GAMES", "PartisanOption", "PartisanState", "leaves_words", "open_partisan"]

#: The partisan games the playground plays (by exact value).
PARTISAN_GAMES = frozenset({RedBlueHackenbushEntry.name})

_NAMES = {LEFT: "Blue", RIGHT: "Red"}
_SIDES = {LEFT: "Left", RIGHT: "Right"}
_CUT = re.compile(r"\s*([0-9]{1,4})\s+([0-9]{1,4})\s*")


@dataclass(frozen=True)
class PartisanOption:
    """One move of the player to move: the position after it, its value, whether it wins."""

    to: str
    label: str
    value: Fraction
    winning: bool

    def to_json(self, *, evaluate: bool) -> dict[str, Any]:
        """``to`` and ``label``; with ``evaluate``, the exact ``value`` and ``winning``."""
        payload: dict[str, Any] = {"to": self.to, "label": self.label}
        if evaluate:
            payload.update(
                value=exact_str(self.value),
                winning=self.winning,
                outcome="P" if self.winning else "N",
                verdict=leaves_words(self.value),
            )
        return payload


def leaves_words(value: Fraction) -> str:
    """A partizan move's result in Left/Right terms (never P/N): who wins the position the
    move leaves, whoever moves next.

    >>> leaves_words(Fraction(-1, 2)), leaves_words(Fraction(0))
    ('leaves -1/2: Red (Right) wins', 'leaves 0: the next player to move loses')
    """
    if value > 0:
        return f"leaves {exact_str(value)}: Blue (Left) wins"
    if value < 0:
        return f"leaves {exact_str(value)}: Red (Right) wins"
    return "leaves 0: the next player to move loses"


@dataclass(frozen=True)
class PartisanState:
    """Red-blue Hackenbush stalks with the player to move (``"B"`` or ``"R"``)."""

    game: RedBlueHackenbushEntry
    position: tuple[str, ...]
    player: str

    @property
    def text(self) -> str:
        """The position in the game's notation."""
        return self.game.format_position(self.position)

    @property
    def value(self) -> Fraction:
        """The exact value (positive: Blue wins whoever starts)."""
        return self.game.value(self.position)

    @property
    def over(self) -> bool:
        """Whether the player to move has no edge of their colour left (and so loses)."""
        return not any(self.player in stalk for stalk in self.position)

    def options(self) -> list[PartisanOption]:
        """Every move of the player to move, with the value it leaves and whether it wins."""
        sign = 1 if self.player == LEFT else -1
        found: dict[str, PartisanOption] = {}
        for after, label in options(self.position, self.player):
            value = self.game.value(after)
            text = self.game.format_position(after)
            found.setdefault(text, PartisanOption(text, label, value, sign * value >= 0))
        return list(found.values())

    def after(self, text: str) -> PartisanState:
        """The state after the player to move leaves ``text`` (checked against their moves)."""
        check_play_text(text)
        wanted = self.game.format_position(self.game.parse_position(text))
        if wanted not in {o.to for o in self.options()}:
            raise InvalidPositionError(
                f"{text.strip()!r} is not a legal move of {_NAMES[self.player]} from {self.text}"
                f" ({_NAMES[self.player]} cuts a {_NAMES[self.player].lower()} edge)"
            )
        other = RIGHT if self.player == LEFT else LEFT
        return replace(self, position=self.game.parse_position(wanted), player=other)

    def parse_move(self, text: str) -> PartisanState:
        """The state after a typed move: ``stalk edge`` (cut stalk ``stalk`` at edge ``edge``
        from the ground, both numbered from 1) or the position after the move.

        >>> state = open_partisan("red-blue-hackenbush", "BBRB,RRB", "R")
        >>> state.parse_move("1 3").text, state.parse_move("BBRB,R").text
        ('BB,RRB', 'BBRB,R')
        """
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
        for after, label in options(self.position, self.player):
            if label == f"cut {stalk} at edge {edge}":
                return self.after(self.game.format_position(after))
        colour = _NAMES[self.player]
        raise InvalidPositionError(
            f"illegal move {text.strip()!r}: edge {edge} of {stalk} is not {colour.lower()}"
            f" ({colour} cuts {colour.lower()} edges)"
        )

    def feedback(self, after: PartisanState) -> dict[str, str]:
        """Words on the move from this position to ``after``, in Blue/Red terms: ``kind`` is
        ``kept`` (the cut wins), ``gave-away`` (a winning cut was there and this is not one)
        or ``lost-already`` (no cut wins); ``text`` says why with the values.

        >>> state = open_partisan("red-blue-hackenbush", "BBRB,RRB", "B")
        >>> print(state.feedback(state.parse_move("1 1"))["text"])  # doctest: +NORMALIZE_WHITESPACE
        That cut leaves -3/2: Red (Right) can now win, whoever moves next. The best cut was cut
        stalk 1 at edge 4, leaving 0 (Red, who moves next, loses).
        >>> print(state.feedback(state.parse_move("1 4"))["text"])
        Good cut: it leaves 0, so Red, who moves next, loses.
        """
        me, other = _NAMES[self.player], _NAMES[after.player]
        sign = 1 if self.player == LEFT else -1
        left = after.value
        winning = [o for o in self.options() if o.winning]
        if sign * left >= 0:
            why = (
                f"{other}, who moves next, loses"
                if left == 0
                else f"{me} ({_SIDES[self.player]}) wins, whoever moves next"
            )
            return {"kind": "kept", "text": f"Good cut: it leaves {exact_str(left)}, so {why}."}
        if not winning:
            return {
                "kind": "lost-already",
                "text": f"No cut wins for {me} from {self.text or '(no edges)'} (value "
                f"{exact_str(self.value)}): every cut leaves {other} a win. Play on and wait "
                "for a mistake.",
            }
        best = max(winning, key=lambda o: sign * o.value)
        why = (
            f"{other}, who moves next, loses"
            if best.value == 0
            else f"{me} wins, whoever moves next"
        )
        return {
            "kind": "gave-away",
            "better": best.to,
            "text": f"That cut leaves {exact_str(left)}: {other} ({_SIDES[after.player]}) can "
            f"now win, whoever moves next. The best cut was {best.label}, leaving "
            f"{exact_str(best.value)} ({why}).",
        }

    def computer_move(
        self, rng: random.Random | None = None
    ) -> tuple[PartisanOption, PartisanState]:
        """A move optimal by the exact value (ties broken at random), and the state after it."""
        moves = self.options()
        if not moves:
            raise InvalidPositionError(f"no move for {_NAMES[self.player]} from {self.text}")
        sign = 1 if self.player == LEFT else -1
        best = max(sign * o.value for o in moves)
        chosen = (rng or random.Random()).choice([o for o in moves if sign * o.value == best])
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
        if evaluate:
            payload["value"] = exact_str(self.value)
            payload["explanation"] = render_text(self.game.explain(self.position))
        return payload


def open_partisan(name: str, text: str, player: str) -> PartisanState:
    """Check the size of ``text``, parse it, and give the move to ``player`` (``B`` or ``R``).

    >>> open_partisan("nim", "3", "B")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: nim is not a partisan game the playground plays ...
    """
    check_play_text(text)
    game = make_game(name, GameOptions(limit=PLAY_LIMIT))
    if not isinstance(game, RedBlueHackenbushEntry):
        raise InvalidPositionError(
            f"{game.name} is not a partisan game the playground plays"
            f" (it plays {', '.join(sorted(PARTISAN_GAMES))})"
        )
    if player not in _NAMES:
        raise InvalidPositionError(f"invalid player {player!r}: B (Blue) or R (Red)")
    return PartisanState(game, game.parse_position(text), player)
