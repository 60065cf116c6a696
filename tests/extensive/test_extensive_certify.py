"""Certification: exact only when both best responses meet; the exact-basis fallback works."""

from __future__ import annotations

from fractions import Fraction

import pytest

from nimlab.equilibrium import certify as certify_module
from nimlab.equilibrium.certify import Certificate, best_response_value, realisation_plan
from nimlab.hidden.solve import solve
from nimlab.hidden.tree import build_tree


def test_rounding_too_coarse_is_not_certified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(certify_module, "DENOMINATORS", (1,))
    monkeypatch.setattr(certify_module, "LIFTING_LIMIT", 0)
    result = solve("sn", (3, 3, 1))
    assert not result.exact
    assert result.certificate.lower <= Fraction(1, 3) <= result.certificate.upper
    assert result.to_json()["exact"] is False


def test_exact_basis_fallback_certifies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(certify_module, "DENOMINATORS", (1,))
    result = solve("sn", (3, 3, 1))  # SN(3,3,1) = 1/3 (seed 000, Fig. 2)
    assert result.exact and result.value == Fraction(1, 3)
    assert result.certificate.method.endswith("exact optimal basis (numeric lifting)")


def test_bounds_bracket_the_value_for_any_strategies() -> None:
    tree = build_tree("sn", (3, 3, 1))
    uniform = [tuple(Fraction(1, len(i.actions)) for _ in i.actions) for i in tree.infosets]
    lower = best_response_value(tree, 1, realisation_plan(tree, 0, uniform))
    upper = best_response_value(tree, 0, realisation_plan(tree, 1, uniform))
    assert lower <= Fraction(1, 3) <= upper
    assert not Certificate(lower, upper, "uniform").certified
