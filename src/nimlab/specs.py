"""What a computation is called: its spec string, its method and its results-store key.

A computation nimlab can store is one of three kinds, each named by a canonical **spec**:

- ``grundy``: ``octal(0.07;upto=1000)`` (the octal game's Grundy values and proven period) or
  ``grundy-game(upto=1000)`` (Grundy's game, which has no octal code);
- ``scoring``: ``scoring(5,4,2)`` (Scoring Nim's f_N; empty piles are left out);
- ``solve``: ``sn(3,3,1)``, ``kn(2,1;misere)`` (``sn``, ``fsn``, ``kn``, ``kn-empty``), and
  the variant on a catalogue game's components: ``kn[subtraction(max=2)](6)``,
  ``sn[kayles](3,2;misere)``, ``kn[red-blue-hackenbush](RB,BR)`` (the game and its options as
  :attr:`nimlab.hidden.games.HiddenGame.spec` writes them, the position in the game's
  ``analyze`` notation).

Positions are canonical as multisets, largest heap first: a value does not depend on the order
of the components (a sum is commutative, and the hidden-information rules treat every
component alike, red-blue Hackenbush stalks included), so a game's components are sorted too
(heaps and row lengths decreasing, stalks in reverse alphabetical order). Games whose
components are Nim heaps (``nim``, ``nimble``) are Nim: their task is the Nim variant's own.
The **store key** is the triple (spec, method, nimlab version).

Methods. The key records the method that actually ran, as the result says it
(:meth:`Task.recorded`): ``solve`` asked for ``auto`` is stored as ``lp``, ``restricted``,
``lp+restricted`` (a game decomposed by L's first heap whose parts took both) or ``closed
form`` (one non-empty heap); ``--method lp`` as ``lp``. A Grundy table is stored under the
engine its payload names, else as asked (``auto`` is then a deterministic rule of each nimlab
version: the plain method below 10,000 values, else the sparse one, compiled when numba is
there, and the version is part of the key). Scoring Nim has no ``auto``: ``grid`` (the
default) and ``exact`` are stored as such.

Lookups. A request that names a method is answered only by a row of that method (whoever asks
``--method restricted`` wants that computation, e.g. to compare it). A request for ``auto`` is
answered by a row of *any* method of the kind (:attr:`Task.accepts`), because every method of
a kind gives the same certified exact answer (the same value, the same Grundy values); only
the bookkeeping keys (``nodes``, ``seconds``, ``certificate``) tell which method ran, and the
row's method says it too. So a sweep or a ``--method lp`` solve serves every later default
request, and a web lookup (which asks ``auto``) finds a row of any method.

Every result JSON that can be served from a store carries ``"cached": true`` when it was read
from the store and ``"cached": false`` when it was computed now (:func:`with_cached`); the
stored payload itself never holds the key.

>>> task = octal_task(".07", 10)
>>> task.spec, task.method, task.accepts
('octal(0.07;upto=10)', 'auto', ('auto', 'plain', 'sparse', 'numba'))
>>> solve_task("sn", (1, 3, 3), method="lp").spec, solve_task("sn", (1,), method="lp").accepts
('sn(3,3,1)', ('lp',))
>>> parse_spec("scoring(2, 4,1)") == scoring_task((4, 2, 1))
True
>>> from nimlab.catalogue import GameOptions
>>> solve_task("kn", "2,6", game="subtraction", options=GameOptions(max_take=2)).spec
'kn[subtraction(max=2)](6,2)'
>>> with_cached({"value": "1"}, True)
{'value': '1', 'cached': True}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimlab.catalogue.base import GameOptions
from nimlab.core.heaps import Heaps, check_heaps, format_heaps, parse_heap, parse_heaps
from nimlab.errors import InvalidPositionError, UnknownGameError
from nimlab.hidden.variants import VARIANTS
from nimlab.hidden.variants import variant as registered

if TYPE_CHECKING:
    from nimlab.hidden.games import HiddenGame

__all__ = [
    "GRUNDY_GAME",
    "METHODS",
    "SOLVE_VARIANTS",
    "Task",
    "canonical_position",
    "game_options",
    "misere_task",
    "octal_task",
    "parse_spec",
    "scoring_task",
    "solve_task",
    "with_cached",
]

SOLVE_VARIANTS = tuple(VARIANTS)  # the registry of nimlab.hidden.variants
GRUNDY_GAME = "grundy-game"
"""The code name of Grundy's game in ``sweep grundy --codes`` (it is not an octal game)."""

