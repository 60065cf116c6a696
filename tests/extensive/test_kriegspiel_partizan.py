"""Kriegspiel Domineering and Hackenbush (issue 40, items 3 and 4): the board and graph
components, the Kriegspiel rules they get, and their values against independent checks.

The independent check is :func:`sure_win`, a plain AND-OR search over the beliefs of one
player against an opponent who may make any legal move: in a finite game whose payoffs are
+1 and -1, a player's value is +1 exactly when some pure strategy wins against every move of
the opponent (every pure strategy in the support of an optimal mixed one must then win
against all of them), so the LP's value is +1 (-1) exactly when Left (Right) has a sure win,
and strictly between otherwise. No sequence form, no LP, no tree of the solver.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from nimlab.cgt.rulesets import domineering as dom
from nimlab.cgt.rulesets import hackenbush as hb
from nimlab.errors import InvalidPositionError
from nimlab.hidden.boards import DomineeringBoard, HackenbushGraph
from nimlab.hidden.component_base import ComponentType, Label
from nimlab.hidden.components import NO_COMPONENTS, components_for
from nimlab.hidden.games import estimate_hidden, hidden_game, solve_hidden
from nimlab.hidden.transforms import Request, kriegspiel
from nimlab.play.hidden import hidden_variants
from nimlab.reports.hidden_partizan import (
    boards,
    graphs,
    kriegspiel_pair,
    negative,
    outcome_of_pair,
    side_by_side,
)

BOARD = DomineeringBoard()
GRAPH = HackenbushGraph()


def sure_win(component: ComponentType[Any], start: Any, winner: int, first: int) -> bool:
    """Whether ``winner`` wins for sure the Kriegspiel game on one component from ``start``
    with ``first`` to move, against an opponent allowed any legal move (normal play)."""
    adversary = 1 - winner

    def requests(belief: frozenset[Any]) -> set[Label]:
        return {label for s in belief for label, _ in component.moves(s, winner)}

    @cache
    def to_move(belief: frozenset[Any]) -> bool:
        if any(not component.moves(s, winner) for s in belief):
            return False  # in some state the winner cannot move: the winner loses there
        for label in sorted(requests(belief)):
            accepted = {s: component.play(s, label, winner) for s in belief}
            refused = frozenset(s for s, after in accepted.items() if after is None)
            made = frozenset(after for after in accepted.values() if after is not None)
            if (not refused or to_move(refused)) and after_move(made):
                return True
        return False

    @cache
    def after_move(states: frozenset[Any]) -> bool:
        replies = frozenset(
            after for s in states for _, after in component.moves(s, adversary)
        )  # the adversary has no move in the others: the winner has won there
        return not replies or to_move(replies)

    if first == winner:
        return to_move(frozenset({start}))
    return after_move(frozenset({start}))


def expected(component: ComponentType[Any], start: Any, first: int) -> Fraction | None:
    """+1 / -1 for Left by :func:`sure_win` (``first`` to move), ``None``: strictly between."""
    if sure_win(component, start, 0, first):
        return Fraction(1)
    if sure_win(component, start, 1, first):
        return Fraction(-1)
    return None


# -- the components -----------------------------------------------------------------------------


def test_boards_and_graphs_are_component_games_now() -> None:
    assert "domineering" not in NO_COMPONENTS and "hackenbush" not in NO_COMPONENTS
    assert components_for("domineering") == BOARD
    assert components_for("partizan-hackenbush") == GRAPH
    assert hidden_variants("domineering") == hidden_variants("hackenbush") == ["sn", "fsn", "kn"]
    with pytest.raises(InvalidPositionError, match="kn-empty needs heaps"):
        hidden_game("kn-empty", "domineering")


def _all_boards(h: int, w: int) -> list[str]:
    cells = h * w
    found = []
    for mask in range(1 << cells):
        rows = [
            "".join("." if mask >> (r * w + c) & 1 else "#" for c in range(w)) for r in range(h)
        ]
        found.append("/".join(rows))
    return found


def test_a_domino_label_is_its_two_cells_in_every_state() -> None:
    for board in _all_boards(2, 3) + _all_boards(3, 2):
        for player in (0, 1):
            moves = BOARD.moves(board, player)
            assert [label for label, _ in moves] == sorted(label for label, _ in moves)
            for (r1, c1, r2, c2), after in moves:
                assert (r2 - r1, c2 - c1) == ((1, 0) if player == 0 else (0, 1))
                rows = [list(row) for row in board.split("/")]
                assert rows[r1 - 1][c1 - 1] == rows[r2 - 1][c2 - 1] == "."
                rows[r1 - 1][c1 - 1] = rows[r2 - 1][c2 - 1] = "#"
                assert after == "/".join("".join(row) for row in rows)
            legal = dict(moves)
            every = {label for b in ("../..", ".../...") for label, _ in BOARD.moves(b, player)}
            for label in every | {(1, 1, 2, 2), (1, 1, 1, 3)}:
                assert BOARD.play(board, label, player) == legal.get(label)
            assert len(legal) == sum(1 for _ in dom.parse_board(board).moves("LR"[player]))


def test_domino_words_number_rows_and_columns_from_one() -> None:
    assert BOARD.label_text((1, 3, 2, 3)) == "vertical domino on rows 1-2, column 3"
    assert BOARD.label_text((2, 1, 2, 2)) == "horizontal domino on row 2, columns 1-2"
    assert BOARD.parse_position(" ../.# ") == ("../.#",)
    with pytest.raises(InvalidPositionError, match="rectangle"):
        BOARD.parse_position("../.")


def test_a_cut_removes_what_loses_the_ground_as_the_cgt_ruleset_does() -> None:
    for family, text in graphs(4):
        state = GRAPH.parse(text)
        edges = hb.parse_graph(text)
        assert GRAPH.parse(GRAPH.format(state)) == state
        for player, colours in ((0, "BG"), (1, "RG")):
            moves = dict(GRAPH.moves(state, player))
            assert sorted(k for (k,) in moves) == [
                k for k, (_, _, c) in enumerate(edges, 1) if c in colours
            ], family
            for (k,), after in moves.items():
                assert [e[1:] for e in after] == list(hb.cut(edges, k - 1))
                assert GRAPH.parse(GRAPH.format(after)) == after
                for gone in {e[0] for e in state} - {e[0] for e in after}:
                    assert GRAPH.play(after, (gone,), player) is None  # fallen: refused


def test_fallen_edges_keep_the_numbers_of_the_others() -> None:
    state = GRAPH.parse("g-a:B,a-b:R,g-c:R")
    after = GRAPH.play(state, (1,), 0)
    assert after == ((3, "g", "c", "R"),) and GRAPH.format(after) == "x,x,g-c:R"
    assert GRAPH.play(after, (2,), 1) is None and GRAPH.play(after, (3,), 1) == ()
    assert GRAPH.describe(()) == "cut down"
    with pytest.raises(InvalidPositionError, match="not connected to the ground"):
        GRAPH.parse("x,a-b:R")


# -- the Kriegspiel rules on them ---------------------------------------------------------------


def test_requests_are_the_dominoes_possible_in_some_state_the_mover_cannot_exclude() -> None:
    rules = kriegspiel(BOARD)
    after_left = frozenset((after,) for _, after in BOARD.moves(".../...", 0))  # R's belief
    requests = rules.actions(after_left, None, 1)
    assert [r.label for r in requests if isinstance(r, Request)] == [
        (1, 1, 1, 2),
        (1, 2, 1, 3),
        (2, 1, 2, 2),
        (2, 2, 2, 3),
    ]
    # a domino over the unseen one is refused, and the mover stays to try again
    step = rules.step(("#../#..",), requests[0], 1)
    assert (step.done, step.own, step.opp) == (False, "refused", "")
    step = rules.step(("#../#..",), requests[1], 1)
    assert (step.state, step.done, step.opp) == (("###/#..",), True, "moved")


def test_a_cut_of_a_fallen_edge_is_refused() -> None:
    rules = kriegspiel(GRAPH)
    state = (GRAPH.parse("g-a:B,a-b:G,g-c:R"),)
    cut_under = rules.step(state, Request(0, (1,), "cut edge 1"), 0).state
    assert GRAPH.format(cut_under[0]) == "x,x,g-c:R"
    step = rules.step(cut_under, Request(0, (2,), "cut edge 2"), 1)  # the green edge fell
    assert (step.done, step.own) == (False, "refused")


# -- values -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "left_first", "right_first"),
    [
        ("./.", 1, 1),  # only Left can place: Left wins whoever starts
        ("..", -1, -1),
        ("../..", 1, -1),  # ±1: whoever starts takes a column and the other has no room
        (".", -1, 1),  # nobody can move: whoever starts loses
    ],
)
def test_small_boards_have_the_obvious_values(
    board: str, left_first: int, right_first: int
) -> None:
    assert kriegspiel_pair("domineering", board) == (left_first, right_first)


def test_right_first_by_the_negative_equals_right_first_by_exchanging_the_players() -> None:
    """The report plays Right first as Left first on the negative; a component that swaps
    the players' moves (so the tree's first player is Right) gives the same values."""

    class Swapped(ComponentType[Any]):
        def __init__(self, inner: ComponentType[Any]) -> None:
            self.inner = inner

        @property
        def name(self) -> str:
            return "swapped"

        def moves(self, state: Any, player: int) -> Any:
            return self.inner.moves(state, 1 - player)

        def label_text(self, label: Label) -> str:
            return self.inner.label_text(label)

        def describe(self, state: Any) -> str:
            return self.inner.describe(state)

        def parse(self, text: str) -> Any:
            return self.inner.parse(text)

        def format(self, state: Any) -> str:
            return self.inner.format(state)

    from nimlab.hidden.solve import solve_tree
    from nimlab.hidden.tree import build_tree

    for kind, position in [
        ("domineering", ".../..."),
        ("domineering", "#../..."),
        ("domineering", ".../.#./..."),
        ("hackenbush", "g-a:G,a-b:B,g-a2:G,a2-b2:R"),
        ("hackenbush", "g-a:B,a-b:R,b-g:G"),
    ]:
        inner = components_for(kind)
        start = inner.parse(position)
        rules = kriegspiel(Swapped(inner))
        if rules.over((start,), 0):
            direct = Fraction(1)  # Right cannot start: Left wins
        else:
            tree = build_tree(
                rules, (start,), prune_forced=False, known_wins=False, check_estimate=False
            )
            direct = -solve_tree(tree).value  # the tree's first player is Right
        assert kriegspiel_pair(kind, position)[1] == direct, (kind, position)


def _report_positions(max_cells: int) -> list[tuple[str, str]]:
    found = [("domineering", "/".join(["." * w] * h)) for h in range(1, 4) for w in range(1, 4)]
    found += [("domineering", b) for b in boards(max_cells)]
    found += [("hackenbush", g) for _, g in graphs(max_cells)]
    found += [
        ("domineering", side_by_side("domineering", a, b))
        for a, b in itertools.combinations_with_replacement(["./.", "..", "../..", ".#/.."], 2)
    ]
    found += [("hackenbush", side_by_side("hackenbush", "g-a:G,a-b:B", "g-a:G,a-b:R"))]
    return found


@pytest.mark.parametrize(("kind", "position"), _report_positions(5))
def test_kriegspiel_values_are_sure_wins_exactly_when_the_search_finds_one(
    kind: str, position: str
) -> None:
    component = components_for(kind)
    start = component.parse(position)
    for first, value in zip((0, 1), kriegspiel_pair(kind, position), strict=True):
        truth = expected(component, start, first)
        assert value is not None
        if truth is None:
            assert -1 < value < 1, (position, first, value)
        else:
            assert value == truth, (position, first, value)


def test_the_mirror_strategy_fails_on_up_star_plus_down_star() -> None:
    """^* + v* = 0 (Hackenbush: a green edge under a blue one, beside its negative): with
    perfect information the second player wins by copying; hidden, neither wins for sure."""
    position = side_by_side("hackenbush", "g-a:G,a-b:B", negative("hackenbush", "g-a:G,a-b:B"))
    assert str(hb.hackenbush(position)) == "0"
    left, right = kriegspiel_pair("hackenbush", position)
    assert left is not None and right is not None and -1 < left < 1 and -1 < right < 1
    assert outcome_of_pair(left, right) == "mixed"
    start = GRAPH.parse(position)
    assert not any(sure_win(GRAPH, start, w, f) for w in (0, 1) for f in (0, 1))


@pytest.mark.parametrize(
    ("kind", "position"),
    [("domineering", ".../..."), ("domineering", "#../..."), ("hackenbush", "g-a:B,a-b:G,g-c:R")],
)
@pytest.mark.parametrize("variant", ["sn", "fsn"])
def test_one_board_under_schrodinger_is_perfect_information(
    variant: str, kind: str, position: str
) -> None:
    """One component: the mover looks at the whole board before every move, so the game is
    the perfect-information one (the variants are degenerate, and kept as that control)."""
    value = solve_hidden(variant, kind, position).value
    wins = (dom if kind == "domineering" else hb).first_player_wins(position, "L")
    assert value == (1 if wins else -1)


def test_estimates_are_sane_and_large_boards_are_refused() -> None:
    from nimlab.errors import TooLargeError

    hidden = hidden_game("kn", "domineering")
    small = estimate_hidden(hidden, hidden.parse(".../.../..."))
    assert 500 <= small.nodes <= 5_000  # the tree has 1,359 nodes
    with pytest.raises(TooLargeError):
        solve_hidden("kn", "domineering", "..../..../..../....")
