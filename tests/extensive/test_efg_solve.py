"""Solving ``.efg`` games exactly: values from the literature, from nimlab's seeds, from brute
force over pure strategies written here, and from pygambit's rational LCP."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from nimlab.equilibrium.efg_read import EfgTree, parse_efg, read_efg, to_zero_sum
from nimlab.equilibrium.efg_solve import EfgResult, efg_tree, solve_efg
from nimlab.hidden.efg import write_efg
from tests.extensive.efg_games import kuhn_efg, random_efg

DATA = Path(__file__).parent / "data" / "efg"
F = Fraction
Profile = dict[tuple[int, int], list[Fraction]]
"""Action probabilities per information set ``(player 1 or 2, number)`` of the file."""


def solved(text: str, *, strategies: bool = True) -> EfgResult:
    return solve_efg(to_zero_sum(parse_efg(text)), strategies=strategies)


def payoff(tree: EfgTree, profile: Profile) -> Fraction:
    """Player 1's expected payoff, walking the file's own tree (outcomes at any node count)."""
    children: list[list[int]] = [[] for _ in tree.nodes]
    for index, node in enumerate(tree.nodes):
        if node.parent >= 0:
            children[node.parent].append(index)

    def value(index: int) -> Fraction:
        node = tree.nodes[index]
        here = tree.outcomes[node.outcome].payoffs[0] if node.outcome else F(0)
        if node.kind == "t":
            return here
        if node.kind == "c":
            probs = list(tree.infosets[0, node.infoset][2])
        else:
            probs = profile[node.player, node.infoset]
        return here + sum(
            (p * value(c) for p, c in zip(probs, children[index], strict=True) if p), F(0)
        )

    return value(0)


def pure_profiles(tree: EfgTree, player: int) -> list[Profile]:
    keys = [key for key in tree.infosets if key[0] == player]
    choices = [range(len(tree.infosets[key][1])) for key in keys]
    return [
        {
            key: [F(int(a == pick)) for a in range(len(tree.infosets[key][1]))]
            for key, pick in zip(keys, picks, strict=True)
        }
        for picks in itertools.product(*choices)
    ]


def check_equilibrium(text: str, result: EfgResult) -> None:
    """Each player's strategy guarantees ``result.value`` against every pure reply (brute force
    over the opponent's pure strategies, on the file's tree)."""
    tree = parse_efg(text)
    assert result.strategies is not None
    mixed: dict[int, Profile] = {1: {}, 2: {}}
    for entry in result.strategies:
        mixed[entry.player][entry.player, entry.number] = [p for _, p in entry.actions]
    assert all(
        sum(probs) == 1 and min(probs) >= 0 for side in mixed.values() for probs in side.values()
    )
    worst = min(payoff(tree, {**mixed[1], **reply}) for reply in pure_profiles(tree, 2))
    best = max(payoff(tree, {**reply, **mixed[2]}) for reply in pure_profiles(tree, 1))
    assert worst == result.value == best


def test_kuhn_poker_is_worth_minus_one_eighteenth() -> None:
    """Kuhn (1950): player 1 loses 1/18 a hand; the strategies are checked against all 64
    pure replies of each side."""
    result = solved(kuhn_efg())
    assert (result.value, result.exact) == (F(-1, 18), True)
    assert (result.nodes, result.infosets) == (55, 12)
    check_equilibrium(kuhn_efg(), result)
    queen = [s for s in result.strategies or () if s.player == 2 and s.name == "Q after bet"]
    assert [(a, p) for a, p in queen[0].actions] == [("fold", F(2, 3)), ("call", F(1, 3))]


def test_matching_pennies_is_worth_zero() -> None:
    text = (DATA / "matching_pennies.efg").read_text()
    result = solved(text)
    assert (result.value, result.exact) == (F(0), True)
    for entry in result.strategies or ():
        assert [p for _, p in entry.actions] == [F(1, 2), F(1, 2)]
    check_equilibrium(text, result)


OUTCOME_INSIDE = """EFG 2 R "bonus" { "P1" "P2" }
p "" 1 1 "first" { "a" "b" } 1 "bonus" { 1 -1 }
t "" 2 "" { 2 -2 }
p "" 2 1 "reply" { "x" "y" } 0
t "" 3 "" { 0 0 }
t "" 4 "" { 4 -4 }
"""


def test_outcome_at_a_non_terminal_node_is_added_below() -> None:
    """a pays 1 + 2 = 3; after b player 2 picks x (1 + 0 = 1): the value is 3, not 2."""
    result = solved(OUTCOME_INSIDE)
    assert (result.value, result.exact) == (F(3), True)
    check_equilibrium(OUTCOME_INSIDE, result)


def test_constant_sum_value_is_shifted_back() -> None:
    """Ten coins: taking 7 beats offering (accepted, 4); payoffs sum to 10 everywhere."""
    result = solve_efg(read_efg(DATA / "constant_sum.efg"), strategies=True)
    assert (result.value, result.shift, result.exact) == (F(7), F(-10), True)
    check_equilibrium((DATA / "constant_sum.efg").read_text(), result)


WIN_OR_NOTHING = """EFG 2 R "pennies for a prize" { "P1" "P2" }
p "" 1 1 "" { "H" "T" } 0
p "" 2 1 "" { "H" "T" } 0
t "" 1 "1 wins" { 1 0 }
t "" 2 "2 wins" { 0 1 }
p "" 2 1 0
t "" 2
t "" 3 "1 wins big" { 3 -2 }
"""


def test_constant_sum_with_a_mixed_equilibrium() -> None:
    """Payoffs sum to 1: [[1, 0], [0, 3]] for player 1 is worth 3/4 (brute-force checked)."""
    result = solved(WIN_OR_NOTHING)
    assert (result.value, result.shift, result.exact) == (F(3, 4), F(-1), True)
    check_equilibrium(WIN_OR_NOTHING, result)


def test_chance_alone_is_its_expectation() -> None:
    text = 'EFG 2 R "" { "A" "B" }\nc "" 1 "" { "x" 1/3 "y" 2/3 } 0\n'
    text += 't "" 1 "" { 5 -5 }\nt "" 2 "" { -1 1 }\n'
    result = solved(text)
    assert (result.value, result.exact, result.strategies) == (F(1), True, ())


def test_payoffs_beyond_64_bits_stay_exact() -> None:
    """[[2a, -a], [-a, a]] behind a chance move of probability 1/3 (else 0): worth a/15."""
    a = 10**30 + 7
    text = f"""EFG 2 R "" {{ "A" "B" }}
