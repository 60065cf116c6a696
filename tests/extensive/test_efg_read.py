"""Reading Gambit ``.efg`` files: the whole format, exactly, and the checks for zero-sum solving."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from nimlab.equilibrium.efg_read import (
    EfgFormatError,
    EfgNotSolvableError,
    ZeroSumEfg,
    parse_efg,
    read_efg,
    to_zero_sum,
)
from nimlab.errors import InvalidPositionError
from nimlab.hidden.efg import write_efg
from tests.extensive.efg_games import kuhn_efg, random_efg

DATA = Path(__file__).parent / "data" / "efg"
F = Fraction
HEAD = 'EFG 2 R "g" { "A" "B" }\n'


def game(text: str) -> ZeroSumEfg:
    return to_zero_sum(parse_efg(text))


def rows(efg: ZeroSumEfg) -> list[tuple[int, int, Fraction, Fraction]]:
    return [(t.seq1, t.seq2, t.chance, t.payoff) for t in efg.terminals]


def test_matching_pennies() -> None:
    efg = read_efg(DATA / "matching_pennies.efg")
    assert efg.title == "Matching pennies" and efg.players == ("Even", "Odd")
    assert efg.comment.startswith("Matching pennies as a sequential game")
    assert efg.nodes == 7 and efg.shift == 0
    assert [(i.player, i.number, i.name, i.actions, i.parent_sequence) for i in efg.infosets] == [
        (0, 1, "Even's coin", ("Heads", "Tails"), 0),
        (1, 1, "Odd's coin", ("Heads", "Tails"), 0),
    ]
    assert [list(s) for s in efg.sequences] == [
        [(-1, -1), (0, 0), (0, 1)],
        [(-1, -1), (1, 0), (1, 1)],
    ]
    assert rows(efg) == [(1, 1, 1, 1), (1, 2, 1, -1), (2, 1, 1, -1), (2, 2, 1, 1)]


def test_every_feature_exactly() -> None:
    """Non-terminal outcomes add up, omitted lists are reused, exact numbers, unescaped quotes."""
    efg = read_efg(DATA / "features.efg")
    assert efg.title == 'A "feature" test' and efg.players == ('Row "R"', "Column")
    assert [i.name for i in efg.infosets] == ['Row\'s "move"', "Column's move"]
    assert efg.nodes == 13 and efg.shift == 0
    # ante {1/2, -1/2} at the root, bonus {-.5, .5} under heads, chance 0.25/3/4 then 1e-1/9/10
    assert rows(efg) == [
        (1, 1, F(1, 4), F(2)),
        (1, 2, F(1, 4), F(-1)),
        (2, 0, F(1, 4), F(2)),
        (1, 1, F(3, 4), F(5, 2)),
        (1, 2, F(3, 4), F(-1, 2)),
        (2, 0, F(3, 40), F(-1, 2)),
        (2, 0, F(27, 40), F(1, 2)),
    ]
    tree = parse_efg((DATA / "features.efg").read_text())
    assert tree.infosets[0, 1] == ("coin", ("heads", "tails"), (F(1, 4), F(3, 4)))
    assert tree.outcomes[5].payoffs == (F(3, 2), F(-3, 2))  # 1.5e0 and -15e-1
    assert [n.label for n in tree.nodes][:1] == ["deal"] and tree.history(12) == "tails / down / y"


def test_myerson_poker_has_chance_and_reused_outcomes() -> None:
    efg = read_efg(DATA / "myerson_poker.efg")
    assert efg.players == ("Fred", "Alice") and efg.nodes == 11
    assert [(i.player, i.name) for i in efg.infosets] == [
        (0, "Fred has red"),
        (1, "Alice after a raise"),
        (0, "Fred has black"),
    ]
    assert [len(s) for s in efg.sequences] == [5, 3]
    assert {t.chance for t in efg.terminals} == {F(1, 2)}
    assert rows(efg)[-3:] == [(3, 1, F(1, 2), F(-2)), (3, 2, F(1, 2), F(1)), (4, 0, F(1, 2), F(-1))]


def test_constant_sum_is_shifted() -> None:
    efg = read_efg(DATA / "constant_sum.efg")
    assert efg.shift == -10
    assert [t.payoff for t in efg.terminals] == [-3, -6, 0]  # 7, 4, 10 minus 10 = -(B's payoff)


def test_kuhn_poker_counts() -> None:
    efg = game(kuhn_efg())
    # 1 deal + 6 deals x (4 decisions + 5 terminal nodes)
    assert efg.nodes == 55 and len(efg.terminals) == 30
    # each player: 3 cards x (first decision, decision after a bet)
    assert [sum(i.player == p for i in efg.infosets) for p in (0, 1)] == [6, 6]
    assert [len(s) for s in efg.sequences] == [13, 13]
    assert {t.chance for t in efg.terminals} == {F(1, 6)}
    # the second decision of player 1 follows its own "check" at the same card
    second = [i for i in efg.infosets if i.player == 0 and "check bet" in i.name]
    first = {i.name: i for i in efg.infosets if i.player == 0 and " " not in i.name}
    for info in second:
        assert info.parent_sequence == first[info.name[0]].first_sequence  # "check" is action 0


def test_repeated_definitions_compare_exactly() -> None:
    """A repeated chance set may write its probabilities differently (1/2 = 0.5 = 2/4)."""
    text = (
        HEAD
        + 'c "" 1 "" { "a" 1/2 "b" 1/2 } 0 t "" 0 c "" 1 "" { "a" 0.5 "b" 2/4 } 0 t "" 0 t "" 0'
    )
    assert [t.chance for t in game(text).terminals] == [F(1, 2), F(1, 4), F(1, 4)]


def test_windows_line_ends_and_tabs() -> None:
    text = 'EFG\t2 R "x" {\r\n"A" "B" }\r\np "" 1 1 "" { "a" } 0\r\nt "" 1 "" { 2,-2 }\r\n'
    assert rows(game(text)) == [(1, 0, 1, 2)]


# ------------------------------------------------------------------------------- the refusals


def test_refuses_three_players() -> None:
    with pytest.raises(EfgNotSolvableError, match=r'3 players \("A", "B", "C"\).*two-player'):
        read_efg(DATA / "three_players.efg")


def test_refuses_general_sum() -> None:
    with pytest.raises(EfgNotSolvableError) as error:
        read_efg(DATA / "prisoners_dilemma.efg")
    message = str(error.value)
    assert "not zero-sum (nor constant-sum)" in message
    assert 'sum to 6 at the node "cc" at line 6 (history: Cooperate / Cooperate)' in message
    assert 'but to 5 at the node "cd" at line 7 (history: Cooperate / Defect)' in message


def test_refuses_imperfect_recall() -> None:
    with pytest.raises(EfgNotSolvableError) as error:
        read_efg(DATA / "forgetful.efg")
    assert str(error.value) == (
        'no perfect recall: information set 2 "second" of player 1 ("A") holds the node at '
        'line 5 (history: L), where player 1 played "L" at information set 1, and the node at '
        'line 8 (history: R), where player 1 played "R" at information set 1'
    )


def test_refuses_absent_mindedness() -> None:
    text = """EFG 2 R "Absent-minded driver" { "D" "X" }
