"""Playing a catalogue game against the computer: legal moves, typed moves, hints, replies.

Shared by the web playground and ``nimlab play``; it knows nothing about HTTP. A
:class:`PlayState` is one configured game at one position, checked against the playground's
size limits (:func:`check_play_text`) so that every step below is quick.

>>> state = open_state("nim", "3,4,5")
>>> [option.label for option in state.options()][:3]
['heap 1: 3 -> 0', 'heap 1: 3 -> 1', 'heap 1: 3 -> 2']
>>> state.parse_move("1 2").text, state.parse_move("3,4,1").text
('1,4,5', '3,4,1')
>>> move = state.computer_move(random.Random(0))
>>> move.label, move.winning
('heap 1: 3 -> 1', True)
>>> open_state("nim", "0,0").over, open_state("nim", "0,0", GameOptions(misere=True)).winner_at_end
(True, 'mover')
"""

from __future__ import annotations

import io
import random
import re
import time
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from functools import reduce
from itertools import islice
from operator import xor
from typing import Any

from rich.console import Console

from nimlab.catalogue import CatalogueGame, GameOptions, analyze, grundy_table, make_game
from nimlab.catalogue.heapgames import HeapGame
from nimlab.catalogue.misere_play import MisereEntry, quotient_for
from nimlab.core.heaps import heap_name, typed_index
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.play.allowance import ALLOWANCE_GAMES, AllowanceGame, allowance_game

__all__ = [
    "DEFAULT_OPTIONS",
    "GRUNDY_SECONDS",
    "MAX_LISTED_OPTIONS",
    "MAX_SCANNED_OPTIONS",
    "NUMBER_LIMITS",
    "PLAY_LIMIT",
    "PLAY_MAX_CHARS",
    "PLAY_MAX_NUMBER",
    "PLAY_MAX_PARTS",
    "PLAY_POKER_CAP",
    "ComputerMove",
    "Option",
    "PlayState",
    "base_game",
    "check_play_text",
    "grundy_table_json",
    "misere_playable",
    "nim_explanation",
    "open_state",
    "render_text",
    "warm_quotients",
]

#: Limits on a position played in the playground (web and terminal).
PLAY_MAX_CHARS = 200
PLAY_MAX_PARTS = 12
PLAY_MAX_NUMBER = 1000
#: Games whose position is one number (not heap sizes) may use larger numbers.
NUMBER_LIMITS = {"prime-power": 10**12}
#: The cap on Poker Nim's heaps when none is given (additions must be bounded to be listed).
PLAY_POKER_CAP = 20
#: Options that games which need some are played with unless others are given.
DEFAULT_OPTIONS = {
    "subtraction": GameOptions(subtraction_set=(1, 3, 4)),
    "octal": GameOptions(code="0.07"),
    "poker-nim": GameOptions(additions=1, cap=PLAY_POKER_CAP),
    "skip-nim": GameOptions(skips=(1, 1)),
}
#: Moves listed with their values (hints, move buttons); beyond it moves are typed.
MAX_LISTED_OPTIONS = 500
#: Time spent on the Grundy values of the options of one hint (outcomes are always given;
#: Grundy values without a closed form, e.g. Wythoff's, may be left out beyond it).
GRUNDY_SECONDS = 0.5
#: Moves looked at when checking a typed move or picking a random reply.
MAX_SCANNED_OPTIONS = 20_000
#: Bound on the non-closed-form work of one step (the catalogue's ``limit``).
PLAY_LIMIT = 200_000

_NUMBER = re.compile(r"[0-9]+")
_SEPARATORS = re.compile(r"[,:\-\s]+")
_HEAP_AMOUNT = re.compile(r"\s*([0-9]{1,6})\s+([0-9]{1,6})\s*")


