"""``nimlab reproduce misere-census``: the misère quotients of small octal games, tabulated.

Every two-digit code ``0.d1d2`` (one-digit codes included), then the three-digit quaternary
codes (digits 0-3, Plambeck's census), then the other three-digit codes while the budget
lasts; each code gets a few seconds. The report says for each code |Q|, |P|, the proven
period and preperiod of Φ, whether Q is tame and whether the game is *plain misère Nim* (the
misère Nim rule on the Grundy values predicts every sum tried), or "not settled up to heap n"
with the order of the partial quotient; ``certificates.json`` holds every quotient's table,
P-portion and Φ for :func:`nimlab.quotients.certificate.check_certificate`.

>>> plain_misere_nim(misere_quotient("0.121"))
False
>>> plain_misere_nim(misere_quotient("0.3"))
True
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator
from functools import reduce
from operator import xor
from pathlib import Path
from typing import NamedTuple

from nimlab.budget import Budget
from nimlab.octal import OctalCode, grundy_sequence
from nimlab.quotients.brute import words_upto
from nimlab.quotients.quotient import MisereQuotient, misere_quotient

__all__ = ["census_codes", "plain_misere_nim", "write_report"]

_TWO_DIGIT_SECONDS = 5.0
_THREE_DIGIT_SECONDS = 2.0
#: Literature (Plambeck's pages on quaternary games): exactly these three-digit quaternary
#: codes are not plain misère Nim. Compared in the report, never used to compute.
_NOT_PLAIN_QUATERNARY = ("0.121", "0.123", "0.131", "0.201", "0.211", "0.312", "0.331")


def census_codes() -> Iterator[tuple[str, float]]:
    """The codes in census order, each with its seconds.

    >>> codes = [c for c, _ in census_codes()]
    >>> len(codes), codes[:3], codes[63:65], len(set(codes))
    (511, ['0.1', '0.2', '0.3'], ['0.001', '0.002'], 511)
    """
    seen = set()
    for d1, d2 in itertools.product(range(8), repeat=2):
        if d1 or d2:
            code = str(OctalCode.parse(f"0.{d1}{d2}"))
            if code not in seen:
                seen.add(code)
    two = sorted(seen, key=lambda c: (len(c), c))
    yield from ((code, _TWO_DIGIT_SECONDS) for code in two)
    quaternary = [f"0.{a}{b}{c}" for a, b, c in itertools.product(range(4), repeat=3) if c]
    others = [
        f"0.{a}{b}{c}"
        for a, b, c in itertools.product(range(8), repeat=3)
        if c and max(a, b, c) > 3
    ]
    yield from ((code, _THREE_DIGIT_SECONDS) for code in quaternary + others)


def plain_misere_nim(quotient: MisereQuotient, count: int = 3, largest: int = 24) -> bool:
    """Whether the misère Nim rule on the Grundy values (all values at most 1: the parity of
    the ones; else the nim-sum) gives the quotient's outcome for every sum of up to ``count``
    heaps of at most ``largest`` (and the quotient's heaps)."""
    assert quotient.code is not None
    top = min(largest, quotient.certified_to)
    g = grundy_sequence(quotient.code, top)
    for word in words_upto(count, top):
        values = [g[h] for h in word]
        rule = sum(values) % 2 == 1 if all(v <= 1 for v in values) else reduce(xor, values, 0) == 0
        if quotient.is_p(word) != rule:
            return False
    return True


def write_report(
    out: Path,
    *,
    budget: Budget | None = None,
    progress: Callable[[str], None] | None = None,
    limit: int | None = None,
) -> Path:
    """Run the census within ``budget`` (seconds; default 10 minutes) and write ``report.md``
    and ``certificates.json`` into ``out``; ``limit`` stops after that many codes (tests)."""
    out.mkdir(parents=True, exist_ok=True)
    seconds = 600.0 if budget is None else budget.seconds
    started = time.monotonic()
    rows: list[str] = []
    facts: dict[str, _Facts] = {}  # what the comparison with the literature needs, no tables
    skipped = 0
    # each certificate is written as soon as its code is done: the tables of hundreds of
    # quotients (nested lists, tens of MB for an order of 1,000) are never held together
    with (out / "certificates.json").open("w") as certificates:
        certificates.write("[")
        for index, (code, allowed) in enumerate(census_codes()):
            if limit is not None and index >= limit:
                break
            left = seconds - (time.monotonic() - started)
            if left < allowed and len(code) > 4:  # two-digit codes always run
                skipped += 1
                continue
            if progress is not None:
                progress(f"misère census: {code} ({index + 1})")
            quotient = misere_quotient(code, seconds=allowed)
            facts[code] = fact = _Facts(
                plain_misere_nim(quotient), quotient.tame, quotient.certified_to, quotient.order
            )
            certificates.write(("," if len(facts) > 1 else "") + json.dumps(quotient.certificate()))
            rows.append(_row(code, quotient, fact.plain))
            del quotient
        certificates.write("]")
    lines = [
        "# Misère quotients of small octal games",
        "",
        "Computed by `nimlab misere` (a pretension extended heap by heap; every quotient",
        "passes the P- and N-failure searches, a proof that it predicts the misère outcome of",
        "every sum of heaps up to `certified to`). A period of Φ is proven by the octal",
        "periodicity theorem applied to Φ: the quotient is then that of all heaps.",
        "*Plain* = the misère Nim rule on the Grundy values gives every sum of up to three",
        "heaps of at most 24 (within the certified heaps). Each code had",
        f"{_TWO_DIGIT_SECONDS:g} s (two digits) or {_THREE_DIGIT_SECONDS:g} s (three digits);",
        f"the run took {time.monotonic() - started:.0f} s for {len(facts)} codes"
        + (f" ({skipped} three-digit codes left out by the budget)." if skipped else "."),
        "",
        "| code | \\|Q\\| | \\|P\\| | period | preperiod | tame | plain | certified to |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
        "",
        "## Against the literature",
        "",
        *_literature(facts),
        "",
        "Certificates: `certificates.json` (table, P-portion, Φ per code); recheck one with",
        "`nimlab.quotients.certificate.check_certificate` (the proof, and brute force on small"
        " sums).",
    ]
    report = out / "report.md"
    report.write_text("\n".join(lines) + "\n")
    return report


class _Facts(NamedTuple):
    """What the census keeps of a code's quotient after its row and certificate are written."""

    plain: bool
    tame: bool
    certified_to: int
    order: int


def _row(code: str, q: MisereQuotient, plain_nim: bool) -> str:
    if q.period is not None:
        scope = f"all heaps (proof to {q.certified_to})"
    elif q.settled:
        scope = f"{q.certified_to} (no period proven)"
    else:
        scope = f"not settled up to heap {q.certified_to + 1} (partial order {q.order})"
    plain = "yes" if plain_nim else "no"
    period = "-" if q.period is None else str(q.period)
    preperiod = "-" if q.preperiod is None else str(q.preperiod)
    tame = "yes" if q.tame else "no"
    cells = [code, str(q.order), str(q.p_order), period, preperiod, tame, plain, scope]
    return "| " + " | ".join(cells) + " |"


def _literature(results: dict[str, _Facts]) -> list[str]:
    quaternary = [c for c in results if len(c) == 5 and set(c[2:]) <= set("0123")]
    lines = []
    if len(quaternary) == 48:
        not_plain = sorted(c for c in quaternary if not results[c].plain)
        agree = tuple(not_plain) == _NOT_PLAIN_QUATERNARY
        lines.append(
            "- Three-digit quaternary codes that are not plain misère Nim: "
            f"{', '.join(not_plain)} — Plambeck lists exactly .121 .123 .131 .201 .211 .312 .331:"
            f" {'agrees' if agree else 'DISAGREES'}. Of these, "
            + ", ".join(c for c in not_plain if not results[c].tame)
            + " have a wild quotient; the others a tame one whose Φ is not the Grundy values'."
        )
    dawson = results.get("0.07")
    if dawson is not None:
        lines.append(
            f"- Dawson's Kayles 0.07: here settled to heap {dawson.certified_to} (order"
            f" {dawson.order}) in {_TWO_DIGIT_SECONDS:g} s; Siegel (2007) reports order 360 at"
            " heap 30, which `misere_quotient('0.07', 30)` reproduces (a few seconds;"
            " tests/misere/test_misere_dawson.py)."
        )
    return lines or ["- (the census ran too few codes to compare)"]