AUTO = "auto"
SUMMARY_METHODS = frozenset({"summary"})
"""Methods whose rows hold a summary, not the values: they answer only tasks that ask for them
(``nimlab sweep grundy --summary``)."""
METHODS: dict[str, tuple[str, ...]] = {
    "grundy": ("auto", "plain", "sparse", "numba", "summary"),  # nimlab.octal.METHODS + summary
    "scoring": ("grid", "exact"),
    "solve": ("auto", "lp", "restricted"),  # nimlab.hidden.solve.METHODS
    "misere": ("quotient",),  # nimlab.quotients
}
"""Each kind's methods, the default first."""
RUN_METHODS: dict[str, tuple[str, ...]] = {
    "grundy": (),
    "scoring": (),
    "solve": ("lp+restricted", "closed form"),  # EquilibriumResult.method
    "misere": (),
}
"""What a stored row may record beyond :data:`METHODS`: what ``auto`` ran when no single
method of the kind names it (a game decomposed by first heap with parts of both methods; a
position with one non-empty heap, which has a closed form)."""


@dataclass(frozen=True)
class Task:
    """One named computation: its kind, canonical spec, method and the parameters to run it."""

    kind: str
    spec: str
    method: str
    params: Mapping[str, Any]

    @property
    def accepts(self) -> tuple[str, ...]:
        """The methods whose stored rows answer this task: any of the kind's for ``auto``,
        else only its own (see the module docstring)."""
        if self.method != AUTO:
            return (self.method,)
        return tuple(
            m for m in METHODS[self.kind] + RUN_METHODS[self.kind] if m not in SUMMARY_METHODS
        )

    def recorded(self, payload: Mapping[str, Any]) -> str:
        """The method a stored row of this task records: the one ``payload`` says ran (a
        solve's ``method``, a Grundy table's engine), else the one asked for.

        >>> task = solve_task("sn", (7, 7, 1))
        >>> task.method, task.recorded({"method": "lp+restricted"}), task.recorded({})
        ('auto', 'lp+restricted', 'auto')
        """
        ran = payload.get("method")
        return ran if isinstance(ran, str) and ran in self.accepts and ran != AUTO else self.method


def with_cached(payload: Mapping[str, Any], cached: bool) -> dict[str, Any]:
    """``payload`` with ``"cached"``: whether it was read from a results store (true) or
    computed now (false)."""
    return {**payload, "cached": cached}


def _method(kind: str, method: str | None) -> str:
    """``method`` checked against the kind's methods; its default when None."""
    known = METHODS[kind]
    chosen = known[0] if method is None else method
    if chosen not in known:
        raise InvalidPositionError(
            f"unknown method {chosen!r} for {kind}; known: {', '.join(known)}"
        )
    return chosen


def canonical_position(heaps: Iterable[object]) -> Heaps:
    """A position as a multiset: its heaps, largest first.

    >>> canonical_position([1, 3, 3])
    (3, 3, 1)
    """
    return tuple(sorted(check_heaps(heaps), reverse=True))


def octal_task(
    code: str, upto: int, *, method: str | None = None, max_seconds: float | None = None
) -> Task:
    """The task computing ``g(0..upto)`` of the octal game ``code`` and its proven period;
    ``code`` may also be the name ``grundy-game`` (Grundy's game, which has no octal code).

    >>> octal_task("grundy-game", 9).spec
    'grundy-game(upto=9)'
    >>> octal_task("0.07", 9, method="fast")
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: unknown method 'fast' for grundy; known: auto, plain, \
sparse, numba, summary
    >>> octal_task("0.6", 99, method="summary", max_seconds=5).params["max_seconds"]
    5

    Method ``summary`` stores :func:`nimlab.octal.summary.summarize`'s JSON (the histogram,
    rare values and proven period, or "unsettled" up to the heap reached within
    ``max_seconds``, a budget that is not part of the spec).
    """
    from nimlab.octal import OctalCode

    chosen = _method("grundy", method)
    if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
        raise InvalidPositionError(f"upto must be a non-negative integer, got {upto!r}")
    extra = {} if max_seconds is None else {"max_seconds": max_seconds}
    if code.strip() == GRUNDY_GAME:
        params = {"code": GRUNDY_GAME, "upto": upto, "method": chosen, **extra}
        return Task("grundy", f"{GRUNDY_GAME}(upto={upto})", chosen, params)
    canonical = str(OctalCode.parse(code))
    params = {"code": canonical, "upto": upto, "method": chosen, **extra}
    return Task("grundy", f"octal({canonical};upto={upto})", chosen, params)


def misere_task(code: str, upto: int | None = None, *, seconds: float = 600.0) -> Task:
    """The task computing the misère quotient of a heap game (an octal code, a catalogue
    name such as ``kayles``, or ``grundy-game``) up to heap ``upto`` (None: until Φ's period
    is proven, at most :data:`nimlab.quotients.DEFAULT_UPTO`). ``seconds`` bounds the run (a
    limit does not change a settled result, so it is not part of the spec).

    >>> misere_task("kayles", 40).spec, misere_task(".07").spec
    ('misere(0.77;upto=40)', 'misere(0.07)')
    """
    from nimlab.catalogue.misere_games import heap_game

    if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int) or upto < 0):
        raise InvalidPositionError(f"upto must be a non-negative integer, got {upto!r}")
    name, _, _ = heap_game(code)
    spec = f"misere({name})" if upto is None else f"misere({name};upto={upto})"
    return Task("misere", spec, "quotient", {"code": name, "upto": upto, "seconds": seconds})