def check_play_text(text: str, *, max_number: int = PLAY_MAX_NUMBER) -> None:
    """Refuse (TooLargeError) a position too large to play: long text, many parts, big numbers.

    >>> check_play_text("3,4,5")
    >>> check_play_text("1,2,3,4,5,6,7,8,9,10,11,12,13")
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: position has 13 parts; the playground plays at most 12
    >>> check_play_text("5,1001")
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: number 1001 in the position is over the playground's limit 1000
    """
    if len(text) > PLAY_MAX_CHARS:
        raise TooLargeError(
            f"position has {len(text)} characters; the playground plays at most {PLAY_MAX_CHARS}",
            estimate=len(text),
            limit=PLAY_MAX_CHARS,
        )
    parts = [part for part in _SEPARATORS.split(text) if part]
    if len(parts) > PLAY_MAX_PARTS and not any(part.isalpha() for part in parts):
        raise TooLargeError(
            f"position has {len(parts)} parts; the playground plays at most {PLAY_MAX_PARTS}",
            estimate=len(parts),
            limit=PLAY_MAX_PARTS,
        )
    for token in _NUMBER.findall(text):
        if len(token) > len(str(max_number)) or int(token) > max_number:
            shown = token if len(token) <= 12 else token[:12] + "..."
            raise TooLargeError(
                f"number {shown} in the position is over the playground's limit {max_number}",
                estimate=int(token) if len(token) <= 18 else None,
                limit=max_number,
            )


