"""Dawson's Kayles (0.07): the partial quotient at heap 30 has order 360 (Siegel, 2007)."""

from __future__ import annotations

from nimlab.quotients import misere_quotient


def test_dawson_kayles_order_360_at_heap_30() -> None:
    # Plambeck and Siegel report Q_30 of 0.07 of order 360 (MisereSolver, Siegel 2007); about
    # a minute on one core (the quotient grows from 176 at heap 27 to 360 at heap 30)
    quotient = misere_quotient("0.07", 30)
    assert (quotient.order, quotient.certified_to) == (360, 30)
    assert quotient.expansions == (2, 4, 10, 14, 25, 27, 30)