c "" 1 "" {{ "play" 1/3 "skip" 2/3 }} 0
p "" 1 1 "" {{ "H" "T" }} 0
p "" 2 1 "" {{ "h" "t" }} 0
t "" 1 "" {{ {2 * a} {-2 * a} }}
t "" 2 "" {{ {-a} {a} }}
p "" 2 1 0
t "" 2
t "" 3 "" {{ {a} {-a} }}
t "" 4 "" {{ 0 0 }}
"""
    tree = efg_tree(to_zero_sum(parse_efg(text)))
    assert isinstance(tree.term_payoff, list) and tree.payoff_scale == 3
    result = solved(text)
    assert (result.value, result.exact) == (F(a, 15), True)
    check_equilibrium(text, result)


@pytest.mark.parametrize(("heaps", "value"), [((3, 3, 1), F(1, 3)), ((3, 2, 1), F(0))], ids=str)
def test_exported_schrodinger_nim_round_trip(
    tmp_path: Path, heaps: tuple[int, ...], value: Fraction
) -> None:
    """Seed 000, Fig. 2: SN(3,3,1) is worth 1/3 and SN(3,2,1) 0, read back from nimlab's file."""
    path = tmp_path / "sn.efg"
    write_efg("sn", heaps, path, max_nodes=100_000)
    result = solve_efg(read_efg(path))
    title = "sn(" + ",".join(map(str, heaps)) + ")"
    assert (result.value, result.exact, result.title) == (value, True, title)


def gambit_value(gbt: Any, path: Path) -> Fraction:
    game = gbt.read_efg(str(path))
    profile = gbt.nash.lcp_solve(game, rational=True).equilibria[0]
    return F(str(profile.payoff(next(iter(game.players)))))


@pytest.mark.parametrize("seed", range(30))
def test_pygambit_rational_lcp_agrees_on_random_games(tmp_path: Path, seed: int) -> None:
    gbt = pytest.importorskip("pygambit")
    path = tmp_path / "random.efg"
    text = random_efg(seed)
    path.write_text(text)
    result = solve_efg(read_efg(path), strategies=True)
    assert result.exact
    assert result.value == gambit_value(gbt, path)


def test_pygambit_rational_lcp_agrees_on_kuhn(tmp_path: Path) -> None:
    gbt = pytest.importorskip("pygambit")
    path = tmp_path / "kuhn.efg"
    path.write_text(kuhn_efg())
    assert gambit_value(gbt, path) == solve_efg(read_efg(path)).value == F(-1, 18)