@dataclass(frozen=True)
class Option:
    """One legal move: the position it leads to (notation), a description and, for hints,
    the Grundy value and outcome of that position (``"P"``: the move wins)."""

    to: str
    label: str
    grundy: int | None = None
    outcome: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``to`` and ``label``, plus ``grundy``/``outcome``/``winning`` when evaluated."""
        payload: dict[str, Any] = {"to": self.to, "label": self.label}
        if self.outcome is not None:
            payload.update(grundy=self.grundy, outcome=self.outcome, winning=self.outcome == "P")
        return payload


#: Games whose positions list the squares of coins rather than heap sizes.
_COIN_GAMES = frozenset({"silver-dollar", "nimble"})


def base_game(game: CatalogueGame[Any]) -> CatalogueGame[Any]:
    """The game whose rules are played: ``game`` itself, or the game a misère entry wraps.

    >>> base_game(make_game("kayles", GameOptions(misere=True))).name
    'kayles'
    """
    return game.base if isinstance(game, MisereEntry) else game


def _describe(game: CatalogueGame[Any], before: Hashable, after: Hashable) -> str:
    """A short description of a move from the difference of the two positions."""
    game = base_game(game)
    if isinstance(game, AllowanceGame):
        return game.describe(before, after)
    if (
        isinstance(game, HeapGame)
        and isinstance(before, tuple)
        and isinstance(after, tuple)
        and len(before) != len(after)
    ):
        return _split_label(before, after)
    if isinstance(before, tuple) and isinstance(after, tuple) and len(before) == len(after):
        changes = [(i, a, b) for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        if changes and all(isinstance(a, int) and isinstance(b, int) for _, a, b in changes):
            if game.name in _COIN_GAMES:
                return ", ".join(f"coin {i + 1}: square {a} -> {b}" for i, a, b in changes)
            if game.name == "staircase":  # steps are places (0 is the floor), not a count
                return ", ".join(f"step {i}: {a} -> {b}" for i, a, b in changes)
            return ", ".join(f"{heap_name(i)}: {a} -> {b}" for i, a, b in changes)
    old_counters, new_counters = _counters(before), _counters(after)
    if old_counters and new_counters:
        gone = Counter(old_counters) - Counter(new_counters)
        new = Counter(new_counters) - Counter(old_counters)
        if len(gone) == len(new) == 1:
            (x, y), (u, v) = next(iter(gone)), next(iter(new))
            return f"counter {x}:{y} -> {u}:{v}"
    if isinstance(before, str) and isinstance(after, str) and len(before) == len(after):
        turned = [str(i + 1) for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        return f"turn {', '.join(turned)}"
    removed = _removed_parts(game.format_position(before), game.format_position(after))
    if removed:
        return f"remove {', '.join(removed)}"
    return f"-> {game.format_position(after) or '(empty)'}"


def _counters(position: Hashable) -> tuple[tuple[int, int], ...] | None:
    """``position`` if it is a tuple of ``(x, y)`` counters (2-D Nim), else None."""
    if not isinstance(position, tuple) or not position:
        return None
    if all(isinstance(c, tuple) and len(c) == 2 for c in position):
        return position
    return None


def _split_label(before: tuple[int, ...], after: tuple[int, ...]) -> str:
    """A move replacing one heap by none, one or two heaps (octal games).

    >>> _split_label((7, 4), (2, 3, 4)), _split_label((2, 4), (4,)), _split_label((5,), (1, 2))
    ('heap 1: 7 -> 2+3 (take 2)', 'heap 1: 2 -> nothing (take 2)', 'heap 1: 5 -> 1+2 (take 2)')
    """
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    start = min(start, len(before) - 1)
    end = len(after) - (len(before) - start - 1)  # the heaps after heap ``start`` are kept
    left = after[start:end]
    taken = before[start] - sum(left)
    shown = "+".join(map(str, left)) or "nothing"
    label = f"{heap_name(start)}: {before[start]} -> {shown}"
    return label + (f" (take {taken})" if taken else "")


def _removed_parts(before: str, after: str) -> list[str]:
    """The comma-separated parts of ``before`` missing from ``after`` (none if any is new).

    >>> _removed_parts("g-a,a-b,g-d", "g-d")
    ['g-a', 'a-b']
    >>> _removed_parts("1:2,3:0", "1:1,3:0")
    []
    """
    left = [part for part in after.split(",") if part]
    removed = []
    for part in before.split(","):
        if part in left:
            left.remove(part)
        elif part:
            removed.append(part)
    return [] if left else removed


@dataclass(frozen=True)
class PlayState:
    """A configured impartial game at one position, ready to be played."""

    game: CatalogueGame[Any]
    position: Hashable
    _rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    @property
    def text(self) -> str:
        """The position in the game's notation."""
        return self.game.format_position(self.position)

    def after(self, position: Hashable) -> PlayState:
        """The state at another position of the same game."""
        return replace(self, position=position)

    def _scan(self) -> list[Hashable]:
        moves = islice(self.game.moves(self.position), MAX_SCANNED_OPTIONS)
        return list(dict.fromkeys(moves))

    @property
    def over(self) -> bool:
        """Whether the player to move has no move."""
        return next(iter(self.game.moves(self.position)), None) is None

    @property
    def winner_at_end(self) -> str:
        """Who wins when play ends: ``"mover"`` (misère) or ``"previous"`` (normal play)."""
        return "mover" if self.game.terminal_grundy else "previous"

    @property
    def misere(self) -> bool:
        """Whether the game is played under the misère rule (the last move loses)."""
        return bool(self.game.terminal_grundy)

    @property
    def rule(self) -> str:
        """The rule that decides the winner, in words.

        >>> open_state("kayles", "3", GameOptions(misere=True)).rule
        'misère play: whoever makes the last move loses'
        """
        if self.misere:
            return "misère play: whoever makes the last move loses"
        return "normal play: whoever makes the last move wins"

    def source(self) -> str | None:
        """Where the misère answers about the last position asked about come from, in words:
        ``from the misère quotient of order 40``, ``found by search`` (None: normal play).

        >>> warm_quotients()  # as the playground's server does at start
        >>> kayles = open_state("kayles", "3,5", GameOptions(misere=True))
        >>> _ = kayles.game.outcome(kayles.position); kayles.source()
        'from the misère quotient of order 40'
        >>> wythoff = open_state("wythoff", "3,5", GameOptions(misere=True))
        >>> _ = wythoff.game.outcome(wythoff.position); wythoff.source()
        'found by search'
        """
        if not self.misere:
            return None
        game = self.game
        if isinstance(game, MisereEntry):
            quotient = game.quotient
            if quotient is None:
                return "found by search"
            order = f"from the misère quotient of order {quotient.order}"
            if quotient.period is None:
                return f"{order} of heaps up to {quotient.certified_to}"
            return order
        if game.name == "nim":
            return "from misère Nim's rule"
        return "found by search"

    def options(self, *, evaluate: bool = False) -> list[Option]:
        """Every legal move (at most :data:`MAX_LISTED_OPTIONS`, else TooLargeError); with
        ``evaluate``, each with the Grundy value and outcome of the position it leads to."""
        moves = list(dict.fromkeys(islice(self.game.moves(self.position), MAX_LISTED_OPTIONS + 1)))
        if len(moves) > MAX_LISTED_OPTIONS:
            raise TooLargeError(
                f"position {self.text} has more than {MAX_LISTED_OPTIONS} moves to list; "
                "type a move instead, or play a smaller position",
                limit=MAX_LISTED_OPTIONS,
            )
        deadline = time.monotonic() + GRUNDY_SECONDS
        return [self._option(move, evaluate=evaluate, deadline=deadline) for move in moves]

    def _option(self, move: Hashable, *, evaluate: bool, deadline: float) -> Option:
        label = _describe(self.game, self.position, move)
        if not evaluate:
            return Option(self.game.format_position(move), label)
        grundy = None
        if time.monotonic() < deadline:
            try:
                grundy = self.game.grundy(move)
            except TooLargeError:
                grundy = None
        outcome = self.game.outcome(move).value
        return Option(self.game.format_position(move), label, grundy, outcome)

    def parse_move(self, text: str) -> PlayState:
        """The state after a typed move: ``heap amount`` (heap games: take ``amount`` from
        heap ``heap``, numbered from 1) or the position after the move, in the game's
        notation."""
        name = base_game(self.game).name
        check_play_text(text, max_number=NUMBER_LIMITS.get(name, PLAY_MAX_NUMBER))
        if isinstance(self.game, AllowanceGame):
            typed: Hashable = self.game.typed_move(self.position, text)
            if typed not in self._scan():
                raise InvalidPositionError(
                    f"{text.strip()!r} is not a legal move from {self.text}"
                    f" ({_allowance_help(self.game)})"
                )
            return self.after(typed)
        wanted = self._wanted(text)
        if wanted is None:
            wanted = _parse(self.game, text)
            if wanted not in self._scan():
                raise InvalidPositionError(
                    f"{text.strip()!r} is not a legal move from {self.text}"
                    f" (type 'heap amount' or the position after your move)"
                )
        return self.after(wanted)

    def _wanted(self, text: str) -> Hashable | None:
        """The position a ``heap amount`` move leads to (None if ``text`` is not one)."""
        match = _HEAP_AMOUNT.fullmatch(text)
        heaps = self.position
        if match is None or not isinstance(heaps, tuple) or len(text.split(",")) > 1:
            return None
        if base_game(self.game).name == "staircase":  # steps are places, numbered from 0
            index = int(match[1])
            if index >= len(heaps):
                raise InvalidPositionError(
                    f"illegal move {text.strip()!r}: there is no step {index}"
                    f" (steps are numbered 0..{len(heaps) - 1}, 0 the floor)"
                )
            name = f"step {index}"
        else:
            index = typed_index(int(match[1]), len(heaps), text)
            name = heap_name(index)
        amount = int(match[2])
        if amount == 0 or amount > heaps[index]:
            if heaps[index] == 0:
                reason = f"{name} is empty"
            else:
                reason = f"{name} has {heaps[index]}; take between 1 and {heaps[index]}"
            raise InvalidPositionError(f"illegal move {text.strip()!r}: {reason}")
        options = self._scan()
        direct = (*heaps[:index], heaps[index] - amount, *heaps[index + 1 :])
        if direct in options:
            return direct
        shifted = [
            o
            for o in options
            if isinstance(o, tuple) and len(o) == len(heaps) and heaps[index] - o[index] == amount
        ]
        if len(shifted) == 1:
            return shifted[0]
        raise InvalidPositionError(
            f"illegal move {text.strip()!r} from {self.text}: type the position after your move"
        )

    def feedback(self, after: PlayState) -> dict[str, str]:
        """Words on the player's move from this position to ``after``: ``kind`` is ``kept``
        (the move wins), ``gave-away`` (a winning move was there and this is not one) or
        ``lost-already`` (no move wins), and ``text`` says why with the numbers; a give-away
        also names the position a winning move leads to (``better``).

        >>> start = open_state("nim", "3,4,5")
        >>> start.feedback(start.after((3, 4, 0)))["text"]  # doctest: +NORMALIZE_WHITESPACE
        'That move gave away the win: 3,4,0 has nim-sum 7, so the computer can win now. The
         winning move was heap 1: 3 -> 1 (3,4,5 -> 1,4,5): 1,4,5 has nim-sum 0.'
        >>> start.feedback(start.after((1, 4, 5)))["kind"]
        'kept'
        """
        winning = self.game.winning_moves(self.position)
        left = after.text or "(empty)"
        if not winning:
            return {
                "kind": "lost-already",
                "text": f"No move wins from {self.text}{self._in_brackets(self.position)}: every "
                "move leaves the computer a winning position. Play on and wait for a mistake.",
            }
        if self.game.outcome(after.position).value == "P":
            return {
                "kind": "kept",
                "text": f"Good move: {left}{self._in_brackets(after.position)} is a losing "
                "position for the computer, who moves next; answer every move this way and "
                "you win.",
            }
        best = winning[0]
        target = self.game.format_position(best.to) or "(empty)"
        given = self._measure(after.position)
        kept = self._measure(best.to)
        return {
            "kind": "gave-away",
            "better": self.game.format_position(best.to),
            "text": f"That move gave away the win: {left} "
            + (f"has {given}" if given else "is a winning position for the player to move")
            + f", so the computer can win now. The winning move was {best.label} "
            + f"({self.text} -> {target})"
            + (f": {target} has {kept}." if kept else "."),
        }

    def _measure(self, position: Hashable) -> str | None:
        """``nim-sum 7`` (Nim), ``Grundy value 2`` (normal play, a closed form), or None."""
        if self.game.terminal_grundy:
            return None
        try:
            value = self.game.grundy(position)
        except TooLargeError:
            return None
        if value is None:
            return None
        return f"{'nim-sum' if self.game.name == 'nim' else 'Grundy value'} {value}"

    def _in_brackets(self, position: Hashable) -> str:
        measure = self._measure(position)
        return f" ({measure})" if measure else ""

    def computer_move(self, rng: random.Random | None = None) -> ComputerMove:
        """A winning move if there is one (chosen at random among them), else a random move."""
        rng = rng or self._rng
        winning = {m.to: m.label for m in self.game.winning_moves(self.position)}
        source = self.source()
        if winning:
            to = rng.choice(sorted(winning, key=self.game.format_position))
            return ComputerMove(self.after(to), winning[to], winning=True, source=source)
        options = self._scan()
        if not options:
            raise InvalidPositionError(f"no move from {self.text}: the game is over")
        to = rng.choice(options)
        label = _describe(self.game, self.position, to)
        return ComputerMove(self.after(to), label, False, source=source)

    def hint(self) -> dict[str, Any]:
        """The hint: the analysis (``nimlab analyze --json`` keys), every option coloured by its
        outcome with its Grundy value (None when there are too many), and an explanation."""
        analysis = analyze(self.game, self.text).to_json()
        source = self.source()
        try:
            options: list[dict[str, Any]] | None = [
                o.to_json() for o in self.options(evaluate=True)
            ]
            note = ""
        except TooLargeError as error:
            options, note = None, str(error)
        payload: dict[str, Any] = {
            "analysis": analysis,
            "options": options,
            "options_note": note,
            "explanation": render_text(self.game.explain(self.position)),
            "nim": None,
            "misere": self.misere,
            "source": source,
        }
        if isinstance(self.game, MisereEntry):
            payload["explanation"] = self._misere_words(analysis, source or "found by search")
        if self.game.name == "nim" and isinstance(self.position, tuple):
            payload["nim"] = nim_explanation(self.position, misere=self.game.terminal_grundy == 1)
        return payload

    def _misere_words(self, analysis: dict[str, Any], source: str) -> str:
        """A misère hint in words: the rule, who wins here, and where that comes from.

        >>> warm_quotients()  # as the playground's server does at start
        >>> state = open_state("kayles", "3,5", GameOptions(misere=True))
        >>> print(state.hint()["explanation"])  # doctest: +NORMALIZE_WHITESPACE
        Misère play: whoever makes the last move loses (Grundy values no longer add up).
        3,5 is won by the player to move (you): a winning move leaves the computer a losing
        position. The outcome and the winning moves come from the misère quotient of order 40
        (Plambeck and Siegel): each heap stands for an element of a finite commutative monoid,
        and a position is lost for the player to move exactly when the product of its heaps'
        elements is one of the 9 elements of the P-portion. Here the heaps give ab · c = abc,
        not in the P-portion.
        """
        where = self.text or "(empty)"
        if analysis["outcome"] == "N":
            verdict = (
                f"{where} is won by the player to move (you): a winning move leaves the computer"
                " a losing position."
            )
        else:
            verdict = (
                f"{where} is lost for the player to move (you) against perfect play: every move"
                " leaves the computer a winning position."
            )
        quotient = self.game.quotient if isinstance(self.game, MisereEntry) else None
        heaps = self.position
        if quotient is not None and isinstance(heaps, tuple):
            names = [quotient.names[quotient.element(h)] for h in heaps]
            product = quotient.names[quotient.product(heaps)]
            side = "in" if quotient.is_p(heaps) else "not in"
            how = (
                f"The outcome and the winning moves come {source} (Plambeck and Siegel): each"
                " heap stands for an element of a finite commutative monoid, and a position is"
                " lost for the player to move exactly when the product of its heaps' elements is"
                f" one of the {quotient.p_order} elements of the P-portion. Here the heaps give"
                f" {' · '.join(names)} = {product}, {side} the P-portion."
            )
        else:
            how = (
                "No misère quotient answers this position, so the outcome and the winning moves"
                " were found by search: every position that can follow this one was examined."
            )
        return (
            "Misère play: whoever makes the last move loses (Grundy values no longer add up). "
            f"{verdict} {how}"
        )

    def to_json(self) -> dict[str, Any]:
        """The public state: game, position, legal moves (or None if too many), end of play."""
        try:
            moves: list[dict[str, Any]] | None = [o.to_json() for o in self.options()]
        except TooLargeError:
            moves = None
        game, heaps = self.game, self.position
        allowances = None
        if isinstance(game, AllowanceGame):
            allowances = game.allowances_json(heaps)
            heaps = getattr(heaps, "heaps", None)
        is_heaps = isinstance(heaps, tuple) and all(isinstance(h, int) for h in heaps)
        outcome = self.outcome(strict=self.misere)
        return {
            "game": game.spec,
            "name": base_game(game).name,
            "position": self.text,
            "heaps": list(heaps) if is_heaps and isinstance(heaps, tuple) else None,
            "allowances": allowances,
            "moves": moves,
            "over": self.over,
            "winner_at_end": self.winner_at_end,
            "outcome": outcome,
            "start_note": self.start_note() if outcome == "P" and not self.over else None,
            "misere": self.misere,
            "rule": self.rule,
        }

    def outcome(self, *, strict: bool = False) -> str | None:
        """``N`` (the player to move wins), ``P`` (loses), None when too costly to know here
        (with ``strict``, TooLargeError: misère play is refused where its answers are out of
        reach, rather than started and refused at the computer's first move).

        >>> open_state("wythoff", "3,5").outcome(), open_state("nim", "3,4,5").outcome()
        ('P', 'N')
        """
        try:
            return str(self.game.outcome(self.position).value)
        except TooLargeError as error:
            if strict:
                raise TooLargeError(
                    f"misère play of {self.text} is beyond the playground's budget: {error}"
                    " (play smaller heaps)",
                    estimate=error.estimate,
                    limit=error.limit,
                ) from error
            return None

    def start_note(self) -> str:
        """Why a position is lost for the player to move, for a start that is.

        >>> print(open_state("nim", "1,2,3").start_note())
        This start is lost for the player who moves first (1,2,3 has nim-sum 0): every move \
leaves a position from which the other player can win. Let the computer move first, or \
change the start.
        """
        measure = self._measure(self.position)
        reason = f" ({self.text} has {measure})" if measure else ""
        return (
            f"This start is lost for the player who moves first{reason}: every move leaves a"
            " position from which the other player can win. Let the computer move first, or"
            " change the start."
        )


