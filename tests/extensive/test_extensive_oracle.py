"""Restricted games (the double oracle): same exact values as the whole LP, smaller trees."""

from __future__ import annotations

import contextlib
import functools
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.equilibrium.warm import Start
from nimlab.errors import NimlabError
from nimlab.hidden.children import COMPACT_FROM, ChildTable
from nimlab.hidden.oracle import Round, solve_restricted
from nimlab.hidden.restrict import Restriction
from nimlab.hidden.solve import solve
from nimlab.hidden.tree import build_tree
from tests.extensive.grown import allow_at_random, grow_at_random

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
    rule = Restriction()
    tree = build_tree("sn", (3, 3, 1), restrict=(rule, None))
    assert all(len(i.actions) == 1 for i in tree.infosets if i.player == 0)
    assert any(len(i.actions) > 1 for i in tree.infosets if i.player == 1)


def test_a_history_has_one_name_in_every_tree_and_its_own() -> None:
    """A history's name is a function of its path of events, so the same path is named alike
    in the tree where L is held and in the one where R is; within a tree names differ."""
    from nimlab.hidden.restrict import NO_HISTORY, history_name

    def name_of(player: int, path: tuple[str, ...]) -> int:
        name = history_name(player, NO_HISTORY, "")  # the root's event is empty
        for event in path:
            name = history_name(player, name, event)
        return name

    trees = [
        build_tree("sn", (5, 4, 1), restrict=(Restriction(), None)),
        build_tree("sn", (5, 4, 1), restrict=(None, Restriction())),
    ]
    paths: list[dict[tuple[str, ...], int]] = [{}, {}]
    for tree in trees:
        assert tree.history_ids is not None
        for player in (0, 1):
            names = tree.history_ids[player]
            assert len(set(names)) == len(names) > 60
            for h, name in enumerate(names):
                path = tree.history(player, h)
                assert name == name_of(player, path)
                assert paths[player].setdefault(path, name) == name
    assert build_tree("sn", (4, 3, 1)).history_ids is None  # nothing to name


def test_unknown_method_is_refused() -> None:
    with pytest.raises(NimlabError, match="unknown method"):
        solve("sn", (3, 3, 1), method="simplex")


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
    compact_from=st.sampled_from([1, COMPACT_FROM]),
)
@settings(max_examples=25, deadline=None)
def test_a_grown_tree_is_the_tree_built_with_its_actions(
    case: tuple[str, tuple[int, ...]], held: int, seed: int, rounds: int, compact_from: int
) -> None:
    """Growing a restricted tree gives the game a fresh build gives when every information set
    of the held player is allowed exactly the actions it has in the grown tree: the same
    nodes, information sets, and terminals with the same named sequences and payoffs. The
    grown tree's history children are kept in dicts, or in flat arrays from the first on."""
    from nimlab.equilibrium.seqform import sequence_form

    variant, heaps = case
    tables = functools.partial(ChildTable, compact_from=compact_from)
    with mock.patch("nimlab.hidden.builder.ChildTable", tables):
        builder, _ = grow_at_random(variant, heaps, held, seed, rounds)
    assert all((table.small is None) == (len(table) >= compact_from) for table in builder.children)
    grown = builder.tree
    sequence_form(grown)  # the numbering is consistent (consecutive per information set)
    for index, info in enumerate(grown.infosets):  # each sequence names its information set
        owners = grown.seq_infoset[info.player][info.first_seq : info.first_seq + len(info.actions)]
        assert list(owners) == [index] * len(info.actions)
    exact = Restriction()
    for info in grown.infosets:
        if info.player == held:
            for act in info.actions:
                exact.allow(grown.history_ids[held][info.hist], act, info.belief, info.pending)
    restrict = (exact, None) if held == 0 else (None, exact)
    fresh = build_tree(variant, heaps, restrict=restrict)
    assert _game_by_names(grown) == _game_by_names(fresh)


