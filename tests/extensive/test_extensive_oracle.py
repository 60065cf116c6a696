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


def _grown(
    variant: str, heaps: tuple[int, ...], held: int, seed: int, rounds: int
) -> tuple[Any, Restriction, HistoryIndex]:
    """A tree of ``variant`` with ``held`` restricted, grown ``rounds`` times, each time after
    allowing random actions at random information sets of the held player."""
    import random

    from nimlab.extensive.tree import growing_tree

    rng = random.Random(seed)
    rule, index = Restriction(), HistoryIndex()
    builder = growing_tree(variant, heaps, held, rule, index)
    tree = builder.tree
    for _ in range(rounds):
        for info in list(tree.infosets):
            if info.player == held and rng.random() < 0.3:
                full = builder.actions_of(held, info.belief, info.pending)
                history = tree.history_ids[held][info.hist]
                rule.allow(history, rng.choice(full), info.belief, info.pending)
        builder.grow()
    return builder, rule, index


def _game_by_names(tree: Any) -> tuple[Any, ...]:
    """A tree as sets of named information sets and terminals, whatever its numbering."""
    names: list[dict[int, tuple[Any, ...]]] = [{0: ()}, {0: ()}]
    infosets = set()
    for info in tree.infosets:
        history = tree.history(info.player, info.hist)
        infosets.add((info.player, history, tuple(sorted(map(str, info.actions)))))
        for a, act in enumerate(info.actions):
            names[info.player][info.first_seq + a] = (history, str(act))
    terminals = sorted(
        (names[0][s], names[1][t], u)
        for s, t, u in zip(tree.term_seq[0], tree.term_seq[1], tree.term_payoff, strict=True)
    )
    return tree.nodes, infosets, terminals


@given(
    case=st.sampled_from(
        [("sn", (3, 3, 1)), ("kn", (3, 2)), ("fsn", (3, 2, 1)), ("sn", (2, 2, 2))]
    ),
    held=st.sampled_from([0, 1]),
    seed=st.integers(0, 10_000),
    rounds=st.integers(1, 4),
)
@settings(max_examples=25, deadline=None)
def test_a_grown_tree_is_the_tree_built_with_its_actions(
    case: tuple[str, tuple[int, ...]], held: int, seed: int, rounds: int
) -> None:
    """Growing a restricted tree gives the game a fresh build gives when every information set
    of the held player is allowed exactly the actions it has in the grown tree: the same
    nodes, information sets, and terminals with the same named sequences and payoffs."""
    from nimlab.extensive.seqform import sequence_form

    variant, heaps = case
    builder, _, index = _grown(variant, heaps, held, seed, rounds)
    grown = builder.tree
    sequence_form(grown)  # the numbering is consistent (consecutive per information set)
    for info in grown.infosets:
        assert grown.seq_infoset[info.player][info.first_seq : info.first_seq + len(info.actions)]
    exact = Restriction()
    for info in grown.infosets:
        if info.player == held:
            for act in info.actions:
                exact.allow(grown.history_ids[held][info.hist], act, info.belief, info.pending)
    restrict = (exact, None) if held == 0 else (None, exact)
    fresh = build_tree(variant, heaps, restrict=restrict, index=index)
    assert _game_by_names(grown) == _game_by_names(fresh)


def test_a_basis_is_carried_to_the_grown_tree() -> None:
    """The optimal basis of a restricted tree, carried to the same tree grown: every old
    sequence and information set keeps its status where the renumbering put it, new columns
    start non-basic and new rows basic."""
    from nimlab.extensive.lp import solve_lp
    from nimlab.extensive.seqform import sequence_form
    from nimlab.extensive.warm import Basis, Layout

    builder, rule, _ = _grown("sn", (4, 3, 1), 1, seed=3, rounds=0)
    tree = builder.tree
    lp = solve_lp(sequence_form(tree))
    layout = Layout.of(tree)
    basis = Basis(layout, lp.basic_cols, lp.basic_rows)
    columns, rows = basis.carried(layout)
    assert (columns == lp.basic_cols).all() and (rows == lp.basic_rows).all()
    before = [(info.first_seq, len(info.actions)) for info in tree.infosets]
    for info in tree.infosets:
        if info.player == 1:
            for act in builder.actions_of(1, info.belief, info.pending):
                rule.allow(tree.history_ids[1][info.hist], act, info.belief, info.pending)
    assert builder.grow() > 0
    later = Layout.of(tree)
    columns, rows = basis.carried(later)
    moved: tuple[dict[int, int], dict[int, int]] = ({0: 0}, {0: 0})
    for i, (first, k) in enumerate(before):
        info = tree.infosets[i]
        for a in range(k):
            moved[info.player][first + a] = info.first_seq + a
    nx, ny = len(layout.seq_infoset[0]), len(layout.seq_infoset[1])
    later_nx, later_ny = tree.sequence_count(0), tree.sequence_count(1)
    assert len(columns) == later_nx + later.infosets[1] + 1
    assert len(rows) == later_ny + later.infosets[0] + 1
    assert [columns[moved[0][s]] for s in range(nx)] == lp.basic_cols[:nx].tolist()
    assert [rows[moved[1][s]] for s in range(ny)] == lp.basic_rows[:ny].tolist()
    old_q, old_e = layout.infosets[1] + 1, layout.infosets[0] + 1
    assert columns[later_nx : later_nx + old_q].tolist() == lp.basic_cols[nx:].tolist()
    assert rows[later_ny : later_ny + old_e].tolist() == lp.basic_rows[ny:].tolist()
    assert not columns[later_nx + old_q :].any() and rows[later_ny + old_e :].all()
    old_x, old_y = set(moved[0].values()), set(moved[1].values())
    assert not any(columns[s] for s in range(later_nx) if s not in old_x)
    assert all(rows[s] for s in range(later_ny) if s not in old_y)
    assert later_ny > ny  # R (held) gained sequences


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