@dataclass(frozen=True)
class ComputerMove:
    """The computer's reply: the state after it, its description, whether it wins."""

    state: PlayState
    label: str
    winning: bool
    #: misère play: where the move was found, in words (:meth:`PlayState.source`)
    source: str | None = None


#: The catalogue's named heap games whose misère quotients a server computes once at start,
#: with the seconds each may take: Kayles' period is proven in about 0.2 s (certified to heap
#: 167); Dawson's Kayles has no period known and Grundy's game is not octal, so they get a
#: short look (their partial quotients of the heaps reached).
_WARM_GAMES = {"kayles": 2.0, "dawson-kayles": 0.3, "grundy-game": 0.3}


def warm_quotients(scale: float = 1.0) -> None:
    """Compute the misère quotients of the catalogue's named heap games, in about ``scale``
    times the seconds of :data:`_WARM_GAMES`, so that processes forked from this one (the
    playground's jobs, each a child forked for its request) start with them.

    >>> warm_quotients()
    >>> kayles = make_game("kayles", GameOptions(misere=True))
    >>> kayles.outcome((1000, 2001, 77)).value, kayles.quotient.order, kayles.quotient.period
    ('N', 40, 12)
    """
    for name, seconds in _WARM_GAMES.items():
        entry = make_game(name, GameOptions(misere=True))
        if isinstance(entry, MisereEntry) and entry.heap_moves is not None:
            quotient_for(entry.base.spec, entry.code, entry.heap_moves, 12, seconds * scale)


