"""The catalogue's game interface: rules, closed form, brute-force twin and explanation.

Every catalogue entry is a subclass of :class:`CatalogueGame`. An instance is one configured
game (``subtraction(S=1,3,4)``, ``nim(misere)``, ...); the class carries the name, the notation
and which command-line options apply. An entry gives

- the rules: :meth:`~CatalogueGame.moves` (the brute-force engine plays with them);
- the closed form: :meth:`~CatalogueGame.grundy` (or :meth:`~CatalogueGame.outcome` only, for
  games that are not impartial), and :meth:`~CatalogueGame.winning_moves` computed from it, so
  that huge positions are answered instantly;
- the brute-force twin (:meth:`~CatalogueGame.brute_grundy`, ...) that the conformance tests
  compare with the closed form;
- a strict position notation (:meth:`~CatalogueGame.parse_position` /
  :meth:`~CatalogueGame.format_position`, a round trip) and a human explanation.

>>> from nimlab.catalogue import make_game
>>> game = make_game("nimble")
>>> position = game.parse_position("1,3,3,6")
>>> game.grundy(position), game.brute_grundy(position)
(7, 7)
>>> [game.format_position(move.to) for move in game.winning_moves(position)]
['1,1,3,3']
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from rich.console import RenderableType
from rich.text import Text

from nimlab.budget import (
    DEFAULT_STEPS,
    Cost,
    check_cost,
    format_bytes,
    format_seconds,
    saturated,
    steps_budget,
)
from nimlab.catalogue.brute import BruteSize, brute_cost
from nimlab.core.game import ImpartialGame, Outcome
from nimlab.core.transforms import MisereGame, misere
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.grundy import GrundySolver, mex

if TYPE_CHECKING:
    from nimlab.cgt.game import Game

__all__ = [
    "DEFAULT_LIMIT",
    "BudgetedGame",
    "CatalogueGame",
    "CatalogueMove",
    "GameOptions",
    "Pos",
    "check_limit",
    "output_cost",
    "unique_moves",
]

Pos = TypeVar("Pos", bound=Hashable)

#: Default ``--limit``: the work budget, in steps of about a microsecond, of anything that is
#: not a closed form (tables, searches): 600,000,000 steps, about 10 minutes, with 8 GiB of
#: memory (:func:`nimlab.budget.steps_budget`). Estimates are in seconds and bytes.
DEFAULT_LIMIT = DEFAULT_STEPS

#: Calibrated (BENCHMARKS.md): writing a result of ``c`` characters (positions in the input
#: notation, JSON) takes about ``c`` bytes x 5 and 40 ns per character.
_OUTPUT_BYTES_PER_CHAR = 5
_OUTPUT_SECONDS_PER_CHAR = 4e-8
#: The running guard of the brute-force search (its estimate, :meth:`CatalogueGame.check_brute`,
#: refuses it before it starts): a step (a position expanded or a move listed) is counted at
#: 5 µs, twice the estimate's figure, and a memoised position at 400 bytes, so the guard only
#: stops a search that has met more than its estimate allowed.
_BRUTE_SECONDS_PER_STEP = 5e-6
_BRUTE_BYTES_PER_STATE = 400

_FLAGS = {
    "misere": "--misere",
    "subtraction_set": "--set",
    "max_take": "--max",
    "additions": "--additions",
    "cap": "--cap",
    "skips": "--skips",
    "code": "--code",
    "row": "--row",
}


@dataclass(frozen=True)
class GameOptions:
    """The parameters a game may take, as parsed from the command line or a spec string.

    ``limit`` bounds non-closed-form work (it is not part of the game's identity).

    >>> GameOptions(subtraction_set=(1, 3, 4)).given()
    ['--set']
    """

    misere: bool = False
    subtraction_set: tuple[int, ...] | None = None
    max_take: int | None = None
    additions: int | None = None
    cap: int | None = None
    skips: tuple[int, int] | None = None
    code: str | None = None
    row: int | None = None
    limit: int = field(default=DEFAULT_LIMIT, compare=False)

    def given(self) -> list[str]:
        """The command-line flags of the options that differ from their defaults."""
        return [
            _FLAGS[f.name]
            for f in fields(self)
            if f.name in _FLAGS and getattr(self, f.name) != f.default
        ]


@dataclass(frozen=True)
class CatalogueMove(Generic[Pos]):
    """One move: the position it leads to, a description, (partisan games) who moves, and
    extra JSON keys (e.g. ``("heap", 0)``)."""

    to: Pos
    label: str
    player: str | None = None
    extra: tuple[tuple[str, int | bool | str], ...] = ()


def unique_moves(moves: Iterable[CatalogueMove[Pos]]) -> list[CatalogueMove[Pos]]:
    """Keep the first move to each (player, position): different moves may lead to one position.

    >>> [m.label for m in unique_moves([CatalogueMove(1, "a"), CatalogueMove(1, "b")])]
    ['a']
    """
    seen: set[tuple[str | None, Pos]] = set()
    result = []
    for move in moves:
        key = (move.player, move.to)
        if key not in seen:
            seen.add(key)
            result.append(move)
    return result


def check_limit(what: str, cost: Cost, limit: int) -> None:
    """Raise :class:`TooLargeError` if ``cost`` is over the budget that ``--limit`` sets
    (``limit`` steps of a microsecond; see :func:`nimlab.budget.steps_budget`).

    >>> check_limit("a table", Cost(0.5, 10**6), DEFAULT_LIMIT)
    >>> check_limit("a table", Cost(2.0, 10**6), 1_000_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: a table would take about 2 s and 1 MB, over the budget of 1 s ...
    """
    check_cost(what, cost, steps_budget(limit), "--limit")


def output_cost(characters: int) -> Cost:
    """The cost of building and writing a result of about ``characters`` characters.

    >>> output_cost(10**9)
    Cost(seconds=40.0, bytes=5000000000)
    """
    return Cost(
        saturated(characters) * _OUTPUT_SECONDS_PER_CHAR, characters * _OUTPUT_BYTES_PER_CHAR
    )


def brute_step_limit(limit: int) -> int:
    """The steps of a brute-force search (positions expanded + options listed) that the budget
    ``--limit`` sets allows while it runs: its seconds at 5 µs a step.

    >>> brute_step_limit(DEFAULT_STEPS)
    120000000
    """
    return round(steps_budget(limit).seconds / _BRUTE_SECONDS_PER_STEP)


def brute_state_limit(limit: int) -> int:
    """The positions a brute-force search may expand while it runs: the budget's bytes at 400
    each.

    >>> brute_state_limit(DEFAULT_STEPS)
    21474836
    """
    return steps_budget(limit).bytes // _BRUTE_BYTES_PER_STATE


class BudgetedGame:
    """A game whose move generator refuses (TooLargeError) once the search has done the steps
    that the budget ``--limit`` sets allows (5 µs each: one per position expanded plus one per
    option listed, so that the work done before a refusal is bounded whatever the number of
    moves per position) or expanded the positions it allows (400 bytes each). The search is
    estimated before it starts (:meth:`CatalogueGame.check_brute`); this guard, checked while
    it runs, only stops a search that escaped its estimate.

    >>> from nimlab.core import MoveFunctionGame
    >>> from nimlab.grundy import grundy_value
    >>> chain = BudgetedGame(MoveFunctionGame(lambda n: [n - 1] if n else []), 500)
    >>> grundy_value(chain, 40)
    0
    >>> grundy_value(chain, 500)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.TooLargeError: the brute-force search ran over 100 steps (positions expanded ...
    """

    def __init__(
        self,
        game: ImpartialGame[Any],
        limit: int,
        *,
        option_cost: Callable[[Any], int] | None = None,
    ) -> None:
        self.game = game
        # a step takes a few microseconds, and the search memoises every position: stop it
        # when its time or memory would be over the budget ``limit`` sets
        self.budget = steps_budget(limit)
        self.limit = brute_step_limit(limit)
        self.states = brute_state_limit(limit)
        self.option_cost = option_cost
        self.steps = 0
        self.expanded = 0

    def moves(self, position: Any, /) -> Iterable[Any]:
        """The wrapped game's options, counted (``option_cost(option)`` steps each, or one)."""
        cost = self.option_cost
        self.steps += 1
        self.expanded += 1
        if self.expanded > self.states:
            budget = self.budget
            raise TooLargeError(
                f"the brute-force search expanded over {self.states} positions (about"
                f" {format_bytes(budget.bytes)} memoised), over the budget; lift it with --limit",
                estimate=self.expanded,
                limit=self.states,
            )
        options = []
        for option in self.game.moves(position):  # counted as listed: a position may have
            options.append(option)  # more options than the budget allows (wythoff 1,10^155)
            self.steps += 1 if cost is None else cost(option)
            if self.steps > self.limit:
                break
        if self.steps > self.limit:
            budget = self.budget
            raise TooLargeError(
                f"the brute-force search ran over {self.limit} steps (positions expanded +"
                f" moves listed, about {format_seconds(budget.seconds)} and"
                f" {format_bytes(budget.bytes)}), over the budget; lift it with --limit",
                estimate=self.steps,
                limit=self.limit,
            )
        return options


class CatalogueGame(ABC, Generic[Pos]):
    """One configured game of the catalogue (see the module docstring)."""

    #: The registered name (``nimlab analyze NAME ...``).
    name: ClassVar[str]
    #: Other accepted names.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: One line: what the game is.
    summary: ClassVar[str]
    #: The position notation and an example.
    notation: ClassVar[str]
    example: ClassVar[str]
    #: The command-line flags that apply (``--limit`` always applies).
    option_flags: ClassVar[frozenset[str]] = frozenset()
    #: Whether the game has Sprague-Grundy values (False: outcome-only or partisan).
    impartial: ClassVar[bool] = True
    #: Whether ``analyze`` may report the Grundy value as null when computing it is over the
    #: budget (it is not a closed form, but the outcome and the winning moves are: Wythoff).
    grundy_optional: ClassVar[bool] = False
    #: What ``nimlab grundy --upto N`` tabulates; None if it is refused.
    sequence_meaning: ClassVar[str | None] = None

    limit: int = DEFAULT_LIMIT

    @classmethod
    def configure(cls, options: GameOptions) -> CatalogueGame[Any]:
        """The game with these options (they have been checked against ``option_flags``)."""
        game = cls()
        game.limit = options.limit
        return game

    @property
    def spec(self) -> str:
        """The canonical spec string, e.g. ``subtraction(S=1,3,4)``."""
        return self.name

    def __str__(self) -> str:
        return self.spec

    # -- notation -------------------------------------------------------------------------
    @abstractmethod
    def parse_position(self, text: str) -> Pos:
        """Parse the game's notation strictly (InvalidPositionError quoting the bad token)."""

    @abstractmethod
    def format_position(self, position: Pos) -> str:
        """The notation of ``position``; ``parse_position`` inverts it."""

    # -- rules ----------------------------------------------------------------------------
    @abstractmethod
    def moves(self, position: Pos, /) -> Iterable[Pos]:
        """The rules: every position one move away (both players' moves in a partisan game)."""

    # -- closed form ----------------------------------------------------------------------
    def grundy(self, position: Pos) -> int | None:
        """The Grundy value by the closed form (None for outcome-only and partisan games)."""
        return None

    @property
    def terminal_grundy(self) -> int:
        """The value of a position without moves: 0, or 1 under misère play."""
        return 0

    def outcome(self, position: Pos) -> Outcome:
        """Who wins, by the closed form."""
        value = self.grundy(position)
        if value is None:
            raise NotImplementedError(f"{self.name} must define outcome()")
        return Outcome.P if value == 0 else Outcome.N

    def value(self, position: Pos) -> Fraction | Game | None:
        """The exact value of a partisan position (None for impartial games)."""
        return None

    @abstractmethod
    def winning_moves(self, position: Pos) -> list[CatalogueMove[Pos]]:
        """The winning moves found by the closed form, one per resulting position."""

    def move_json(self, move: CatalogueMove[Pos]) -> dict[str, Any]:
        """A move as JSON: ``to`` in the input notation, plus ``move`` (a description)."""
        payload: dict[str, Any] = {"to": self.format_position(move.to), "move": move.label}
        if move.player is not None:
            payload["player"] = move.player
        payload.update(move.extra)
        return payload

    def explain(self, position: Pos) -> RenderableType:
        """A human explanation of the closed form on ``position``."""
        return Text(f"{self.summary}")

    # -- test support: positions up to a bound, random positions ---------------------------
    @abstractmethod
    def small_positions(self, size: int) -> Iterator[Pos]:
        """Every position up to a bound growing with ``size`` (for exhaustive checks)."""

    @abstractmethod
    def random_position(self, rng: random.Random, size: int) -> Pos:
        """A random position whose parts are at most about ``size``."""

    # -- brute-force twin -----------------------------------------------------------------
    @property
    def rules(self) -> ImpartialGame[Any]:
        """The impartial game the brute-force engine searches (misère wrappers included)."""
        return self

    #: Steps the brute-force search counts per option listed (see :class:`BudgetedGame`);
    #: None: one each. Entries whose options are costly to build weight them.
    brute_option_cost: Callable[[Any], int] | None = None

    @cached_property
    def _solver(self) -> GrundySolver[Any]:
        rules = self.rules
        cost = self.brute_option_cost
        if isinstance(rules, MisereGame):
            return GrundySolver(misere(BudgetedGame(rules.base, self.limit, option_cost=cost)))
        return GrundySolver(BudgetedGame(rules, self.limit, option_cost=cost))

    def brute_size(self, position: Pos) -> BruteSize | None:
        """An upper bound, computed at once, on the positions the brute-force search of
        ``position`` memoises and the moves it lists at each (see :mod:`nimlab.catalogue.brute`);
        None where a game gives none (the search is then only stopped at its budget, while
        running). Every registered game gives one."""
        return None

    def brute_cost(self, position: Pos) -> Cost | None:
        """The estimated seconds and bytes of the brute-force search of ``position``.

        >>> from nimlab.catalogue import make_game
        >>> make_game("nim").brute_cost((100, 100, 100, 100)).seconds > 3600
        True
        """
        size = self.brute_size(position)
        return None if size is None else brute_cost(size)

    def check_brute(self, position: Pos) -> None:
        """Refuse (TooLargeError), before it starts, a search estimated over the budget
        ``--limit`` sets.

        >>> from nimlab.catalogue import make_game
        >>> make_game("kayles").check_brute((100, 100))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
          ...
        nimlab.errors.TooLargeError: the brute-force search of kayles 100,100 (at most 8.6e+41 ...
        """
        size = self.brute_size(position)
        if size is None:
            return
        shown = self.format_position(position)
        shown = shown if len(shown) <= 40 else f"{shown[:40]}... ({len(shown):,} characters)"
        check_limit(
            f"the brute-force search of {self.spec} {shown} (at most {size.states:.2g} positions,"
            f" {size.options:,} moves each)",
            brute_cost(size),
            self.limit,
        )

    def check_search(self, position: Pos) -> None:
        """What :mod:`nimlab.grundy`'s engine calls before it searches this game (e.g.
        ``nimlab.outcome(misere(game), position)``): :meth:`check_brute`."""
        self.check_brute(position)

    def brute_grundy(self, position: Pos) -> int | None:
        """The Grundy value by exhaustive search (None where the closed form gives none)."""
        return self._solver.grundy_value(position) if self.impartial else None

    def brute_value(self, position: Pos) -> Fraction | Game | None:
        """The exact value by search (partisan games; None for impartial ones)."""
        return None

    def brute_outcome(self, position: Pos) -> Outcome:
        """The outcome by exhaustive search."""
        return self._solver.outcome(position)

    def brute_winning_moves(self, position: Pos) -> set[tuple[str | None, Pos]]:
        """The winning moves by exhaustive search, as ``(player, position)`` pairs."""
        return {(None, option) for option in self._solver.winning_moves(position)}

    def step_consistent(self, position: Pos) -> bool:
        """Whether the closed form obeys one step of its recursion at ``position``.

        Impartial games: g(p) = mex of g over the options (the terminal value if none);
        outcome-only games: N iff some option is P. With the exhaustive brute-force check on
        small positions this makes an induction, so property tests sample it on big positions.
        """
        options = list(self.moves(position))
        if self.impartial:
            seen = {g for g in map(self.grundy, options) if g is not None}
            expected = mex(seen) if options else self.terminal_grundy
            return self.grundy(position) == expected
        wins = any(self.outcome(q) is Outcome.P for q in options)
        return wins == (self.outcome(position) is Outcome.N)

    # -- grundy --upto --------------------------------------------------------------------
    def sequence_position(self, n: int) -> Pos:
        """The n-th position of the ``grundy --upto`` table (see ``sequence_meaning``)."""
        raise InvalidPositionError(
            f"'grundy --upto' is not defined for {self.name}: "
            + ("it is not impartial" if not self.impartial else "it has no sequence of positions")
        )

    def sequence_cost(self, upto: int) -> Cost:
        """The estimated cost of :meth:`grundy_values` for ``upto`` (and of writing it).

        The default is about 2 µs and 100 bytes per value (a closed form per value, calibrated
        in BENCHMARKS.md); entries whose values cost more (long positions, quadratic tables)
        override it.

        >>> from nimlab.catalogue import make_game
        >>> make_game("nim").sequence_cost(999_999)
        Cost(seconds=2.0, bytes=100000000)
        """
        return Cost(saturated(upto + 1) * 2e-6, (upto + 1) * 100)

    def analysis_cost(self, position: Pos, text: str) -> Cost:
        """The estimated cost of :func:`~nimlab.catalogue.analysis.analyze` on ``position``
        (written ``text``) beyond the closed form's value and outcome: by default the winning
        moves, none from a P-position of an impartial game, else at most one per part of the
        position (measured: about a third for Nim), each a position as long as ``text``.
        Entries whose analysis does more work override it.

        >>> from nimlab.catalogue import make_game
        >>> make_game("nim").analysis_cost((3, 4, 5), "3,4,5")
        Cost(seconds=7.2e-07, bytes=90)
        >>> make_game("nim").analysis_cost((3, 3), "3,3")
        Cost(seconds=0.0, bytes=0)
        """
        if self.impartial and self.outcome(position) is Outcome.P:
            return Cost(0.0, 0)
        parts = text.count(",") + 1
        return output_cost(parts * (len(text) + 1))

    def grundy_values(self, upto: int) -> list[int | None]:
        """The Grundy values of positions ``0..upto`` of the ``grundy`` table."""
        self.sequence_position(0)  # refuses games without a sequence
        return [self.grundy(self.sequence_position(n)) for n in range(upto + 1)]

    def periodicity(self, values: Sequence[int | None]) -> tuple[int, int] | None:
        """``(period, preperiod)`` when proven for the whole sequence, else None."""
        return None
