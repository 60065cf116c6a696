"""Misère play of any impartial catalogue game (``analyze GAME POSITION --misere``).

The last player to move loses. Octal games (``kayles``, ``dawson-kayles``, ``octal --code``)
and Grundy's game are answered from their misère quotient (:mod:`nimlab.quotients`) when one
covers the position's heaps: the quotient of all heaps once the period of Φ is proven, else
the partial quotient of the heaps up to the largest one. Otherwise the game tree is searched
(heap games of an octal code as multisets of heaps), after an estimate that refuses it over
the budget (``--limit``). :attr:`MisereEntry.method` says which ran.

>>> from nimlab.catalogue import GameOptions, make_game
>>> kayles = make_game("kayles", GameOptions(misere=True))
>>> kayles.spec, kayles.outcome((1000, 2001, 77)).value, kayles.method
('kayles(misere)', 'N', 'misere-quotient')
>>> [m.label for m in kayles.winning_moves((1, 2))]
['heap 2: 2 -> nothing']
>>> silver = make_game("silver-dollar", GameOptions(misere=True))
>>> silver.outcome((1,)).value, silver.method
('N', 'brute-force')
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from nimlab.budget import Cost, steps_budget
from nimlab.catalogue.base import CatalogueGame, CatalogueMove, check_limit, unique_moves
from nimlab.catalogue.brute import BruteSize
from nimlab.core.game import ImpartialGame, Outcome
from nimlab.core.heaps import heap_name
from nimlab.core.transforms import misere
from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.octal import OctalCode
from nimlab.quotients.brute import BruteMisere
from nimlab.quotients.quotient import MisereQuotient, misere_quotient
from nimlab.quotients.solver import HeapMoves

__all__ = ["MisereEntry", "quotient_for"]

#: Seconds given to proving the period of Φ of an octal game (most two-digit codes with a
#: period take well under a second; Kayles 0.4 s), then to the heaps a position needs.
_PERIOD_SECONDS = 3.0
_HEAPS_SECONDS = 30.0
#: The brute-force search: about 5 µs and 400 bytes per position met (BudgetedGame's figures).
_SECONDS_PER_STATE = 5e-6
_BYTES_PER_STATE = 400

_QUOTIENTS: dict[str, MisereQuotient] = {}
#: The seconds already spent on proving the period of Φ of a code, in this process.
_PERIOD_TRIED: dict[str, float] = {}


def quotient_for(
    name: str, code: OctalCode | None, moves: HeapMoves, largest: int, seconds: float
) -> MisereQuotient | None:
    """A quotient of ``name`` covering heaps up to ``largest`` (kept for the session, under the
    octal code when there is one: ``kayles`` and ``octal(0.77)`` share it), or None when none
    is found in about ``seconds``. The period of an octal game's Φ is sought once per process
    (again only with more time)."""
    key = str(code) if code is not None else name
    known = _QUOTIENTS.get(key)
    if known is not None and (known.period is not None or known.certified_to >= largest):
        return known
    game: Any = code if code is not None else moves
    period_seconds = min(_PERIOD_SECONDS, seconds)
    if code is not None and _PERIOD_TRIED.get(key, -1.0) < period_seconds:
        _PERIOD_TRIED[key] = period_seconds
        proven = misere_quotient(game, name=name, seconds=period_seconds)
        if known is None or proven.period is not None or proven.certified_to > known.certified_to:
            _QUOTIENTS[key] = known = proven
        if proven.period is not None or proven.certified_to >= largest:
            return proven
    if known is None or known.certified_to < largest:
        partial = misere_quotient(game, largest, name=name, seconds=seconds)
        if known is None or partial.certified_to > known.certified_to:
            _QUOTIENTS[key] = known = partial
    return known if known.certified_to >= largest else None


@cache
def _multisets_upto(total: int) -> int:
    """How many multisets of heaps have at most ``total`` tokens (sum of partition numbers).

    >>> _multisets_upto(4)
    12
    """
    p = [1] + [0] * total
    for part in range(1, total + 1):
        for n in range(part, total + 1):
            p[n] += p[n - part]
    return sum(p)


class MisereEntry(CatalogueGame[Any]):
    """A catalogue game under misère play; configured by ``make_game(name, misere=True)``."""

    name = "misere"
    summary = "Misère play: the player who makes the last move loses."
    notation = "as the game's"
    example = ""

    def __init__(self, base: CatalogueGame[Any]) -> None:
        self.base = base
        self.limit = base.limit
        self.method = "brute-force"
        self._quotient: MisereQuotient | None = None
        code = getattr(base, "code", None)
        self.code = code if isinstance(code, OctalCode) else None
        heap_options = getattr(base, "heap_options", None)
        self.heap_moves: HeapMoves | None = (
            self.code.heap_options
            if self.code is not None
            else heap_options
            if base.name == "grundy-game"
            else None
        )
        self._brute = BruteMisere(self.heap_moves) if self.heap_moves is not None else None

    @property
    def spec(self) -> str:
        """``kayles(misere)``, ``octal(0.07;misere)``."""
        base = self.base.spec
        return f"{base[:-1]};misere)" if base.endswith(")") else f"{base}(misere)"

    # -- notation and rules: the base game's ---------------------------------------------------
    def parse_position(self, text: str) -> Any:
        """The base game's notation."""
        return self.base.parse_position(text)

    def format_position(self, position: Any) -> str:
        """The base game's notation."""
        return self.base.format_position(position)

    def moves(self, position: Any, /) -> Iterable[Any]:
        """The base game's moves."""
        return self.base.moves(position)

    @property
    def rules(self) -> ImpartialGame[Any]:
        """The base game wrapped by ``misere``."""
        return misere(self.base.rules)

    @property
    def terminal_grundy(self) -> int:
        """A position without moves is won by the player to move."""
        return 1

    def small_positions(self, size: int) -> Iterator[Any]:
        """The base game's."""
        return self.base.small_positions(size)

    def random_position(self, rng: random.Random, size: int) -> Any:
        """The base game's."""
        return self.base.random_position(rng, size)

    def sequence_position(self, n: int) -> Any:
        """Refused: misère values are not a table of single heaps."""
        raise InvalidPositionError(
            "'grundy --upto' is not defined under misère play (values of single heaps do not"
            " add up); see 'nimlab misere GAME' for the misère quotient"
        )

    # -- the method --------------------------------------------------------------------------
    def _plan(self, position: Any) -> MisereQuotient | None:
        """The quotient that answers ``position``, or None (brute force)."""
        if self.heap_moves is None or not isinstance(position, tuple):
            self.method = "brute-force"
            return None
        largest = max(position, default=0)
        seconds = min(_HEAPS_SECONDS, steps_budget(self.limit).seconds)
        found = quotient_for(self.base.spec, self.code, self.heap_moves, largest, seconds)
        self._quotient = found
        self.method = "misere-quotient" if found is not None else "brute-force"
        return found

    @property
    def quotient(self) -> MisereQuotient | None:
        """The quotient that answered the last position asked about (None: by search)."""
        return self._quotient if self.method == "misere-quotient" else None

    def brute_size(self, position: Any) -> BruteSize | None:
        """The base game's: misère play meets the same positions."""
        return self.base.brute_size(position)

    def _brute_cost(self, position: Any) -> Cost:
        """The search that runs without a quotient: of multisets of heaps below each heap
        (octal games and Grundy's game, sorted by :class:`~nimlab.quotients.brute.BruteMisere`),
        else the base game's brute-force estimate.

        >>> from nimlab.catalogue import GameOptions, make_game
        >>> silver = make_game("silver-dollar", GameOptions(misere=True))
        >>> silver._brute_cost((10, 20, 30, 40, 50, 60, 70, 80, 90, 100)).seconds > 600
        True
        """
        if self.heap_moves is not None and isinstance(position, tuple):
            states = math.prod(_multisets_upto(min(h, 400)) for h in position)
            moves = 1 + sum(position)
            return Cost(states * moves * _SECONDS_PER_STATE, states * _BYTES_PER_STATE)
        return self.base.brute_cost(position) or Cost(0.0, 0)

    def analysis_cost(self, position: Any, text: str) -> Cost:
        """Nothing beyond the quotient when one answers; else the brute-force estimate (which
        ``analyze`` refuses over the budget)."""
        if self._plan(position) is not None:
            return Cost(0.0, 0)
        return self._brute_cost(position)

    # -- answers --------------------------------------------------------------------------------
    def grundy(self, position: Any) -> int | None:
        """None: misère Grundy values are not additive (``--brute`` searches them)."""
        return None

    def _quotient_for(self, position: Any) -> MisereQuotient | None:
        quotient = self._quotient
        if quotient is None or (
            quotient.period is None and max(position, default=0) > quotient.certified_to
        ):
            quotient = self._plan(position)
        return quotient

    def outcome(self, position: Any) -> Outcome:
        """From the quotient: P exactly when the product of the heaps' elements is in the
        P-portion; else by search."""
        quotient = self._quotient_for(position)
        if quotient is not None:
            return Outcome.P if quotient.is_p(position) else Outcome.N
        check_limit(f"the misère search of {self.spec}", self._brute_cost(position), self.limit)
        if self._brute is not None:
            return Outcome.P if self._brute.is_p(position) else Outcome.N
        return self.brute_outcome(position)

    def winning_moves(self, position: Any) -> list[CatalogueMove[Any]]:
        """Moves to positions the quotient (or the search) says are P."""
        quotient = self._quotient_for(position)
        if quotient is None and self._brute is None:
            check_limit(f"the misère search of {self.spec}", self._brute_cost(position), self.limit)
            options = sorted(self.brute_winning_moves(position), key=lambda m: str(m[1]))
            return [CatalogueMove(option, "found by search") for _, option in options]
        if quotient is None:  # the search of every option: refused by its estimate first
            check_limit(f"the misère search of {self.spec}", self._brute_cost(position), self.limit)
        moves = self.heap_moves
        assert moves is not None
        result: list[CatalogueMove[Any]] = []
        for index, heap in enumerate(position):
            rest = position[:index] + position[index + 1 :]
            if heap > self.limit:
                raise TooLargeError(
                    f"listing the moves from a heap of {heap} is over the budget; lift it with"
                    " --limit"
                )
            for left in moves(heap):
                after = rest + tuple(left)
                if quotient is not None:
                    wins = quotient.is_p(after)
                else:
                    assert self._brute is not None
                    wins = self._brute.is_p(after)
                if wins:
                    shown = "+".join(map(str, left)) or "nothing"
                    result.append(
                        CatalogueMove(
                            (*position[:index], *left, *position[index + 1 :]),
                            f"{heap_name(index)}: {heap} -> {shown}",
                            extra=(("heap", index),),
                        )
                    )
        return unique_moves(result)

    def explain(self, position: Any) -> RenderableType:
        """Which method ran, and for the quotient the heaps' elements and their product."""
        quotient = self._quotient_for(position)
        if quotient is None:
            return Text(
                f"Misère play of {self.base.spec} (the last player to move loses), by exhaustive"
                " search of the game tree: no misère quotient covers this position."
            )
        names = [quotient.names[quotient.element(h)] for h in position]
        product = quotient.names[quotient.product(position)]
        scope = (
            f"Φ periodic with period {quotient.period} from heap {quotient.preperiod}"
            if quotient.period is not None
            else f"certified for heaps up to {quotient.certified_to}"
        )
        side = "in" if quotient.is_p(position) else "not in"
        return Text(
            f"Misère play of {self.base.spec} (the last player to move loses), by its misère"
            f" quotient (order {quotient.order}, |P| = {quotient.p_order}, {scope}):"
            f" the heaps' elements {' · '.join(names) or '1'} multiply to {product}, {side} the"
            " P-portion."
        )
