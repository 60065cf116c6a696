"""The numpy-only sparse columns and the sequence-form LP built from them, against SciPy and
against the SciPy-built sequence form (the reference the LP has always been built from)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix

from nimlab.equilibrium.certify import certify_lp
from nimlab.equilibrium.csc import Csc
from nimlab.equilibrium.efg_read import parse_efg, to_zero_sum
from nimlab.equilibrium.efg_solve import efg_tree
from nimlab.equilibrium.lifting import SparseExactSolver
from nimlab.equilibrium.lp import lp_matrix, solve_columns, solve_lp
from nimlab.equilibrium.seqform import lp_columns, sequence_form
from nimlab.hidden.tree import build_tree

triplets = st.integers(1, 6).flatmap(
    lambda rows: st.integers(1, 6).flatmap(
        lambda cols: st.tuples(
            st.just((rows, cols)),
            st.lists(
                st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1), st.integers(-3, 3)),
                max_size=20,
            ),
        )
    )
)


def reference(shape: tuple[int, int], cells: list[tuple[int, int, int]]) -> Any:
    dense = np.zeros(shape, dtype=np.int64)
    for r, c, v in cells:
        dense[r, c] += v
    return dense


@settings(max_examples=150, deadline=None)
@given(triplets, st.data())
def test_csc_matches_dense_arithmetic(case: Any, data: st.DataObject) -> None:
    shape, cells = case
    rows = [r for r, _, _ in cells]
    cols = [c for _, c, _ in cells]
    vals = [v for _, _, v in cells]
    m = Csc.from_triplets(rows, cols, vals, shape, dtype=np.int64)
    dense = reference(shape, cells)
    assert np.array_equal(m.dense(), dense)
    assert m.nnz == int(np.count_nonzero(dense))
    assert np.array_equal(m.transpose().dense(), dense.T)
    vector = np.array(data.draw(st.lists(st.integers(-5, 5), min_size=shape[1], max_size=shape[1])))
    assert m.times(vector).tolist() == (dense @ vector).tolist()
    other = np.array(data.draw(st.lists(st.integers(-5, 5), min_size=shape[0], max_size=shape[0])))
    assert m.transposed_times(other.astype(object)).tolist() == (dense.T @ other).tolist()
    keep_r = np.flatnonzero(
        np.array(data.draw(st.lists(st.booleans(), min_size=shape[0], max_size=shape[0])))
    )
    keep_c = np.flatnonzero(
        np.array(data.draw(st.lists(st.booleans(), min_size=shape[1], max_size=shape[1])))
    )
    assert np.array_equal(m.select(keep_r, keep_c).dense(), dense[np.ix_(keep_r, keep_c)])
    assert m.column_sums(keep_c).tolist() == dense[:, keep_c].sum(axis=1).tolist()


COIN = """EFG 2 R "coin" { "P1" "P2" }
c "" 1 "toss" { "heads" 1/3 "tails" 2/3 } 0
p "" 1 1 "saw heads" { "bet" "pass" } 0
p "" 2 1 "" { "call" "fold" } 0
t "" 1 "" { 2 -2 }
t "" 2 "" { 1 -1 }
t "" 3 "" { 0 0 }
p "" 1 2 "saw tails" { "bet" "pass" } 0
p "" 2 1 "" { "call" "fold" } 0
t "" 4 "" { -2 2 }
t "" 5 "" { 1 -1 }
t "" 6 "" { 0 0 }
"""


@pytest.mark.parametrize(
    "tree",
    [
        build_tree("sn", (3, 2, 1)),
        build_tree("kn", (2, 2)),
        efg_tree(to_zero_sum(parse_efg(COIN))),
    ],
    ids=["sn321", "kn22", "coin"],
)
def test_lp_columns_is_the_sequence_form_lp(tree: Any) -> None:
    """The numpy-built LP has exactly the entries of ``lp_matrix(sequence_form(tree))``."""
    columns = lp_columns(tree)
    form = sequence_form(tree)
    expected = lp_matrix(form).toarray()
    assert columns.exact.shape == expected.shape
    assert np.array_equal(columns.exact.dense().astype(np.float64), expected)
    assert columns.sizes == (form.E.shape[1], form.F.shape[0], form.F.shape[1], form.E.shape[0])
    largest = float(abs(form.A).max())
    assert columns.largest == largest
    normalised = lp_matrix(form).toarray()
    nx, _, ny, _ = columns.sizes
    normalised[:ny, :nx] /= largest
    assert np.allclose(columns.normalised().dense(), normalised, rtol=0, atol=0)


def test_lifting_from_numpy_columns_equals_scipy() -> None:
    cells = [(0, 0, 2), (0, 1, 1), (1, 1, 3), (2, 0, 1), (2, 2, 5), (1, 2, -1)]
    rows, cols, vals = zip(*cells, strict=True)
    numpy_columns = Csc.from_triplets(rows, cols, vals, (3, 3), dtype=np.int64)
    scipy_matrix = coo_matrix((vals, (rows, cols)), shape=(3, 3))
    for rhs in ([1, 0, 0], [0, 7, -2]):
        for transposed in (False, True):
            assert SparseExactSolver(numpy_columns).solve(rhs, transposed=transposed) == (
                SparseExactSolver(scipy_matrix).solve(rhs, transposed=transposed)
            )


@pytest.mark.parametrize(
    "tree",
    [
        build_tree("sn", (3, 2, 1)),
        build_tree("kn", (2, 2)),
        build_tree("kn", (3, 2, 1)),
        efg_tree(to_zero_sum(parse_efg(COIN))),
    ],
    ids=["sn321", "kn22", "kn321", "coin"],
)
def test_quick_certificate_agrees_with_the_full_one(tree: Any) -> None:
    """``quick`` only reorders the certificates tried: both certify the same value."""
    columns = lp_columns(tree)
    lp = solve_columns(columns.normalised(), columns.sizes)
    quick, _ = certify_lp(tree, columns, lp, quick=True)
    full, _ = certify_lp(tree, sequence_form(tree), solve_lp(sequence_form(tree)))
    assert quick.certified and full.certified
    assert quick.lower == full.lower == quick.upper