@given(
    case=st.sampled_from([("sn", (4, 3, 1)), ("kn", (3, 2)), ("fsn", (3, 2, 1))]),
    held=st.sampled_from([0, 1]),
    seed=st.integers(0, 10_000),
    rounds=st.integers(1, 4),
    start=st.sampled_from(["own", "extended", "fresh"]),
)
@settings(max_examples=20, deadline=None)
def test_the_extended_lp_is_the_lp_of_the_grown_tree(
    case: tuple[str, tuple[int, ...]], held: int, seed: int, rounds: int, start: Start
) -> None:
    """The LP carried round after round (a kept model extended, the whole LP on a new solver
    from the kept basis with its own start, or afresh) solves the LP of the grown tree: the same
    value as a fresh LP of it, plans that satisfy the grown tree's constraints, and a basis
    whose columns are as many as its tight rows need (a square system)."""
    import random

    import numpy as np

    from nimlab.equilibrium.lp import solve_lp
    from nimlab.equilibrium.seqform import sequence_form
    from nimlab.equilibrium.warm import GrowingLp
    from nimlab.hidden.tree import growing_tree

    variant, heaps = case
    rng = random.Random(seed)
    rule = Restriction()
    builder = growing_tree(variant, heaps, held, rule)
    tree, lp = builder.tree, GrowingLp(start=start)
    for number in range(rounds + 1):
        if number:
            allow_at_random(builder, rule, held, rng)
            builder.grow()
        form = sequence_form(tree)
        kept = lp.solve(tree, form)
        fresh = solve_lp(form)
        assert abs(kept.value - fresh.value) < 1e-9
        e, f = np.zeros(form.E.shape[0]), np.zeros(form.F.shape[0])
        e[0] = f[0] = 1
        assert np.allclose(form.E @ kept.x, e) and np.allclose(form.F @ kept.y, f)
        assert int(kept.basic_cols.sum()) + int(kept.basic_rows.sum()) == len(kept.basic_rows)
        _assert_kept_status_is_highs_basis(lp, kept)


def _assert_kept_status_is_highs_basis(lp: Any, solution: Any) -> None:
    """The status codes a GrowingLp keeps (to start the next round) are HiGHS's basis: its
    basic columns and rows those of the solution; and, where the solver is kept, every code
    as HiGHS has it (a non-basic equation may be at either bound, which are equal). With its
    own start the solver is let go after each solve (the next starts from these codes), and
    afresh too."""
    import numpy as np

    from nimlab.equilibrium.warm import BASIC, LOWER, UPPER

    columns = np.concatenate([lp.model["x"], lp.model["q"]])
    rows = np.concatenate([lp.model["y"], lp.model["e"]])
    assert ((lp.status[0][columns] == BASIC) == solution.basic_cols).all()
    assert ((lp.status[1][rows] == BASIC) == solution.basic_rows).all()
    if lp.start != "extended":
        assert lp.highs is None
        return
    basis = lp.highs.getBasis()
    cols = np.array([int(s) for s in basis.col_status])
    rows = np.array([int(s) for s in basis.row_status])
    assert cols.tolist() == lp.status[0].tolist()
    equation = np.zeros(len(rows), dtype=bool)
    equation[lp.model["e"]] = True
    kept = lp.status[1]
    at_a_bound = np.isin(rows, (LOWER, UPPER)) & np.isin(kept, (LOWER, UPPER))
    assert ((rows == kept) | (equation & at_a_bound)).all()


def test_solve_reports_every_round_with_its_part() -> None:
    seen: list[tuple[int | None, Round]] = []
    result = solve("sn", (4, 4, 1), method="restricted", progress=lambda k, r: seen.append((k, r)))
    assert result.exact
    assert {k for k, _ in seen} == {0, 2}  # heaps 4 and 1 (the second 4 mirrors the first)
    for k in (0, 2):
        numbers = [r.index for part, r in seen if part == k]
        assert numbers == list(range(1, len(numbers) + 1))
    for _, step in seen:  # each round's two LPs fit in the round, and are timed
        assert 0 < sum(step.lp_seconds) <= step.seconds
    later = sum(sum(step.iterations) for _, step in seen if step.index > 1)
    assert later > 0  # the grown LPs move from the kept basis (the first may be presolved away)


def test_cli_method_option(cli: Any) -> None:
    r = cli("solve", "sn", "4", "4", "1", "--method", "restricted", "--json")
    assert r.code == 0 and r.json()["value"] == "1/5" and r.json()["exact"] is True
    assert "restricted games" in r.json()["certificate"]["method"]
    bad = cli("solve", "sn", "4", "4", "1", "--method", "simplex")
    assert bad.code == 2 and bad.err.startswith("error: unknown --method")