p "" 1 1 "junction" { "exit" "continue" } 0
t "" 1 "" { 0 0 }
p "" 1 1 0
t "" 2 "" { 4 -4 }
t "" 3 "" { 1 -1 }
"""
    with pytest.raises(
        EfgNotSolvableError,
        match=r'"junction".*line 2 \(history: root\), where '
        r"player 1 has not moved.*line 4 \(history: continue\)",
    ):
        game(text)


def test_refuses_chance_not_summing_to_one() -> None:
    with pytest.raises(EfgNotSolvableError, match=r'"coin".*sum to 9/10'):
        read_efg(DATA / "bad_chance.efg")
    text = 'EFG 2 R "" { "A" "B" } c "" 1 "" { "a" 3/2 "b" -1/2 } 0 t "" 0 t "" 0'
    with pytest.raises(EfgNotSolvableError, match="non-negative"):
        game(text)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("NFG 1 R", "line 1, column 1", "expected 'EFG'"),
        ('EFG 3 R "g" { }', "line 1, column 5", "only EFG version 2"),
        ('EFG 2 Q "g"', "line 1, column 7", "R or D"),
        (HEAD + 'p "unfinished 1 1', "line 2, column 3", "never ends"),
        (HEAD + 'p "" 3 1 "" { "a" } 0', "line 2, column 6", "a player number 1..2, found '3'"),
        (HEAD + 'p "" 1 1 0', "line 2, column 10", "information set 1 of player 1 is used before"),
        (HEAD + 'p "" 1 1 "" { } 0', "line 2, column 15", "expected a quoted action name"),
        (HEAD + 't "" 7', "line 2, column 7", "outcome 7 is used before its payoffs"),
        (HEAD + 't "" 1 "o" { 1 }', "line 2, column 16", "the payoff of player 2, found '}'"),
        (HEAD + 't "" 1 "o" { 1 -1 0 }', "line 2, column 19", "'}' after 2 payoffs"),
        (HEAD + 't "" 1 "o" { 1/0 -1 }', "line 2, column 14", "1/0 divides by zero"),
        (HEAD + 't "" 1 "o" { 1 x }', "line 2, column 16", "found 'x'"),
        (HEAD + 't "" 0 "o" { 1 -1 }', "line 2, column 8", "outcome 0 means no outcome"),
        (HEAD + 'p "" 1 1 "" { "a" } 0\n', "line 3, column 1", "expected a node type"),
        (HEAD + 't "" 0\nt "" 0', "line 3, column 1", "the end of the file"),
        (HEAD + 'c "" 1 "" { "a" } 0', "line 2, column 17", "the action's probability"),
        (
            HEAD + 'p "" 1 1 "" { "a" "b" } 0 t "" 0\np "" 1 1 "" { "a" "c" } 0',
            "line 3, column 10",
            "information set 1 of player 1 differs from its definition at line 2",
        ),
        (
            HEAD + 'p "" 1 1 "" { "a" } 1 "o" { 1 -1 }\nt "" 1 "o" { 1 1 }',
            "line 3, column 8",
            "outcome 1 differs from its definition at line 2",
        ),
    ],
)
def test_syntax_errors_give_line_and_column(text: str, where: str, what: str) -> None:
    with pytest.raises(EfgFormatError) as error:
        parse_efg(text)
    assert isinstance(error.value, InvalidPositionError)  # the CLI's exit code 2
    assert str(error.value).startswith(where + ": "), str(error.value)
    assert what in str(error.value)


# ---------------------------------------------------------------- nimlab's writer, read back


@pytest.mark.parametrize("heaps", [(2, 1), (3, 3, 1)], ids=str)
def test_export_reads_back(tmp_path: Path, heaps: tuple[int, ...]) -> None:
    path = tmp_path / "sn.efg"
    tree = write_efg("sn", heaps, path, max_nodes=100_000)
    efg = read_efg(path)
    assert efg.nodes == len(tree.recorded)
    assert len(efg.infosets) == len(tree.infosets)
    assert [len(s) for s in efg.sequences] == [tree.sequence_count(0), tree.sequence_count(1)]
    assert [t.payoff for t in efg.terminals] == [n.payoff for n in tree.recorded if n.infoset < 0]
    assert efg.shift == 0 and {t.chance for t in efg.terminals} == {1}


# ------------------------------------------------------------------------- pygambit agrees

VALID = ["matching_pennies", "myerson_poker", "features", "constant_sum"]


def gambit_view(gbt: Any, path: Path) -> dict[str, Any]:
    """What pygambit sees: counts, actions, and (chance, payoffs summed on the path) per leaf."""
    g = gbt.read_efg(str(path))
    players = list(g.players)
    leaves = []
    for node in g.nodes:
        if not node.is_terminal:
            continue
        chance, payoffs, at = F(1), [F(0), F(0)], node
        while at is not None:
            if at.outcome:  # pygambit 16.7: a false proxy when there is none
                payoffs = [u + F(str(at.outcome[p])) for u, p in zip(payoffs, players, strict=True)]
            if at.parent is not None and at.parent.player.is_chance:
                chance *= F(str(at.prior_action.prob))
            at = at.parent
        leaves.append((chance, payoffs[0], payoffs[1]))
    return {
        "nodes": len(list(g.nodes)),
        "infosets": [len(p.infosets) for p in players],
        "actions": [[tuple(a.label for a in i.actions) for i in p.infosets] for p in players],
        "leaves": leaves,
    }


def our_view(efg: ZeroSumEfg) -> dict[str, Any]:
    return {
        "nodes": efg.nodes,
        "infosets": [sum(i.player == p for i in efg.infosets) for p in (0, 1)],
        "actions": [[i.actions for i in efg.infosets if i.player == p] for p in (0, 1)],
        "leaves": [(t.chance, t.payoff - efg.shift, -t.payoff) for t in efg.terminals],
    }


@pytest.mark.parametrize("name", VALID)
def test_pygambit_agrees(name: str) -> None:
    gbt = pytest.importorskip("pygambit")
    path = DATA / f"{name}.efg"
    assert our_view(read_efg(path)) == gambit_view(gbt, path)


@pytest.mark.parametrize("name", VALID)
def test_gambit_writer_reads_back(name: str) -> None:
    """Gambit's own ``.efg`` writer (repeated definitions, its number formats) reads the same."""
    gbt = pytest.importorskip("pygambit")
    path = DATA / f"{name}.efg"
    assert game(gbt.read_efg(str(path)).to_efg()) == read_efg(path)


