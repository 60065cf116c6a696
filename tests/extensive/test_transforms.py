"""The four rules as transforms of a component game.

Applied to Nim heaps they are the paper's variants: their values equal, position by position,
those the Nim-only rule classes of nimlab 0.3.0 computed before the transforms replaced them
(``data/nim_variant_values.json``: every multiset of at most 3 heaps of at most 4 chips, at
most 7 chips in all under Kriegspiel, normal and misère play, whole-tree LP, certified);
their Nim actions read as before (``2_1``, ``look 1``, ``try 1_2``). Then the rules on any
component game.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from nimlab.catalogue import GameOptions
from nimlab.errors import InvalidPositionError, UnknownGameError
from nimlab.hidden.components import (
    ComponentType,
    HackenbushStalk,
    NimHeap,
    SubtractionHeap,
    components_for,
)
from nimlab.hidden.protocol import Rules
from nimlab.hidden.solve import solve
from nimlab.hidden.transforms import (
    Kriegspiel,
    KriegspielEmpty,
    Look,
    Move,
    Request,
    Step,
    fuzzy,
    kriegspiel,
    kriegspiel_empty,
    schrodinger,
)
from nimlab.hidden.variants import VARIANTS, transform, variant_rules

NIM = NimHeap()
RECORDED = json.loads((Path(__file__).parent / "data" / "nim_variant_values.json").read_text())
ROWS = RECORDED["values"]


def test_the_recorded_values_cover_the_promised_positions() -> None:
    assert RECORDED["source"].startswith("nimlab 0.3.0")
    keys = {(r["variant"], tuple(r["heaps"]), r["misere"]) for r in RECORDED["values"]}
    for variant in VARIANTS:
        for misere in (False, True):
            assert (variant, (4, 4, 4) if variant in ("sn", "fsn") else (3, 3, 1), misere) in keys
    assert len(ROWS) >= 200


@pytest.mark.parametrize(
    "row", ROWS, ids=[f"{r['variant']}-{r['heaps']}-{'m' if r['misere'] else 'n'}" for r in ROWS]
)
def test_the_transforms_on_nim_keep_the_values_of_the_nim_only_rules(row: dict[str, Any]) -> None:
    result = solve(row["variant"], tuple(row["heaps"]), misere=row["misere"], budget=None)
    assert result.exact and result.value == Fraction(row["value"])


@pytest.mark.parametrize(
    ("variant", "belief", "labels"),
    [
        ("sn", {(2, 3, 1), (1, 3, 1)}, ["look 1", "2_1", "2_2", "2_3", "3_1"]),
        ("fsn", {(2, 1), (0, 1)}, ["look 1", "2_1"]),
        ("kn", {(2, 1)}, ["try 1_1", "try 1_2", "try 2_1"]),
        ("kn-empty", {(1, 1)}, ["try 1_1", "try 2_1"]),
    ],
)
def test_nim_actions_read_as_before(variant: str, belief: set[Any], labels: list[str]) -> None:
    actions = variant_rules(variant).actions(frozenset(belief), None, 0)
    assert [str(a) for a in actions] == labels


def test_a_nim_move_takes_its_amount_from_its_heap() -> None:
    rules = variant_rules("sn")
    for state in [(3, 1), (2, 2, 1), (4,)]:
        for action in rules.actions(frozenset({state}), None, 0):
            assert isinstance(action, Move)
            (amount,) = action.label
            step = rules.step(state, action, 0)
            expected = list(state)
            expected[action.component] -= amount
            assert step.state == tuple(expected) and step.done


# --- any component game --------------------------------------------------------------------

GAMES: dict[str, ComponentType[Any]] = {
    "subtraction-set": SubtractionHeap(allowed=(1, 3)),
    "subtraction-max": SubtractionHeap(max_take=2),
    "kayles": components_for("kayles"),
    "dawson": components_for("dawson-kayles"),
    "octal-4.7": components_for("octal", GameOptions(code="4.7")),
    "grundy": components_for("grundy-game"),
    "nim2d": components_for("nim2d"),
    "hackenbush": HackenbushStalk(),
}
STARTS = {
    "subtraction-set": "4,2",
    "subtraction-max": "3,2,1",
    "kayles": "4,2",
    "dawson": "5,3",
    "octal-4.7": "4,2",
    "grundy": "6,4",
    "nim2d": "2:1,1:0",
    "hackenbush": "BRB,RB",
}


def _reachable(game: ComponentType[Any], start: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        for j, part in enumerate(state):
            for player in (0, 1):
                for _, after in game.moves(part, player):
                    new = (*state[:j], after, *state[j + 1 :])
                    if new not in seen:
                        seen.add(new)
                        todo.append(new)
    return sorted(seen, key=repr)


def _beliefs(states: list[tuple[Any, ...]], count: int, seed: int) -> Iterator[frozenset[Any]]:
    rng = random.Random(seed)
    yield from (frozenset({s}) for s in states)
    for _ in range(count):
        yield frozenset(rng.sample(states, rng.randint(2, min(6, len(states)))))


def _rules_of(game: ComponentType[Any]) -> list[Rules]:
    found: list[Rules] = [schrodinger(game), fuzzy(game), kriegspiel(game)]
    if isinstance(game, SubtractionHeap):
        found += [kriegspiel_empty(game), kriegspiel_empty(game, refuse_empty=True)]
    return found


@pytest.mark.parametrize("name", list(GAMES))
def test_kriegspiel_requests_are_the_union_of_legal_labels(name: str) -> None:
    game = GAMES[name]
    rules = kriegspiel(game)
    states = _reachable(game, game.parse_position(STARTS[name]))
    for belief in _beliefs(states, 150, 1):
        for player in (0, 1):
            requests = [r for r in rules.actions(belief, None, player) if isinstance(r, Request)]
            assert len(requests) == len(rules.actions(belief, None, player))
            assert [(r.component, r.label) for r in requests] == sorted(
                {
                    (j, label)
                    for s in belief
                    for j in range(len(s))
                    for label, _ in game.moves(s[j], player)
                }
            )
            for state, request in itertools.product(belief, requests):
                step = rules.step(state, request, player)
                j = request.component
                legal = dict(game.moves(state[j], player))
                if request.label in legal:
                    after = (*state[:j], legal[request.label], *state[j + 1 :])
                    assert step == Step(after, True, "done", "moved", None)
                else:  # refused: told so, and the refusal rules out every state allowing it
                    assert step == Step(state, False, "refused", "", None)


@pytest.mark.parametrize("name", list(GAMES))
def test_no_move_adds_a_component_and_every_step_keeps_to_the_rules(name: str) -> None:
    game = GAMES[name]
    states = _reachable(game, game.parse_position(STARTS[name]))
    for rules in _rules_of(game):
        for belief in _beliefs(states, 60, 2):
            for player in (0, 1):
                for state in belief:
                    assert rules.over(state, player) == (
                        not any(game.has_move(part, player) for part in state)
                    )
                    replies = set(rules.replies(state, player))
                    assert all(len(after) == len(state) for after in replies)
                for action in rules.actions(belief, None, player):
                    for state in belief:
                        step = rules.step(state, action, player)
                        assert len(step.state) == len(state)
                        if step.done and step.state != state:
                            # a completed move is one the opponent can imagine
                            assert step.state in set(rules.replies(state, player))


@pytest.mark.parametrize("name", [n for n in GAMES if n != "hackenbush"])
def test_schrodinger_announces_the_component_and_emptying(name: str) -> None:
    game = GAMES[name]
    sn, fsn = schrodinger(game), fuzzy(game)
    start = game.parse_position(STARTS[name])
    unit = game.unit
    for state in _reachable(game, start):
        for after in set(sn.replies(state, 0)):
            j = next(k for k, (a, b) in enumerate(zip(state, after, strict=True)) if a != b)
            emptied = game.is_empty(after[j])
            assert sn.signal(state, after) == f"{unit} {j + 1}" + (" emptied" if emptied else "")
            assert fsn.signal(state, after) == f"{unit} {j + 1}"


@pytest.mark.parametrize("name", list(GAMES))
def test_announced_replies_are_the_replies_told_so(name: str) -> None:
    game = GAMES[name]
    for rules in _rules_of(game):
        for state in _reachable(game, game.parse_position(STARTS[name])):
            for player in (0, 1):
                replies = list(rules.replies(state, player))
                told = {rules.signal(state, after) for after in replies}
                for signal in [*sorted(told), f"{game.unit} 9", "moved", "nothing"]:
                    assert list(rules.announced(state, player, signal)) == [
                        after for after in replies if rules.signal(state, after) == signal
                    ], (rules.name, state, player, signal)


def test_schrodinger_look_shows_the_component_and_then_forces_a_move_in_it() -> None:
    kayles = GAMES["kayles"]
    sn = schrodinger(kayles)
    belief = frozenset({(((1, 4),), ((1, 2),)), (((1, 1), (3, 2)), ((1, 2),))})
    actions = sn.actions(belief, None, 0)
    assert [str(a) for a in actions] == [
        "look 1",
        "row 2: remove 1 at 1",
        "row 2: remove 2 at 1",
        "row 2: remove 1 at 2",
    ]
    step = sn.step((((1, 1), (3, 2)), ((1, 2),)), Look(0), 0)
    assert step == Step((((1, 1), (3, 2)), ((1, 2),)), False, "x.xx", "", 0)
    pending = sn.actions(frozenset({step.state}), 0, 0)
    assert {a.component for a in pending} == {0}
    assert [a.label for a in pending if isinstance(a, Move)] == [
        label for label, _ in kayles.moves(((1, 1), (3, 2)), 0)
    ]


def test_fuzzy_look_at_an_empty_component_lets_the_mover_select_again() -> None:
    fsn = fuzzy(SubtractionHeap(allowed=(2, 3)))
    belief = frozenset({(1, 4), (3, 4)})  # heap 1 may be dead (1 chip, no move)
    assert [str(a) for a in fsn.actions(belief, None, 0)] == ["look 1", "2_2", "2_3"]
    assert fsn.step((1, 4), Look(0), 0) == Step((1, 4), False, "1", "", None)
    assert fsn.step((3, 4), Look(0), 0) == Step((3, 4), False, "3", "", 0)
    assert [str(a) for a in fsn.actions(frozenset({(1, 4)}), None, 0)] == ["2_2", "2_3"]


def test_kriegspiel_on_hackenbush_is_partizan() -> None:
    kn = kriegspiel(HackenbushStalk())
    belief = frozenset({("BRB", "R"), ("B", "R")})
    assert [str(a) for a in kn.actions(belief, None, 0)] == [
        "try stalk 1: cut edge 1",
        "try stalk 1: cut edge 3",
    ]
    assert [str(a) for a in kn.actions(belief, None, 1)] == [
        "try stalk 1: cut edge 2",
        "try stalk 2: cut edge 1",
    ]
    cut3 = kn.actions(belief, None, 0)[1]
    assert kn.step(("BRB", "R"), cut3, 0) == Step(("BR", "R"), True, "done", "moved", None)
    assert kn.step(("B", "R"), cut3, 0).own == "refused"
    assert kn.over(("B", "R"), 0) is False and kn.over(("R", "R"), 0) is True
    assert kn.over(("R", "R"), 1) is False


def test_kriegspiel_empty_over_large_requests_empty_a_subtraction_heap() -> None:
    rules = kriegspiel_empty(SubtractionHeap(allowed=(1, 3)))
    assert isinstance(rules, KriegspielEmpty)
    requests = rules.actions(frozenset({(2, 0)}), None, 0)
    assert [str(r) for r in requests] == ["try 1_1", "try 1_3"]  # 3 > 2: empties the heap
    assert rules.step((2, 0), requests[1], 0).state == (0, 0)
    assert rules.step((2, 0), requests[0], 0).state == (1, 0)
    assert (0, 0) in set(rules.replies((2, 0), 0))  # the opponent imagines it
    # a heap with no move: a silent pass, or refused under the other reading
    dead = rules.actions(frozenset({(2, 0), (0, 0)}), None, 0)[1]
    assert rules.step((0, 1), dead, 0) == Step((0, 1), True, "done", "moved", None)
    refusing = kriegspiel_empty(SubtractionHeap(allowed=(1, 3)), refuse_empty=True)
    assert refusing.step((0, 1), dead, 0) == Step((0, 1), False, "refused", "", None)
    # with --max 2 no amount is over-large for a heap of 2: no emptying beyond the moves
    capped = kriegspiel_empty(SubtractionHeap(max_take=2))
    assert [str(r) for r in capped.actions(frozenset({(3,), (2,)}), None, 0)] == [
        "try 1_1",
        "try 1_2",
    ]


@pytest.mark.parametrize("name", ["kayles", "grundy", "hackenbush"])
def test_kriegspiel_empty_is_refused_for_components_that_are_not_heaps(name: str) -> None:
    with pytest.raises(InvalidPositionError, match="kn-empty needs heaps"):
        kriegspiel_empty(GAMES[name])


def test_transform_registry_names_the_four_variants() -> None:
    assert list(VARIANTS) == ["sn", "fsn", "kn", "kn-empty"]
    for name in VARIANTS:
        assert transform(name, NIM).name == name
    assert isinstance(transform("kn", GAMES["hackenbush"]), Kriegspiel)
    with pytest.raises(UnknownGameError, match="unknown variant"):
        transform("chess", NIM)