def misere_playable(cls: type[CatalogueGame[Any]]) -> bool:
    """Whether the playground offers misère play of a game: the impartial heap games (Nim by
    its rule, octal games and Grundy's game by their misère quotient, the others by search).

    >>> from nimlab.catalogue import find_game
    >>> [misere_playable(find_game(n)) for n in ("kayles", "nim", "wythoff", "poker-nim")]
    [True, True, False, False]
    """
    return issubclass(cls, HeapGame) and cls.impartial and cls.name not in ALLOWANCE_GAMES


def open_state(
    name: str, text: str, options: GameOptions | None = None, *, misere: bool = False
) -> PlayState:
    """Check the size of ``text``, configure the game and parse the position; with ``misere``
    (or ``options.misere``) the last move loses.

    >>> open_state("wythoff", "3,5").text
    '3,5'
    >>> open_state("red-blue", "B")
    Traceback (most recent call last):
      ...
    nimlab.errors.UnknownGameError: unknown game 'red-blue'; did you mean 'red-blue-hackenbush'? ...
    """
    check_play_text(text, max_number=NUMBER_LIMITS.get(name.strip().lower(), PLAY_MAX_NUMBER))
    given = options or GameOptions()
    if misere:
        given = replace(given, misere=True)
    _check_options(given)
    game = make_game(name, replace(given, limit=min(given.limit, PLAY_LIMIT)))
    if game.name in ALLOWANCE_GAMES:
        if game.name == "poker-nim" and given.cap is None:
            game = make_game(name, replace(given, cap=PLAY_POKER_CAP, limit=game.limit))
        game = allowance_game(game)
    elif not game.impartial:
        raise InvalidPositionError(
            f"{game.name} is not impartial: the playground plays impartial games only"
        )
    return PlayState(game, _parse(game, text))