def scoring_task(
    position: Iterable[object], *, method: str | None = None, max_cells: int | None = None
) -> Task:
    """The task computing f_N(position) as an exact function of N.

    Empty piles take no part in the game, so they are not part of the spec either.
    ``max_cells`` lifts or lowers the solver's size limit; a limit does not change a result,
    so it is not part of the spec.

    >>> scoring_task((2, 0, 4)).spec, scoring_task((1,), method="exact").method
    ('scoring(4,2)', 'exact')
    """
    chosen = _method("scoring", method)
    heaps = tuple(pile for pile in canonical_position(position) if pile)
    if not heaps:
        raise InvalidPositionError("a Scoring Nim position needs at least one non-empty pile")
    params: dict[str, Any] = {"position": list(heaps), "method": chosen}
    if max_cells is not None:
        params["max_cells"] = max_cells
    return Task("scoring", f"scoring({format_heaps(heaps)})", chosen, params)


def solve_task(
    variant: str,
    position: Iterable[object] | str,
    *,
    misere: bool = False,
    method: str | None = None,
    max_nodes: int | None = None,
    budget: tuple[float, int] | None = None,
    game: str | None = None,
    options: GameOptions | None = None,
) -> Task:
    """The task solving ``variant`` (sn, fsn, kn, kn-empty) at ``position`` by ``method``
    (auto, lp, restricted); ``max_nodes`` and ``budget`` (seconds, bytes; default: the
    command line's, see :mod:`nimlab.budget`), not part of the spec, lift or lower the
    tree-size limit and the estimated cost allowed. A position needs a chip.

    With ``game`` (a catalogue name) and its ``options``, the variant on that game's
    components, ``position`` in the game's notation (a string, or a list of heap sizes or row
    lengths); its position must give L a move.

    >>> solve_task("kn", (0, 0))
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: kn(0,0) has no chips: give at least one non-empty heap
    >>> solve_task("kn", "R,RR", game="red-blue-hackenbush")  # Blue (L) has no edge to cut
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: kn[red-blue-hackenbush](RR,R): L has no move to start
    >>> solve_task("sn", "RB,BR,B", game="red-blue-hackenbush").params["position"]
    'RB,BR,B'
    >>> solve_task("sn", "2,3", game="nimble").spec  # coins on squares 2 and 3: Nim heaps
    'sn(3,2)'
    """
    registered(variant)
    chosen = _method("solve", method)
    if game is not None:
        from nimlab.hidden.components import NimHeap
        from nimlab.hidden.games import hidden_game

        hidden = hidden_game(variant, game, options)
        if not isinstance(hidden.component, NimHeap):
            return _game_task(hidden, game, position, misere, chosen, max_nodes, budget)
        text = position if isinstance(position, str) else ",".join(map(str, position))
        position = hidden.parse(text)
    heaps = canonical_position(parse_heaps(position) if isinstance(position, str) else position)
    if not heaps:
        raise InvalidPositionError(f"a {variant} position needs at least one heap")
    suffix = ";misere" if misere else ""
    spec = f"{variant}({format_heaps(heaps)}{suffix})"
    if not any(heaps):
        raise InvalidPositionError(f"{spec} has no chips: give at least one non-empty heap")
    params: dict[str, Any] = {
        "variant": variant,
        "position": list(heaps),
        "misere": misere,
        "method": chosen,
    }
    return Task("solve", spec, chosen, _limits(params, max_nodes, budget))


def _limits(
    params: dict[str, Any], max_nodes: int | None, budget: tuple[float, int] | None
) -> dict[str, Any]:
    """``params`` with the limits that were given (they are not part of the spec)."""
    if max_nodes is not None:
        params["max_nodes"] = max_nodes
    if budget is not None:
        params["budget"] = list(budget)
    return params


def _game_task(
    hidden: HiddenGame,
    game: str,
    position: Iterable[object] | str,
    misere: bool,
    method: str,
    max_nodes: int | None,
    budget: tuple[float, int] | None,
) -> Task:
    """The task of a variant on a catalogue game's components, sorted (see the module)."""
    from nimlab.catalogue import find_game

    text = position if isinstance(position, str) else ",".join(map(str, position))
    states = tuple(sorted(hidden.parse(text), reverse=True))
    spec = hidden.spec(states, misere)
    if hidden.rules.over(states, 0):
        raise InvalidPositionError(f"{spec}: L has no move to start")
    params: dict[str, Any] = {
        "variant": hidden.variant,
        "position": hidden.component.format_position(states),
        "misere": misere,
        "method": method,
        "game": find_game(game).name,
        "options": {  # a set as a sorted set, like the spec
            key: sorted(set(value)) if key == "set" else value
            for key, value in hidden.options.items()
        },
    }
    return Task("solve", spec, method, _limits(params, max_nodes, budget))


