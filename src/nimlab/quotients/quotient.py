"""Misère quotients as results: compute, certify the period, read outcomes and moves off them.

:func:`misere_quotient` runs :class:`~nimlab.quotients.solver.QuotientSolver` heap by heap and, for
an octal game, looks for a period of the pretending function Φ after every heap, proven by the
octal periodicity theorem applied to Φ (:func:`nimlab.octal.find_period` on the element
numbers): a heap whose element and transitions repeat an earlier heap's is a conservative
extension that adds no condition, so from the proof length on the quotient never changes and
Φ stays periodic. The result, :class:`MisereQuotient`, answers the outcome of any sum of heaps
from the product of their elements, in time independent of the heap sizes once Φ is periodic.

>>> kayles = misere_quotient("0.77")
>>> kayles.order, kayles.p_order, kayles.period, kayles.preperiod, kayles.tame
(40, 9, 12, 71, False)
>>> kayles.pretending[:6]
['1', 'a', 'b', 'ab', 'a', 'c']
>>> kayles.is_p((1000, 2001, 77)), kayles.is_p((1, 1, 1))
(False, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

import numpy as np

from nimlab.errors import InvalidPositionError, TooLargeError
from nimlab.octal import OctalCode, find_period, proof_length
from nimlab.octal.periodicity import Periodicity, z_function
from nimlab.quotients.monoid import Monoid, kernel
from nimlab.quotients.presentation import present
from nimlab.quotients.solver import HeapMoves, QuotientSolver

__all__ = ["DEFAULT_UPTO", "MisereQuotient", "PeriodWatch", "is_tame", "misere_quotient"]

#: Heaps solved when no ``upto`` is given and no period is proven sooner.
DEFAULT_UPTO = 200


@dataclass(frozen=True)
class MisereQuotient:
    """The misère quotient Q of the heaps ``0..certified_to`` of a heap game, certified.

    ``phi[n]`` is the element of heap ``n``; ``p[x]`` whether element ``x`` is in the
    P-portion; ``names[x]`` its least word in the generators. When ``period`` is set, Q is the
    quotient of *all* heaps and ``phi(n + period) = phi(n)`` for ``n >= preperiod``.
    """

    game: str
    monoid: Monoid
    p: tuple[bool, ...]
    phi: tuple[int, ...]
    names: tuple[str, ...]
    generators: tuple[int, ...]
    relations: tuple[str, ...]
    period: int | None = None
    preperiod: int | None = None
    orders: tuple[int, ...] = ()
    p_orders: tuple[int, ...] = ()
    expansions: tuple[int, ...] = ()
    seconds: float = 0.0
    proof: int | None = None
    code: OctalCode | None = field(default=None, compare=False)
    #: False when the computation stopped (time, order) before the heap it was asked for
    settled: bool = True

    # -- facts -------------------------------------------------------------------------------
    @property
    def order(self) -> int:
        """|Q|."""
        return self.monoid.size

    @property
    def p_order(self) -> int:
        """|P|, the size of the P-portion."""
        return sum(self.p)

    @property
    def certified_to(self) -> int:
        """The largest heap every word of which is proven to have the predicted outcome (all
        heaps once a period is proven; then this is the heap the proof needed)."""
        return len(self.phi) - 1

    @property
    def pretending(self) -> list[str]:
        """Φ(n) for every heap computed, as words in the generators."""
        return [self.names[x] for x in self.phi]

    @property
    def p_portion(self) -> list[str]:
        """The elements of the P-portion, by name."""
        return [self.names[x] for x in range(self.order) if self.p[x]]

    @property
    def tame(self) -> bool:
        """Whether Q is the quotient of misère Nim (see :func:`is_tame`)."""
        return is_tame(self.monoid, self.p)

    @property
    def last_outside_kernel(self) -> int | None:
        """The last heap whose element is not in the kernel of Q (None if every heap's is);
        with a period, the last one over all heaps."""
        inner = kernel(self.monoid)
        outside = [n for n, x in enumerate(self.phi) if x not in inner]
        return outside[-1] if outside else None

    # -- play ---------------------------------------------------------------------------------
    def element(self, heap: int) -> int:
        """Φ(heap), reduced by the period beyond the heaps computed."""
        if heap < 0:
            raise InvalidPositionError(f"heap sizes must be non-negative, got {heap}")
        if heap < len(self.phi):
            return self.phi[heap]
        if self.period is None or self.preperiod is None:
            raise InvalidPositionError(
                f"the misère quotient of {self.game} is certified to heap {self.certified_to}"
                f" only (no period proven): heap {heap} is beyond it"
            )
        start = self.preperiod
        return self.phi[start + (heap - start) % self.period]

    def product(self, heaps: Sequence[int]) -> int:
        """The element of a sum of heaps."""
        mul = self.monoid.mul
        x = 0
        for heap in heaps:
            x = mul[x][self.element(heap)]
        return x

    def is_p(self, heaps: Sequence[int]) -> bool:
        """Whether the sum of ``heaps`` is a misère P-position (the player to move loses)."""
        return self.p[self.product(heaps)]

    # -- output -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The keys of ``nimlab misere --json``."""
        return {
            "code": self.game,
            "order": self.order,
            "p_order": self.p_order,
            "period": self.period,
            "preperiod": self.preperiod,
            "tame": self.tame,
            "pretending": self.pretending,
            "certified_to": self.certified_to,
            "generators": [self.names[g] for g in self.generators],
            "relations": list(self.relations),
            "p_portion": self.p_portion,
            "elements": list(self.names),
            "last_outside_kernel": self.last_outside_kernel,
            "expansions": list(self.expansions),
            "orders": list(self.orders),
            "settled": self.settled,
            "seconds": round(self.seconds, 3),
        }

    def certificate(self) -> dict[str, Any]:
        """The data an independent check needs: the table, P-portion and Φ (element numbers).

        Recheck it with :func:`nimlab.quotients.certificate.check_certificate`."""
        return {
            "code": self.game,
            "certified_to": self.certified_to,
            "period": self.period,
            "preperiod": self.preperiod,
            "table": [list(row) for row in self.monoid.mul],
            "p_portion": [x for x in range(self.order) if self.p[x]],
            "phi": list(self.phi),
            "names": list(self.names),
        }

    def _repr_html_(self) -> str:
        """The presentation, Φ, and (order up to 40) the multiplication table with the
        P-portion in bold."""
        head = (
            f"<p><b>misère quotient of {escape(self.game)}</b>: order {self.order},"
            f" |P| = {self.p_order}, certified to heap {self.certified_to}"
            + (
                f", Φ periodic (period {self.period}, preperiod {self.preperiod})"
                if self.period is not None
                else ""
            )
            + f"; {'tame' if self.tame else 'wild'}</p>"
        )
        gens = ", ".join(self.names[g] for g in self.generators) or "none"
        rel = "; ".join(self.relations[:40]) + (" ..." if len(self.relations) > 40 else "")
        parts = [head, f"<p>generators {escape(gens)} | relations {escape(rel)}</p>"]
        parts.append(
            "<p>Φ(n): "
            + escape(" ".join(f"{n}:{w}" for n, w in enumerate(self.pretending[:60])))
            + (" ..." if len(self.phi) > 60 else "")
            + "</p>"
        )
        if self.order <= 40:

            def cell(x: int) -> str:
                name = escape(self.names[x])
                return f"<b>{name}</b>" if self.p[x] else name

            rows = "".join(
                f"<tr><th>{cell(x)}</th>"
                + "".join(f"<td>{cell(self.monoid.mul[x][y])}</td>" for y in range(self.order))
                + "</tr>"
                for x in range(self.order)
            )
            header = "".join(f"<th>{cell(y)}</th>" for y in range(self.order))
            parts.append(
                f"<table><tr><th>&times;</th>{header}</tr>{rows}</table>"
                "<p>bold: the P-portion (the player to move loses)</p>"
            )
        return "<div>" + "".join(parts) + "</div>"


def is_tame(monoid: Monoid, p: Sequence[bool]) -> bool:
    """Whether ``(monoid, p)`` is the quotient of misère Nim: order at most 2, or the monoid
    ``{1, a} + G`` (disjoint) with ``a^2 = 1``, ``G`` an elementary abelian 2-group of order ``2^k``
    (its identity ``e`` the only other idempotent) and ``P = {a, e}`` (order ``2^k + 2``).

    >>> from nimlab.quotients.monoid import cyclic
    >>> is_tame(cyclic(1, 2), [False, True, False])
    False
    >>> nim = misere_quotient(lambda n: [(k,) if k else () for k in range(n)], upto=3)
    >>> nim.order, nim.p_order, is_tame(nim.monoid, nim.p)
    (6, 2, True)
    """
    size, mul = monoid.size, monoid.mul
    if size <= 2:
        return size == 1 or (mul[1][1] == 0 and list(p) == [False, True])
    if sum(p) != 2 or (size - 2) & (size - 3):
        return False
    idempotents = [x for x in range(size) if mul[x][x] == x]
    if len(idempotents) != 2 or any(mul[mul[x][x]][x] != x for x in range(size)):
        return False
    e = idempotents[1]
    group = {mul[e][x] for x in range(size)}
    others = [x for x in range(size) if x not in group]
    if len(group) != size - 2 or len(others) != 2 or any(mul[g][g] != e for g in group):
        return False
    a = others[1]
    return mul[a][a] == 0 and {x for x in range(size) if p[x]} == {a, e}


class PeriodWatch:
    """:func:`nimlab.octal.find_period` of a solver's Φ after every heap, in one array step
    per heap instead of a pass over Φ: ``agree[p]``, the number of last heaps ``n`` with
    ``Φ(n) = Φ(n - p)``, grows by one or drops to 0 with each heap; it is recomputed only
    when the quotient grew (the elements are renumbered).

    >>> solver = QuotientSolver.for_code(OctalCode.parse("0.77"))
    >>> watch = PeriodWatch(solver.code)
    >>> while (found := watch.update(solver)) is None:
    ...     solver.extend(solver.upto + 1)
    >>> found, found == find_period(solver.code, solver.phi), solver.upto
    (Periodicity(period=12, preperiod=71), True, 167)
    """

    def __init__(self, code: OctalCode) -> None:
        self.take = code.max_take
        self.values = np.zeros(64, dtype=np.int64)
        self.agree = np.zeros(64, dtype=np.int64)
        self.count = 0
        self.grown = -1  # the solver's number of expansions when last read

    def update(self, solver: QuotientSolver) -> Periodicity | None:
        """The period proven by the solver's Φ so far (as ``find_period``), or None."""
        phi = solver.phi
        if len(solver.expansions) != self.grown or len(phi) < self.count:
            self.grown = len(solver.expansions)
            self.count = 0
        if self.count == 0 and phi:
            self._reset(phi)
        for v in phi[self.count :]:
            self._push(v)
        return self._find()

    def _reset(self, phi: Sequence[int]) -> None:
        size = len(phi)
        self._room(size)
        self.values[:size] = phi
        z = z_function(list(reversed(phi)))
        self.agree[:] = 0
        self.agree[1:size] = z[1:size]
        self.count = size

    def _room(self, size: int) -> None:
        if size + 1 >= len(self.values):
            room = 2 * size + 2
            self.values = np.concatenate([self.values, np.zeros(room - len(self.values), int)])
            self.agree = np.concatenate([self.agree, np.zeros(room - len(self.agree), int)])

    def _push(self, v: int) -> None:
        n = self.count  # the new value is Φ(n); shifts p = 1 .. n
        self._room(n + 1)
        self.values[n] = v
        same = self.values[n - 1 :: -1][:n] == v  # Φ(n - p) == v for p = 1 .. n
        agree = self.agree[1 : n + 1]
        agree += 1
        agree *= same
        self.count = n + 1

    def _find(self) -> Periodicity | None:
        size = self.count
        if size < 2:
            return None
        period = np.arange(1, size)
        start = size - period - self.agree[1:size]
        ok = np.flatnonzero(2 * np.maximum(start, 1) + 2 * period + self.take <= size)
        if not len(ok):
            return None
        return Periodicity(int(period[ok[0]]), int(start[ok[0]]))


def misere_quotient(
    game: str | OctalCode | HeapMoves,
    upto: int | None = None,
    *,
    name: str | None = None,
    seconds: float | None = None,
    max_order: int | None = None,
) -> MisereQuotient:
    """The misère quotient of an octal game (a code or its text) or of a heap game given by
    its moves (heap -> the heaps each move leaves).

    With ``upto``, the partial quotient Q_upto (and the period, if proven by then); without,
    heaps are added until a period is proven (octal games) or ``DEFAULT_UPTO``. When
    ``seconds`` run out or the order passes ``max_order``, the quotient of the heaps settled
    so far is returned (``settled`` False: not settled up to the heap asked for).
    """
    code: OctalCode | None
    if isinstance(game, str):
        code = OctalCode.parse(game)
    elif isinstance(game, OctalCode):
        code = game
    else:
        code = None
    if upto is not None and upto < 0:
        raise InvalidPositionError(f"invalid upto {upto}: it must be non-negative")
    solver = (
        QuotientSolver.for_code(code)
        if code is not None
        else QuotientSolver(game, name=name or "heap game")  # type: ignore[arg-type]
    )
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    target = DEFAULT_UPTO if upto is None else upto
    period = None
    settled = True
    watch = PeriodWatch(code) if code is not None and upto is None else None
    while solver.upto < target:
        try:
            solver.extend(solver.upto + 1, deadline=deadline, max_order=max_order)
        except TooLargeError:
            settled = False
            break
        if watch is not None:
            period = watch.update(solver)
            if period is not None:
                break
    if code is not None and period is None:
        period = find_period(code, solver.phi)
    names, relations, gens = present(solver.monoid, solver.phi)
    return MisereQuotient(
        game=name or (str(code) if code is not None else "heap game"),
        monoid=solver.monoid,
        p=tuple(solver.p),
        phi=tuple(solver.phi),
        names=tuple(names),
        generators=tuple(gens),
        relations=tuple(relations),
        period=None if period is None else period.period,
        preperiod=None if period is None else period.preperiod,
        orders=tuple(solver.orders),
        p_orders=tuple(solver.p_orders),
        expansions=tuple(solver.expansions),
        seconds=time.monotonic() - started,
        proof=None if period is None or code is None else proof_length(code, period),
        code=code,
        settled=settled or period is not None,
    )