def _check_options(options: GameOptions) -> None:
    """Refuse (TooLargeError) allowances or a cap over the playground's number limit."""
    counts = {
        "additions": options.additions,
        "cap": options.cap,
        "skips": max(options.skips) if options.skips else None,
    }
    for key, value in counts.items():
        if value is not None and value > PLAY_MAX_NUMBER:
            raise TooLargeError(
                f"{key} {value} is over the playground's limit {PLAY_MAX_NUMBER}",
                estimate=value,
                limit=PLAY_MAX_NUMBER,
            )


def _parse(game: CatalogueGame[Any], text: str) -> Hashable:
    """The position ``text``; for heap games the empty text is the position without heaps
    (octal games remove heaps; the last move leaves none)."""
    if not text.strip() and isinstance(base_game(game), HeapGame):
        return ()
    position: Hashable = game.parse_position(text)
    return position


def _allowance_help(game: AllowanceGame) -> str:
    if game.kind == "skips":
        return "type 'heap amount', 'skip', or the heaps after your move"
    cap = f" (heaps at most {game.cap})" if game.cap is not None else ""
    return f"type 'heap amount', 'add heap amount'{cap}, or the heaps after your move"


def grundy_table_json(name: str, options: GameOptions, upto: int) -> dict[str, Any]:
    """The keys of ``nimlab grundy NAME --upto N --json`` (a job for :mod:`nimlab.web.guard`).

    >>> grundy_table_json("nim", GameOptions(), 3)["values"]
    [0, 1, 2, 3]
    """
    return grundy_table(make_game(name, options), upto).to_json()