@pytest.mark.parametrize(
    ("variant", "heaps", "held"),
    [("sn", (3, 3, 1), 1), ("kn", (3, 2), 1), ("fsn", (4, 3, 1), 1), ("kn", (2, 2, 1), 1)],
)
def test_the_exact_basis_of_a_bounded_lp_counts_the_columns_at_one(
    variant: str, heaps: tuple[int, ...], held: int
) -> None:
    """The kept LP bounds L's plan by 1, so some non-basic columns sit at 1 (here the empty
    sequence). Re-solving its basis exactly with them moved to the right-hand
    side gives plans that satisfy the constraints exactly and certify the LP's value."""
    from fractions import Fraction

    from nimlab.equilibrium.certify import behaviour_from_plan, certify, exact_plans_from_basis
    from nimlab.equilibrium.lp import lp_matrix
    from nimlab.equilibrium.seqform import sequence_form
    from nimlab.equilibrium.warm import GrowingLp
    from nimlab.hidden.tree import growing_tree

    tree = growing_tree(variant, heaps, held, Restriction()).tree
    form = sequence_form(tree)
    lp = GrowingLp().solve(tree, form)
    assert lp.at_one is not None and lp.at_one[0]
    sizes = (form.E.shape[1], form.F.shape[0], form.F.shape[1], form.E.shape[0])
    plans = exact_plans_from_basis(
        tree, lp_matrix(form), lp.basic_cols, lp.basic_rows, sizes, lp.at_one
    )
    assert plans is not None
    x, y, _ = plans
    for matrix, plan in ((form.E.tocoo(), x), (form.F.tocoo(), y)):
        sums = [Fraction(0)] * matrix.shape[0]
        entries = zip(matrix.row.tolist(), matrix.col.tolist(), matrix.data.tolist(), strict=True)
        for r, c, v in entries:
            sums[r] += int(v) * plan[c]
        assert sums == [Fraction(1)] + [Fraction(0)] * (matrix.shape[0] - 1)
    behaviours = (behaviour_from_plan(tree, 0, x), behaviour_from_plan(tree, 1, y))
    assert behaviours[0] is not None and behaviours[1] is not None
    certificate = certify(tree, (behaviours[0], behaviours[1]), "exact basis")
    assert certificate.lower == certificate.upper
    assert abs(float(certificate.lower) - lp.value) < 1e-9


def test_a_first_heap_that_cannot_beat_another_stops_early() -> None:
    """Decomposed by L's first heap, a part whose upper bound is certified at most a value L
    secures by an earlier heap stops there: the value is still exact and that of the whole LP.
    A part that can beat the value given is solved to the end."""
    from fractions import Fraction

    restricted = solve("sn", (6, 5, 1), method="restricted")
    assert restricted.exact and "stopped at most 5/21" in restricted.certificate.method
    assert restricted.value == solve("sn", (6, 5, 1), method="lp").value == Fraction(5, 21)
    unbeaten = solve_restricted("sn", (4, 4, 1), root_heap=0, enough=Fraction(1, 10))
    assert unbeaten.exact and unbeaten.value == Fraction(1, 5)


@pytest.mark.parametrize("drop", [True, False])
def test_a_stalled_lp_goes_on_to_the_same_value(drop: bool) -> None:
    """An own-start LP that runs past the stall limit goes on from where it stopped with the
    free player's dominated sequences ruled out, or, with none to rule out, is solved again
    afresh with presolve: with a limit of one iteration every grown LP takes that path, and
    the value is still right and certified."""
    from fractions import Fraction

    import nimlab.equilibrium.warm as warm

    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(warm, "STALL_LIMIT", 1))
        if not drop:
            stack.enter_context(mock.patch.object(warm, "_dropped", return_value=None))
        dropped = stack.enter_context(mock.patch.object(warm, "_drop", wraps=warm._drop))
        result = solve_restricted("sn", (5, 5, 1), root_heap=0)
    assert (result.value, result.exact) == (Fraction(3, 13), True)
    assert dropped.called == drop