def game_options(options: Mapping[str, Any]) -> GameOptions:
    """The catalogue options of a solve task's ``options`` (``set``, ``max``, ``code``, as
    in a result's JSON).

    >>> game_options({"set": [3, 1]}).subtraction_set, game_options({}).max_take
    ((3, 1), None)
    """
    allowed = options.get("set")
    return GameOptions(
        subtraction_set=None if allowed is None else tuple(allowed),
        max_take=options.get("max"),
        code=options.get("code"),
    )


_SPEC_RE = re.compile(r"\s*([a-z-]+)\((.*)\)\s*")
_GAME_SPEC_RE = re.compile(r"\s*([a-z-]+)\[\s*([a-z0-9-]+)\s*(?:\((.*)\))?\s*\]\((.*)\)\s*")


def parse_spec(text: str) -> Task:
    """The task of a spec string (with the kind's default method); the inverse of ``.spec``.

    >>> parse_spec("octal(.07;upto=5)").spec, parse_spec("sn(1,3,3;misere)").spec
    ('octal(0.07;upto=5)', 'sn(3,3,1;misere)')
    >>> parse_spec("grundy-game(upto=40)").spec
    'grundy-game(upto=40)'
    >>> parse_spec("kn[subtraction(S=3,1)](2,6;misere)").spec
    'kn[subtraction(S=1,3)](6,2;misere)'
    >>> parse_spec("chess(1)")
    Traceback (most recent call last):
    ...
    nimlab.errors.UnknownGameError: unknown spec 'chess(1)'; known: octal(CODE;upto=N), ...
    """
    known = (
        "octal(CODE;upto=N), grundy-game(upto=N), scoring(H,...),"
        " VARIANT(H,...[;misere]) and VARIANT[GAME](POSITION[;misere]) for sn, fsn, kn, kn-empty"
    )
    game_match = _GAME_SPEC_RE.fullmatch(text)
    if game_match is not None and game_match.group(1) in SOLVE_VARIANTS:
        return _parse_game_spec(text, *game_match.groups())
    match = _SPEC_RE.fullmatch(text)
    if match is None or match.group(1) not in ("octal", GRUNDY_GAME, "scoring", *SOLVE_VARIANTS):
        raise UnknownGameError(f"unknown spec {text!r}; known: {known}")
    name, inner = match.groups()
    if name == GRUNDY_GAME:
        key, _, value = inner.partition("=")
        if key.strip() != "upto":
            raise InvalidPositionError(f"spec {text!r}: expected grundy-game(upto=N)")
        return octal_task(GRUNDY_GAME, parse_heap(value, what="upto"))
    head, _, option = (part.strip() for part in inner.partition(";"))
    if name == "octal":
        key, _, value = option.partition("=")
        if key.strip() != "upto":
            raise InvalidPositionError(f"spec {text!r}: expected octal(CODE;upto=N)")
        return octal_task(head, parse_heap(value, what="upto"))
    heaps = parse_heaps(head)
    if name == "scoring":
        if option:
            raise InvalidPositionError(f"spec {text!r}: scoring(H,...) takes no option")
        return scoring_task(heaps)
    if option not in ("", "misere"):
        raise InvalidPositionError(f"spec {text!r}: the only option is ';misere'")
    return solve_task(name, heaps, misere=option == "misere")


def _parse_game_spec(text: str, variant: str, game: str, given: str | None, inner: str) -> Task:
    """The task of ``VARIANT[GAME(OPTIONS)](POSITION[;misere])``; the options are written as
    the game's component names them (``S=1,3``, ``max=2``, ``0.07``)."""
    position, _, option = (part.strip() for part in inner.partition(";"))
    if option not in ("", "misere"):
        raise InvalidPositionError(f"spec {text!r}: the only option is ';misere'")
    options = GameOptions()
    if given is not None:
        key, equals, value = (part.strip() for part in given.partition("="))
        if game == "subtraction" and equals and key in ("S", "max"):
            options = (
                GameOptions(subtraction_set=tuple(parse_heaps(value)))
                if key == "S"
                else GameOptions(max_take=parse_heap(value, what="max"))
            )
        elif game == "octal" and not equals:
            options = GameOptions(code=key)
        else:
            raise InvalidPositionError(
                f"spec {text!r}: options are written subtraction(S=1,3), subtraction(max=K) "
                "or octal(CODE)"
            )
    return solve_task(variant, position, misere=option == "misere", game=game, options=options)
