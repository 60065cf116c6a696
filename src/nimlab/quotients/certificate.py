"""Certificates of misère quotients: the data file, and the two independent rechecks of it.

A certificate (:meth:`~nimlab.quotients.quotient.MisereQuotient.certificate`, written by
``nimlab reproduce misere-census``) holds an octal code, the multiplication table of Q, the
P-portion and Φ for heaps ``0..certified_to``. :func:`check_certificate` rechecks it twice,
sharing nothing with the solver but the game's rules:

- *the proof*: the table is a commutative monoid with identity 0 that Φ generates, the
  identity is not in P, and the searches for a P-failure and an N-failure find none (then,
  by induction on sums, every sum of heaps up to ``certified_to`` has the predicted outcome);
- *brute force*: every multiset of up to ``count`` heaps of sizes up to ``largest`` is
  searched exhaustively (:class:`~nimlab.quotients.brute.BruteMisere`) and compared.

>>> from nimlab.quotients.quotient import misere_quotient
>>> cert = misere_quotient("0.77", upto=12).certificate()
>>> check_certificate(cert, count=3, largest=8)
'0.77: proof checked for heaps up to 12; 164 sums of up to 3 heaps of at most 8 agree'
>>> cert["p_portion"] = cert["p_portion"][1:]
>>> check_certificate(cert, count=2, largest=4)  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
ValueError: 0.77: the certificate fails: the proof finds a failing sum (exponents per heap ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nimlab.octal import OctalCode
from nimlab.quotients.brute import BruteMisere, words_upto
from nimlab.quotients.monoid import Monoid
from nimlab.quotients.solver import Pretension

__all__ = ["check_certificate"]


def check_certificate(data: Mapping[str, Any], *, count: int = 3, largest: int = 10) -> str:
    """Recheck a certificate (ValueError naming what fails); a line saying what was checked."""
    code = OctalCode.parse(str(data["code"]))
    table = tuple(tuple(int(v) for v in row) for row in data["table"])
    size = len(table)
    phi = [int(x) for x in data["phi"]]
    p = [False] * size
    for x in data["p_portion"]:
        p[int(x)] = True

    def fail(why: str) -> ValueError:
        return ValueError(f"{code}: the certificate fails: {why}")

    if any(len(row) != size for row in table) or any(not 0 <= x < size for x in phi):
        raise fail("the table is not square, or Φ names elements outside it")
    for x in range(size):
        if table[0][x] != x:
            raise fail("0 is not the identity")
        for y in range(size):
            if table[x][y] != table[y][x]:
                raise fail(f"the table is not commutative at ({x}, {y})")
    if p[0]:
        raise fail("the identity (the empty sum, won by the player to move) is in P")
    monoid = Monoid(table)
    trans = []
    for n in range(len(phi)):
        reached = set()
        for option in code.heap_options(n):
            x = 0
            for h in option:
                x = table[x][phi[h]]
            reached.add(x)
        trans.append(frozenset(reached))
    failure = Pretension(monoid, p, phi, trans).least_failure()
    if failure is not None:
        raise fail(
            f"the proof finds a failing sum (exponents per heap 0..{len(phi) - 1}: {failure})"
        )
    brute = BruteMisere(code.heap_options)
    largest = min(largest, len(phi) - 1)
    checked = 0
    for word in words_upto(count, largest):
        x = 0
        for h in word:
            x = table[x][phi[h]]
        if p[x] != brute.is_p(word):
            raise fail(f"the sum {'+'.join(map(str, word))} has the other outcome by search")
        checked += 1
    return (
        f"{code}: proof checked for heaps up to {len(phi) - 1}; {checked} sums of up to {count}"
        f" heaps of at most {largest} agree"
    )
