"""Restricted games (the double oracle): same exact values as the whole LP, smaller trees."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.errors import NimlabError
from nimlab.extensive.oracle import Round, solve_restricted
from nimlab.extensive.restrict import HistoryIndex, Restriction
from nimlab.extensive.solve import solve
from nimlab.extensive.tree import build_tree

CASES = [
    ("sn", (3, 3, 1), False),
    ("sn", (3, 2, 1), False),
    ("sn", (4, 3, 1), False),
    ("sn", (4, 4, 1), True),
    ("sn", (3, 3, 2), True),
    ("fsn", (3, 3, 1), False),
    ("fsn", (3, 2, 1), True),
    ("kn", (3, 2), False),
    ("kn", (2, 2, 1), True),
    ("kn-empty", (3, 2), False),
    ("kn-empty", (2, 2, 1), False),
]


@pytest.mark.parametrize(("variant", "heaps", "misere"), CASES)
def test_restricted_games_give_the_whole_lp_value(
    variant: str, heaps: tuple[int, ...], misere: bool
) -> None:
    whole = solve(variant, heaps, misere=misere, method="lp", decompose=False)
    restricted = solve_restricted(variant, heaps, misere=misere)
    assert whole.exact and restricted.exact, restricted.certificate
    assert restricted.value == whole.value
    assert restricted.certificate.lower == restricted.certificate.upper == whole.value


def test_solve_by_restricted_parts_matches_the_lp() -> None:
    by_lp = solve("sn", (5, 4, 1), method="lp")
    by_parts = solve("sn", (5, 4, 1), method="restricted")
    assert by_parts.exact and by_parts.value == by_lp.value
    assert "restricted games" in by_parts.certificate.method


@given(
    heaps=st.lists(st.integers(0, 3), min_size=2, max_size=3).filter(any),
    misere=st.booleans(),
)
@settings(max_examples=12, deadline=None)
def test_restricted_value_equals_lp_value_on_random_positions(
    heaps: list[int], misere: bool
) -> None:
    position = tuple(heaps)
    whole = solve("sn", position, misere=misere, method="lp", decompose=False)
    assert solve_restricted("sn", position, misere=misere).value == whole.value


def test_bounds_tighten_to_the_value_and_trees_stay_small() -> None:
    rounds: list[Round] = []
    result = solve_restricted("sn", (6, 6, 1), root_heap=0, progress=rounds.append)
    full = build_tree("sn", (6, 6, 1), root_heap=0)
    assert result.exact
    assert rounds[0].upper >= rounds[-1].upper - 1e-12
    assert rounds[0].lower <= rounds[-1].lower + 1e-12
    assert abs(rounds[-1].upper - rounds[-1].lower) < 1e-9
    assert max(max(r.nodes) for r in rounds) * 4 < full.nodes


def test_a_restricted_player_keeps_only_allowed_actions() -> None:
    index = HistoryIndex()
    rule = Restriction()
    tree = build_tree("sn", (3, 3, 1), restrict=(rule, None), index=index)
    assert all(len(i.actions) == 1 for i in tree.infosets if i.player == 0)
    assert any(len(i.actions) > 1 for i in tree.infosets if i.player == 1)


def test_a_restricted_build_needs_a_history_index() -> None:
    with pytest.raises(ValueError, match="HistoryIndex"):
        build_tree("sn", (3, 3, 1), restrict=(Restriction(), None))


def test_unknown_method_is_refused() -> None:
    with pytest.raises(NimlabError, match="unknown method"):
        solve("sn", (3, 3, 1), method="simplex")


@given(
    heaps=st.sampled_from([(3, 3, 1), (4, 3, 1), (3, 2, 2)]),
    held=st.sampled_from([0, 1]),
    seed=st.integers(0, 10_000),
)
@settings(max_examples=15, deadline=None)
def test_any_restriction_bounds_the_value_on_the_held_players_side(
    heaps: tuple[int, int, int], held: int, seed: int
) -> None:
    # Holding R to arbitrary action sets can only help L (an upper bound), and holding L
    # can only help R (a lower bound); the certified bound from the restricted tree too.
    import random

    from nimlab.extensive.certify import certify_lp
    from nimlab.extensive.lp import solve_lp
    from nimlab.extensive.seqform import sequence_form

    value = solve("sn", heaps, method="lp", decompose=False).value
    rng = random.Random(seed)
    index = HistoryIndex()
    whole = build_tree("sn", heaps, restrict=(None, None), index=index)
    assert whole.history_ids is not None
    rule = Restriction()
    for info in whole.infosets:
        if info.player == held and rng.random() < 0.7:
            for act in rng.sample(info.actions, rng.randint(1, len(info.actions))):
                rule.allow(whole.history_ids[held][info.hist], act, info.belief, info.pending)
    restrict = (rule, None) if held == 0 else (None, rule)
    tree = build_tree("sn", heaps, restrict=restrict, index=index)
    form = sequence_form(tree)
    lp = solve_lp(form)
    certificate, _ = certify_lp(tree, form, lp)
    if held == 1:
        assert lp.value >= float(value) - 1e-9 and certificate.upper >= value
    else:
        assert lp.value <= float(value) + 1e-9 and certificate.lower <= value


@given(
    heaps=st.sampled_from([(3, 3, 1), (4, 3, 1), (3, 2, 2)]),
    seed=st.integers(0, 10_000),
)
@settings(max_examples=15, deadline=None)
def test_any_starting_basis_reaches_the_same_optimum(
    heaps: tuple[int, int, int], seed: int
) -> None:
    """A warm start only changes where the simplex starts: from random basic masks (of any
    count, repaired by HiGHS as an alien basis) the optimum value is the cold one."""
    import random

    import numpy as np

    from nimlab.extensive.lp import solve_lp
    from nimlab.extensive.seqform import sequence_form

    rng = np.random.default_rng(seed)
    tree = build_tree("sn", heaps, restrict=(None, None), index=HistoryIndex())
    form = sequence_form(tree)
    cold = solve_lp(form)
    columns = rng.random(cold.basic_cols.size) < random.Random(seed).random()
    rows = rng.random(cold.basic_rows.size) < 0.5
    warm = solve_lp(form, start=(columns, rows))
    assert abs(warm.value - cold.value) < 1e-9


def test_a_basis_is_carried_by_the_names_of_sequences_and_information_sets() -> None:
    """The same game built again (same HistoryIndex) has the same names, so the optimal basis
    comes back unchanged; a game with more allowed actions keeps the old statuses and starts
    its new columns non-basic and its new rows basic."""
    from nimlab.extensive.lp import solve_lp
    from nimlab.extensive.seqform import sequence_form
    from nimlab.extensive.warm import Basis, lp_names

    index = HistoryIndex()
    rule = Restriction()
    small = build_tree("sn", (4, 3, 1), restrict=(None, rule), index=index)
    form = sequence_form(small)
    names = lp_names(small, form)
    lp = solve_lp(form)
    basis = Basis.named(names, lp.basic_cols, lp.basic_rows)
    again = build_tree("sn", (4, 3, 1), restrict=(None, rule), index=index)
    assert lp_names(again, sequence_form(again)) == names
    columns, rows = basis.carried(names)
    assert (columns == lp.basic_cols).all() and (rows == lp.basic_rows).all()
    whole = build_tree("sn", (4, 3, 1), restrict=(None, None), index=index)
    grown = lp_names(whole, sequence_form(whole))
    assert set(names[0]) < set(grown[0]) and set(names[1]) < set(grown[1])
    columns, rows = basis.carried(grown)
    for name, basic in zip(grown[0], columns.tolist(), strict=True):
        assert basic == basis.columns.get(name, False)
    for name, basic in zip(grown[1], rows.tolist(), strict=True):
        assert basic == basis.rows.get(name, True)


def test_solve_reports_every_round_with_its_part() -> None:
    seen: list[tuple[int | None, Round]] = []
    result = solve("sn", (4, 4, 1), method="restricted", progress=lambda k, r: seen.append((k, r)))
    assert result.exact
    assert {k for k, _ in seen} == {0, 2}  # heaps 4 and 1 (the second 4 mirrors the first)
    for k in (0, 2):
        numbers = [r.index for part, r in seen if part == k]
        assert numbers == list(range(1, len(numbers) + 1))


def test_cli_method_option(cli: Any) -> None:
    r = cli("solve", "sn", "4", "4", "1", "--method", "restricted", "--json")
    assert r.code == 0 and r.json()["value"] == "1/5" and r.json()["exact"] is True
    assert "restricted games" in r.json()["certificate"]["method"]
    bad = cli("solve", "sn", "4", "4", "1", "--method", "simplex")
    assert bad.code == 2 and bad.err.startswith("error: unknown --method")
