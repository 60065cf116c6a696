"""``nimlab scoring H... --N X --store PATH``: f_N at X answered from the stored function, the
same key a sweep uses, equal key for key to the computation without a store."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.exact import exact_str
from nimlab.scoring.analysis import analyze_scoring
from nimlab.store import STORE_ENV, ResultStore
from nimlab.sweeps import tasks
from nimlab.sweeps.scoring import scoring_at


@pytest.fixture
def no_compute(monkeypatch: pytest.MonkeyPatch) -> None:
    """After this fixture, any computation of a sweep task fails the test."""

    def refuse(**params: Any) -> dict[str, Any]:
        raise AssertionError(f"computed again: {params}")

    for kind in list(tasks.KINDS):
        monkeypatch.setitem(tasks.KINDS, kind, refuse)


def _specs(path: Path) -> list[str]:
    with ResultStore(path) as store:
        return sorted(row.spec for row in store.results())


def _bonuses(cli: Any, heaps: tuple[str, ...]) -> list[str]:
    """Every breakpoint of f_N, a point between two, points beyond both ends, -7/2 and 0."""
    plain = cli("scoring", *heaps, "--json").json()
    xs = [Fraction(x) for x, _ in plain["breakpoints"]]
    picked = {Fraction(-7, 2), Fraction(0), Fraction(-100), Fraction(201, 2), *xs}
    picked |= {(a + b) / 2 for a, b in pairwise(xs)}
    if xs:
        picked |= {xs[0] - Fraction(1, 3), xs[-1] + Fraction(5, 7)}
    return [exact_str(x) for x in sorted(picked)]


@pytest.mark.parametrize(
    "heaps", [("5", "4", "2"), ("2", "4", "1"), ("3", "3", "1"), ("3", "0", "2")]
)
def test_stored_answer_equals_the_plain_one(
    cli: Any, tmp_path: Path, heaps: tuple[str, ...]
) -> None:
    path = str(tmp_path / "r.sqlite")
    bonuses = _bonuses(cli, heaps)
    assert any(x.startswith("-") and "/" in x for x in bonuses)  # negative rationals included
    for x in bonuses:
        plain = cli("scoring", *heaps, f"--N={x}", "--json")
        stored = cli("scoring", *heaps, f"--N={x}", "--store", path, "--json")
        assert stored.code == 0, stored.err
        # the same keys, values and order, but for whether the records were stored already
        assert list(stored.json()) == list(plain.json()), x
        assert {**stored.json(), "cached": False} == plain.json(), x
        assert {"N", "payoff", "optimal_moves", "line"} <= set(stored.json())


def test_served_from_the_sweeps_key(
    cli: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = str(tmp_path / "r.sqlite")
    common = ("--store", path, "--workers", "1", "--json")
    for piles in ("1", "2"):
        assert (
            cli("sweep", "scoring", "--piles", piles, "--max", "3", *common).json()["failed"] == 0
        )
    stored = _specs(Path(path))
    plain = cli("scoring", "2", "3", "--N=-5/2", "--json").out.replace(
        '"cached": false', '"cached": true'
    )
    request.getfixturevalue("no_compute")  # from here on every f_N must come from the store
    served = cli("scoring", "2", "3", "--N=-5/2", "--store", path, "--json")
    assert served.code == 0, served.err
    assert served.out == plain
    human = cli("scoring", "2", "3", "--N", "-5/2", "--store", path)
    assert human.code == 0 and "served from the results store" in human.out
    assert "an optimal line of play" in human.out and "f_N = " in human.out
    assert _specs(Path(path)) == stored  # nothing new was written


def test_first_call_computes_and_stores_then_serves(
    cli: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    path = tmp_path / "r.sqlite"
    first = cli("scoring", "4", "1", "2", "--N", "1/2", "--store", str(path))
    assert first.code == 0 and "computed and stored in the results store" in first.out
    assert "scoring(4,2,1)" in _specs(path)  # the key `scoring 4 1 2 --store` uses without --N
    without_n = cli("scoring", "2", "1", "4", "--store", str(path), "--json")
    request.getfixturevalue("no_compute")
    assert without_n.json() == cli("scoring", "2", "1", "4", "--store", str(path), "--json").json()
    again = cli("scoring", "1", "4", "2", "--N", "1/2", "--store", str(path), "--json")
    assert again.json()["position"] == [1, 4, 2] and again.json()["N"] == "1/2"


def test_env_variable_and_empty_piles(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "env.sqlite"
    monkeypatch.setenv(STORE_ENV, str(path))
    plain = analyze_scoring((3, 0, 1), Fraction(-2)).to_json()
    assert cli("scoring", "3", "0", "1", "--N=-2", "--json").json() == {**plain, "cached": False}
    assert "scoring(3,1)" in _specs(path)  # empty piles are not part of the key
    assert cli("scoring", "0", "0", "--N", "3", "--json").json() == {
        **analyze_scoring((0, 0), 3).to_json(),
        "cached": False,
    }  # no stones: nothing to store


def test_the_default_store_unless_opted_out(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.setattr(
        "nimlab.store.results.default_store_path", lambda: tmp_path / "default.sqlite"
    )
    assert cli("scoring", "3", "2", "--N", "1", "--json", "--no-store").code == 0
    assert not (tmp_path / "default.sqlite").exists()
    first = cli("scoring", "3", "2", "--N", "1", "--json")
    assert first.code == 0 and (tmp_path / "default.sqlite").exists()
    again = cli("scoring", "3", "2", "--N", "1", "--json")
    assert json.loads(first.out)["cached"] is False and json.loads(again.out)["cached"] is True


def test_limit_refuses_a_missing_function(cli: Any, tmp_path: Path) -> None:
    result = cli("scoring", "9", "9", "9", "--N", "1", "--max-cells", "10", "--store",
                 str(tmp_path / "r.sqlite"), "--json")  # fmt: skip
    assert result.code == 3 and "--max-cells" in result.err


@pytest.fixture(scope="module")
def shared_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One store for every example below (records fill it as the examples need them)."""
    return tmp_path_factory.mktemp("scoring-at") / "r.sqlite"


_positions = st.lists(st.integers(0, 4), min_size=1, max_size=3).filter(any)


@settings(max_examples=60, deadline=None)
@given(position=_positions, data=st.data())
def test_stored_evaluation_equals_the_computation(
    shared_store: Path, position: list[int], data: st.DataObject
) -> None:
    plain_function = analyze_scoring(position).function
    knots = [x for x, _ in plain_function.breakpoints]
    rational = st.fractions(min_value=-8, max_value=8, max_denominator=6)
    bonus = data.draw(st.sampled_from(knots) | rational if knots else rational)
    answer, _ = scoring_at(shared_store, position, bonus)
    assert answer == analyze_scoring(position, bonus).to_json()