def nim_explanation(heaps: tuple[int, ...], *, misere: bool = False) -> dict[str, Any]:
    """The binary nim-sum of Nim heaps, with the heaps a winning move reduces (``target``).

    >>> explained = nim_explanation((3, 4, 5))
    >>> [(row["binary"], row["target"], row["to"]) for row in explained["rows"]]
    [('011', True, 1), ('100', False, None), ('101', False, None)]
    >>> explained["nim_sum"], explained["nim_sum_binary"]
    (2, '010')
    >>> print(explained["text"].replace(". ", ".\\n"))
    nim-sum 3 ⊕ 4 ⊕ 5 = 2 ≠ 0: the player to move wins.
    Winning move: heap 1 from 3 to 3 ⊕ 2 = 1, leaving nim-sum 0.
    """
    from nimlab.nim import analyze_nim

    analysis = analyze_nim(heaps, misere=misere)
    targets = {m.heap: m.to for m in analysis.winning_moves}
    width = max([1, *(h.bit_length() for h in heaps)])
    total = reduce(xor, heaps, 0)
    rows = [
        {
            "heap": i,
            "size": h,
            "binary": format(h, f"0{width}b"),
            "target": i in targets,
            "to": targets.get(i),
        }
        for i, h in enumerate(heaps)
    ]
    sum_text = f"nim-sum {' ⊕ '.join(map(str, heaps)) or '0'} = {total}"
    endgame = misere and all(h <= 1 for h in heaps)
    if endgame:
        ones = sum(heaps)
        verdict = "loses" if ones % 2 else "wins"
        text = (
            f"Misère play with no heap above 1: {ones} single counters, so the player to move "
            f"{verdict} (an odd number of single counters loses)."
        )
    elif analysis.winning_moves:
        moves = "; ".join(
            _nim_move_text(m.heap, m.from_, m.to, total, heaps, misere=misere)
            for m in analysis.winning_moves
        )
        text = f"{sum_text} ≠ 0: the player to move wins. Winning move: {moves}."
    else:
        text = f"{sum_text}: every move leaves a non-zero nim-sum, so the player to move loses."
    return {
        "rows": rows,
        "nim_sum": total,
        "nim_sum_binary": format(total, f"0{width}b"),
        "misere": misere,
        "parity_endgame": endgame,
        "text": text,
    }


def _nim_move_text(
    heap: int, before: int, after: int, total: int, heaps: tuple[int, ...], *, misere: bool
) -> str:
    """One winning Nim move in words, with the reason it wins."""
    rest = [h for i, h in enumerate(heaps) if i != heap]
    if misere and after <= 1 and all(h <= 1 for h in rest):
        singles = sum(rest) + after
        return (
            f"{heap_name(heap)} from {before} to {after}, leaving {singles} single counters "
            "(an odd number: misère play turns to parity once no heap is above 1)"
        )
    return f"{heap_name(heap)} from {before} to {before} ⊕ {total} = {after}, leaving nim-sum 0"


def render_text(renderable: Any, *, width: int = 100) -> str:
    """A rich renderable as plain text (trailing spaces removed).

    >>> render_text("a  \\nb")
    'a\\nb'
    """
    console = Console(file=io.StringIO(), width=width, color_system=None, record=True)
    console.print(renderable)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())