def equilibrium_payoffs(gbt: Any, efg: ZeroSumEfg, path: Path) -> tuple[Fraction, Fraction]:
    """Player 1's payoff at Gambit's (rational LCP) equilibrium: Gambit's, and ours from the
    sequence form (realisation plans times ``chance * payoff``, minus ``shift``)."""
    g = gbt.read_efg(str(path))
    profile = gbt.nash.lcp_solve(g, rational=True).equilibria[0]
    behaviour = {
        (p, i.label): [F(str(profile[a])) for a in i.actions]
        for p, player in enumerate(g.players)
        for i in player.infosets
    }
    plans = [[F(1)] * len(s) for s in efg.sequences]
    for info in efg.infosets:
        plan = plans[info.player]
        for a, prob in enumerate(behaviour[info.player, info.name]):
            plan[info.first_sequence + a] = plan[info.parent_sequence] * prob
    ours = sum(t.chance * t.payoff * plans[0][t.seq1] * plans[1][t.seq2] for t in efg.terminals)
    return F(str(profile.payoff(next(iter(g.players))))), ours - efg.shift


@pytest.mark.parametrize("name", VALID)
def test_pygambit_equilibrium_is_worth_the_same(name: str) -> None:
    gbt = pytest.importorskip("pygambit")
    path = DATA / f"{name}.efg"
    theirs, ours = equilibrium_payoffs(gbt, read_efg(path), path)
    assert theirs == ours


def test_pygambit_agrees_on_kuhn_and_its_value(tmp_path: Path) -> None:
    """Our Kuhn file is Kuhn poker: Gambit finds -1/18, and so does our sequence form."""
    gbt = pytest.importorskip("pygambit")
    path = tmp_path / "kuhn.efg"
    path.write_text(kuhn_efg())
    efg = read_efg(path)
    assert our_view(efg) == gambit_view(gbt, path)
    assert equilibrium_payoffs(gbt, efg, path) == (F(-1, 18), F(-1, 18))


@pytest.mark.parametrize("seed", range(25))
def test_pygambit_agrees_on_random_games(tmp_path: Path, seed: int) -> None:
    gbt = pytest.importorskip("pygambit")
    path = tmp_path / "random.efg"
    path.write_text(random_efg(seed))
    assert our_view(read_efg(path)) == gambit_view(gbt, path)


def test_pygambit_refuses_what_we_refuse_on_chance() -> None:
    gbt = pytest.importorskip("pygambit")
    with pytest.raises(ValueError, match="sum to exactly one"):
        gbt.read_efg(str(DATA / "bad_chance.efg"))
