"""The compiled searches of the misère-quotient solver against the Python ones, on real
pretensions and on spoiled P-portions (so that failures exist), and the deadline honoured
inside a compiled search."""

from __future__ import annotations

import random
import time
from functools import cache

import numpy as np
import pytest

from nimlab.errors import TooLargeError
from nimlab.octal import OctalCode
from nimlab.quotients import QuotientSolver, monoid, words
from nimlab.quotients.monoid import Product, cyclic, reduce
from nimlab.quotients.solver import Pretension

pytest.importorskip("numba")


@cache
def _state(code: str, upto: int) -> Pretension:
    solver = QuotientSolver.for_code(OctalCode.parse(code))
    solver.extend(upto)
    return solver.state


def _spoiled(p: list[bool], seed: int) -> list[bool]:
    rng = random.Random(seed)
    flipped = list(p)
    for x in rng.sample(range(1, len(p)), k=max(1, len(p) // 20)):
        flipped[x] = not flipped[x]
    return flipped


CASES = [("0.07", 20), ("0.16", 16), ("4.7", 16), ("0.6", 15)]


@pytest.mark.parametrize(("code", "upto"), CASES)
@pytest.mark.parametrize("seed", [None, 1, 2, 3])
def test_compiled_searches_agree_with_python(
    code: str, upto: int, seed: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _state(code, upto)
    p = state.p if seed is None else _spoiled(state.p, seed)
    types = state.types()
    gens = [state.phi[h] for h in types]
    trans = [state.trans[h] for h in types]
    column, columns = state.monoid.column, state.monoid.columns
    monkeypatch.setattr(words, "_KERNEL_CELLS", 10**9)
    python_n = words.least_n_failure(column, p, gens, trans)
    python_p = words.p_failure(column, p, gens, trans)
    python_mark = words.mark_p_portion(column, gens, trans, state.monoid.size)
    monkeypatch.setattr(words, "_KERNEL_CELLS", 0)
    assert words.least_n_failure(column, p, gens, trans, columns=columns) == python_n
    assert words.p_failure(column, p, gens, trans, columns=columns) == python_p
    assert words.mark_p_portion(column, gens, trans, state.monoid.size, columns=columns) == (
        python_mark
    )
    if seed is None:  # a verified pretension has no failure at all
        assert python_n is None and python_p is None
    # below a bound: the least failure if it is below, else none
    if python_n is not None:
        bound = tuple(e + (i == len(python_n) - 1) for i, e in enumerate(python_n))
        found = words.least_n_failure(column, p, gens, trans, bound=bound, columns=columns)
        assert found == python_n
        assert words.least_n_failure(column, p, gens, trans, bound=python_n, columns=columns) is (
            None
        )


@pytest.mark.parametrize("seed", range(6))
def test_compiled_refinement_agrees_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    parts = [cyclic(rng.randint(1, 4), rng.choice([1, 2, 4])) for _ in range(3)]
    gens = [tuple(rng.randrange(part.size) for part in parts) for _ in range(3)]
    product = Product(parts, gens)
    p = [rng.random() < 0.3 for _ in range(product.size)]
    p[0] = False
    monkeypatch.setattr(monoid, "_COMPILED_CELLS", 10**9)
    slow, slow_image = reduce(product, p, product.generators)
    monkeypatch.setattr(monoid, "_COMPILED_CELLS", 0)
    fast, fast_image = reduce(product, p, product.generators)
    assert fast_image == slow_image
    assert np.array_equal(fast.array, slow.array)
    # the table is the product's, divided: x y maps to the class of x y
    table = np.array([product.column(y) for y in range(product.size)])
    image = np.array(fast_image)
    assert np.array_equal(fast.array[image[:, None], image[None, :]], image[table])


def test_a_short_budget_is_honoured_inside_a_compiled_search() -> None:
    # 0.6 settles heaps 0..16 in about a second, then its heap 17 runs compiled searches on
    # candidates of tens of thousands of elements for minutes: the run must stop near its
    # deadline, not at the end of the search under way (it overran by seconds before)
    warm = QuotientSolver.for_code(OctalCode.parse("0.6"))
    warm.extend(16)  # numba's code loaded (or compiled) outside the timed part
    solver = QuotientSolver.for_code(OctalCode.parse("0.6"))
    budget = 6.0
    started = time.monotonic()
    with pytest.raises(TooLargeError, match="heap 17 was not settled in time"):
        solver.extend(30, deadline=started + budget)
    elapsed = time.monotonic() - started
    assert solver.upto == 16
    assert elapsed < budget + 4.0  # generous: a loaded machine deschedules the process
    # the solver is left as it was after heap 16, and goes on from there
    solver.extend(16)
    assert solver.monoid.size == warm.monoid.size


@pytest.mark.parametrize("seed", range(6))
def test_compiled_product_search_numbers_as_numpy(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    parts = [cyclic(rng.randint(1, 6), rng.choice([1, 2, 4, 6])) for _ in range(4)]
    gens = [tuple(rng.randrange(part.size) for part in parts) for _ in range(rng.randint(1, 4))]
    monkeypatch.setattr(monoid, "_COMPILED_PRODUCT", 10**9)
    slow = Product(parts, gens)
    monkeypatch.setattr(monoid, "_COMPILED_PRODUCT", 0)
    fast = Product(parts, gens)
    assert np.array_equal(fast.elements, slow.elements)
    assert fast.generators == slow.generators
    assert np.array_equal(fast.columns(range(fast.size)), slow.columns(range(slow.size)))
    assert np.array_equal(fast.parents, slow.parents) and np.array_equal(fast.vias, slow.vias)
