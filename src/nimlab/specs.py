"""What a computation is called: its spec string, its method and its results-store key.

A computation nimlab can store is one of three kinds, each named by a canonical **spec**:

- ``grundy``: ``octal(0.07;upto=1000)`` (the octal game's Grundy values and proven period) or
  ``grundy-game(upto=1000)`` (Grundy's game, which has no octal code);
- ``scoring``: ``scoring(5,4,2)`` (Scoring Nim's f_N; empty piles are left out);
- ``solve``: ``sn(3,3,1)``, ``kn(2,1;misere)`` (``sn``, ``fsn``, ``kn``, ``kn-empty``).

Heap positions are canonical as multisets, largest heap first. The **store key** is the triple
(spec, method, nimlab version).

Methods. The key records the method the computation was told to run, after every forced
choice, never a default it did not use: ``solve --method lp`` is stored as ``lp``,
``restricted`` as ``restricted``, and ``auto`` as ``auto``. ``auto`` is not a guess: it is a
deterministic rule of each nimlab version (for ``solve``: the whole tree's LP below a million
estimated nodes, restricted games above, decided per first heap; for ``grundy``: the plain
method below 10,000 values, else the sparse one, compiled when numba is there), and the
version is part of the key, so (spec, ``auto``, version) names exactly what ran. Scoring Nim
has no ``auto``: ``grid`` (the default) and ``exact`` are stored as such.

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
>>> with_cached({"value": "1"}, True)
{'value': '1', 'cached': True}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from nimlab.core.heaps import Heaps, check_heaps, format_heaps, parse_heap, parse_heaps
from nimlab.errors import InvalidPositionError, UnknownGameError

__all__ = [
    "GRUNDY_GAME",
    "METHODS",
    "SOLVE_VARIANTS",
    "Task",
    "canonical_position",
    "octal_task",
    "parse_spec",
    "scoring_task",
    "solve_task",
    "with_cached",
]

SOLVE_VARIANTS = ("sn", "fsn", "kn", "kn-empty")
GRUNDY_GAME = "grundy-game"
"""The code name of Grundy's game in ``sweep grundy --codes`` (it is not an octal game)."""

AUTO = "auto"
METHODS: dict[str, tuple[str, ...]] = {
    "grundy": ("auto", "plain", "sparse", "numba"),  # nimlab.octal.METHODS
    "scoring": ("grid", "exact"),
    "solve": ("auto", "lp", "restricted"),  # nimlab.extensive.solve.METHODS
}
"""Each kind's methods, the default first."""


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
        return METHODS[self.kind] if self.method == AUTO else (self.method,)


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


def octal_task(code: str, upto: int, *, method: str | None = None) -> Task:
    """The task computing ``g(0..upto)`` of the octal game ``code`` and its proven period;
    ``code`` may also be the name ``grundy-game`` (Grundy's game, which has no octal code).

    >>> octal_task("grundy-game", 9).spec
    'grundy-game(upto=9)'
    >>> octal_task("0.07", 9, method="fast")
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: unknown method 'fast' for grundy; known: auto, plain, \
sparse, numba
    """
    from nimlab.octal import OctalCode

    chosen = _method("grundy", method)
    if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
        raise InvalidPositionError(f"upto must be a non-negative integer, got {upto!r}")
    if code.strip() == GRUNDY_GAME:
        params = {"code": GRUNDY_GAME, "upto": upto, "method": chosen}
        return Task("grundy", f"{GRUNDY_GAME}(upto={upto})", chosen, params)
    canonical = str(OctalCode.parse(code))
    params = {"code": canonical, "upto": upto, "method": chosen}
    return Task("grundy", f"octal({canonical};upto={upto})", chosen, params)


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
    position: Iterable[object],
    *,
    misere: bool = False,
    method: str | None = None,
    max_nodes: int | None = None,
    budget: tuple[float, int] | None = None,
) -> Task:
    """The task solving ``variant`` (sn, fsn, kn, kn-empty) at ``position`` by ``method``
    (auto, lp, restricted); ``max_nodes`` and ``budget`` (seconds, bytes; default: the
    command line's, see :mod:`nimlab.budget`), not part of the spec, lift or lower the
    tree-size limit and the estimated cost allowed. A position needs a chip.

    >>> solve_task("kn", (0, 0))
    Traceback (most recent call last):
    ...
    nimlab.errors.InvalidPositionError: kn(0,0) has no chips: give at least one non-empty heap
    """
    if variant not in SOLVE_VARIANTS:
        raise UnknownGameError(
            f"unknown variant {variant!r}; known variants: {', '.join(SOLVE_VARIANTS)}"
        )
    chosen = _method("solve", method)
    heaps = canonical_position(position)
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
    if max_nodes is not None:
        params["max_nodes"] = max_nodes
    if budget is not None:
        params["budget"] = list(budget)
    return Task("solve", spec, chosen, params)


_SPEC_RE = re.compile(r"\s*([a-z-]+)\((.*)\)\s*")


def parse_spec(text: str) -> Task:
    """The task of a spec string (with the kind's default method); the inverse of ``.spec``.

    >>> parse_spec("octal(.07;upto=5)").spec, parse_spec("sn(1,3,3;misere)").spec
    ('octal(0.07;upto=5)', 'sn(3,3,1;misere)')
    >>> parse_spec("grundy-game(upto=40)").spec
    'grundy-game(upto=40)'
    >>> parse_spec("chess(1)")
    Traceback (most recent call last):
    ...
    nimlab.errors.UnknownGameError: unknown spec 'chess(1)'; known: octal(CODE;upto=N), ...
    """
    match = _SPEC_RE.fullmatch(text)
    known = (
        "octal(CODE;upto=N), grundy-game(upto=N), scoring(H,...),"
        " VARIANT(H,...[;misere]) for sn, fsn, kn, kn-empty"
    )
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
