"""The top-level Python entry points: ``nimlab.solve``, ``payoff_function``, ``analyze`` and
``find_game``, each a thin front to the subpackage that does the work.

The subpackages are imported when a function is first called (the linear-programming solvers
and numpy are heavy), so ``import nimlab`` stays fast.

>>> import nimlab
>>> nimlab.solve("sn", [3, 3, 1]).value
Fraction(1, 3)
>>> nimlab.analyze("wythoff", "3,5").outcome.value
'P'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from nimlab.core.heaps import check_heaps, parse_heaps
from nimlab.errors import InvalidPositionError, UnknownGameError

if TYPE_CHECKING:
    from nimlab.catalogue import CatalogueGame, GameAnalysis
    from nimlab.equilibrium.results import EquilibriumResult
    from nimlab.scoring import PiecewiseLinear

__all__ = ["analyze", "find_game", "payoff_function", "solve"]


def solve(
    variant: str,
    heaps: Sequence[int] | str,
    *,
    misere: bool = False,
    game: str | None = None,
    options: Mapping[str, object] | None = None,
    method: str = "auto",
    strategies: bool = False,
) -> EquilibriumResult:
    """The certified equilibrium of an imperfect-information variant of a game.

    ``variant`` is ``"sn"``, ``"fsn"``, ``"kn"`` or ``"kn-empty"``; ``method`` is ``"auto"``,
    ``"lp"`` or ``"restricted"`` (Nim; other games take the whole tree's LP). Without ``game``
    (or with ``"nim"``) ``heaps`` are Nim heaps; with a catalogue game, ``heaps`` is a position
    in its ``analyze`` notation (or a list of heap sizes) and ``options`` its options, keyed
    like the command-line flags (``{"max": 2}``, ``{"code": "0.07"}``). With ``strategies``
    the result also holds both players' equilibrium strategies in words, at every information
    set reached (as ``nimlab solve --strategy``; a notebook shows them as a table).

    >>> result = solve("sn", [3, 3, 1])
    >>> result.value, result.exact
    (Fraction(1, 3), True)
    >>> str(solve("kn", (2, 1), misere=True).value)
    '1'
    >>> str(solve("kn", "6", game="subtraction", options={"max": 2}).value)
    '0'
    >>> entry = solve("sn", [2, 1], strategies=True).strategies[0]
    >>> entry.player, entry.actions
    ('L', (('1_1', Fraction(1, 1)),))
    """
    from nimlab.hidden.solve import solve as solve_equilibrium

    if game is None or find_game(game).name == "nim":
        if options:
            given = ", ".join(sorted(options))
            raise InvalidPositionError(f"Nim takes no game options (given: {given})")
        heap_list = parse_heaps(heaps) if isinstance(heaps, str) else check_heaps(heaps)
        return solve_equilibrium(
            variant, heap_list, misere=misere, method=method, strategies=strategies
        )
    from nimlab.catalogue.registry import options_from_mapping
    from nimlab.hidden.games import solve_hidden

    position = heaps if isinstance(heaps, str) else list(heaps)
    given_options = options_from_mapping(options or {})
    return solve_hidden(
        variant, game, position, options=given_options, misere=misere, strategies=strategies
    )


def payoff_function(position: Sequence[int]) -> PiecewiseLinear:
    """Scoring Nim's exact payoff f_N of ``position`` as a piecewise-linear function of N.

    >>> f = payoff_function([3, 2, 1])
    >>> [str(f(n)) for n in (-2, 0, 1)]
    ['0', '2', '1']
    """
    from nimlab.scoring import payoff_function as scoring_payoff

    return scoring_payoff(check_heaps(position))


def find_game(name: str) -> type[CatalogueGame[Any]]:
    """The catalogue game registered under ``name`` (or an alias), as a class.

    >>> find_game("kayles").name
    'kayles'
    >>> find_game("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.UnknownGameError: unknown game 'chess'; known games: nim, ...
    """
    from nimlab.catalogue import find_game as find_catalogue_game

    if not isinstance(name, str):
        raise UnknownGameError(f"unknown game {name!r}: give a catalogue name such as 'nim'")
    return find_catalogue_game(name)


def analyze(
    game: str | CatalogueGame[Any], position: str | Sequence[int], **options: object
) -> GameAnalysis:
    """Analyse ``position`` of a catalogue game by its closed form.

    ``game`` is a catalogue name (configured by ``options`` keyed like the command's flags:
    ``set``, ``max``, ``code``, ``misere``, ...) or a configured game object; ``position`` is
    its notation string or, for games written as integers, a list of them.

    >>> analyze("nim", [3, 4, 5]).to_json()["winning_moves"][0]["to"]
    '1,4,5'
    >>> analyze("nim", "1,1", misere=True).outcome.value
    'N'
    >>> analyze("nim", [3, -1])
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: invalid heap -1: heap sizes are non-negative
    """
    from nimlab.catalogue import CatalogueGame, make_game, options_from_mapping
    from nimlab.catalogue import analyze as analyze_position

    if isinstance(game, CatalogueGame):
        if options:
            raise InvalidPositionError(
                f"options {', '.join(sorted(options))} apply to a game name; this game is "
                "already configured"
            )
        configured = game
    elif isinstance(game, str):
        configured = make_game(game, options_from_mapping(options))
    else:
        raise UnknownGameError(f"unknown game {game!r}: give a catalogue name or game object")
    text = position if isinstance(position, str) else ",".join(map(str, check_heaps(position)))
    return analyze_position(configured, text)
