"""Notebook displays: every ``_repr_html_`` is well-formed, escaped and shows the right numbers
(checked against brute force written here or the seeds' values); every ``repr`` round-trips."""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

import nimlab
from nimlab import Outcome, analyze, analyze_nim, payoff_function, solve
from nimlab.display import heap_board_svg, html_table, stalks_svg
from nimlab.equilibrium.certify import Certificate
from nimlab.equilibrium.results import EquilibriumResult, StrategyEntry
from nimlab.scoring.piecewise import PiecewiseLinear

VOID = {"br", "img", "hr", "meta", "input", "link"}


class _Checker(HTMLParser):
    """Fails on a mismatched end tag; collects table rows (cell texts) and tag counts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.rows: list[list[str]] = []
        self.header_rows: set[int] = set()
        self.tags: dict[str, int] = {}
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "tr":
            self.rows.append([])
        if tag == "th":
            self.header_rows.add(len(self.rows) - 1)
        if tag in ("td", "th"):
            self._cell = []
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def checked(page: str) -> _Checker:
    """Parse ``page``: balanced tags, and every ``<svg>`` in it well-formed XML."""
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.stack == []
    for svg in re.findall(r"<svg.*?</svg>", page, flags=re.DOTALL):
        ET.fromstring(svg)
    return checker


def data_rows(page: str) -> list[list[str]]:
    """The table rows made of ``<td>`` cells (header rows dropped)."""
    checker = checked(page)
    return [row for i, row in enumerate(checker.rows) if i not in checker.header_rows]


# -- brute force, independent of nimlab ---------------------------------------------------------
@cache
def nim_lost(heaps: tuple[int, ...]) -> bool:
    """Whether the player to move loses Nim (normal play), by searching every move."""
    options = (
        tuple(sorted((*heaps[:i], smaller, *heaps[i + 1 :])))
        for i, h in enumerate(heaps)
        for smaller in range(h)
    )
    return not any(nim_lost(option) for option in options)


@cache
def scoring(heaps: tuple[int, ...], bonus: int) -> int:
    """Scoring Nim's f_N by its recursion: f_N(0) = -N, f_N(p) = max(taken - f_N(p'))."""
    if not any(heaps):
        return -bonus
    return max(
        h - smaller - scoring(tuple(sorted((*heaps[:i], smaller, *heaps[i + 1 :]))), bonus)
        for i, h in enumerate(heaps)
        for smaller in range(h)
    )


# -- analyses -----------------------------------------------------------------------------------
@pytest.mark.parametrize("heaps", [(3, 4, 5), (1, 2, 3), (2, 5, 6, 7), (7,)])
def test_nim_analysis_shows_board_and_winning_moves(heaps: tuple[int, ...]) -> None:
    page = analyze_nim(heaps)._repr_html_()
    checker = checked(page)
    assert checker.tags["circle"] == sum(heaps)
    expected = {
        ",".join(map(str, (*heaps[:i], s, *heaps[i + 1 :])))
        for i, h in enumerate(heaps)
        for s in range(h)
        if nim_lost(tuple(sorted((*heaps[:i], s, *heaps[i + 1 :]))))
    }
    rows = data_rows(page)
    shown = {row[2] for row in rows if len(row) == 3 and "→" in row[1]}
    assert shown == expected
    lost = nim_lost(tuple(sorted(heaps)))
    assert ("the player to move loses" in page) == lost
    nim_sum = 0
    for h in heaps:
        nim_sum ^= h
    assert ["nim-sum", str(nim_sum), format(nim_sum, f"0{max(heaps).bit_length()}b")] in rows


def test_catalogue_analysis_of_nim_lists_the_winning_move() -> None:
    page = analyze("nim", "3,4,5")._repr_html_()
    assert checked(page).tags["circle"] == 12
    assert [row[2] for row in data_rows(page) if len(row) == 3] == ["1,4,5"]


@pytest.mark.parametrize(
    ("game", "position", "options"),
    [
        ("kayles", "7,4", {}),
        ("nim", "1,1", {"misere": True}),
        ("subtraction", "10,7", {"set": "1,3,4"}),
        ("subtraction", "9", {"max": 2}),
        ("octal", "5,9", {"code": "0.07"}),
        ("poker-nim", "3,4,5", {"additions": 1, "cap": 9}),
        ("skip-nim", "3,4", {"skips": "1,2"}),
        ("turning-turtles", "THHTTH", {}),
        ("green-hackenbush", "g-a,a-b,a-c,g-d", {}),
        ("red-blue-hackenbush", "BBRB,RRB", {}),
    ],
)
def test_analysis_repr_round_trips(game: str, position: str, options: dict[str, object]) -> None:
    result = analyze(game, position, **options)
    text = repr(result)
    assert text.startswith(f"analyze({game!r}, {position!r}")
    assert eval(text, {"analyze": nimlab.analyze}) == result
    checked(result._repr_html_())


@cache
def kayles(n: int) -> int:
    """Kayles' Grundy value of a row of ``n`` pins: knock down 1 or 2 adjacent ones."""
    options = {
        kayles(left) ^ kayles(n - take - left) for take in (1, 2) for left in range(n - take + 1)
    }
    return next(g for g in range(n + 2) if g not in options)


def test_grundy_table_is_indexed_in_rows_of_ten() -> None:
    from nimlab.catalogue import grundy_table, make_game

    page = grundy_table(make_game("kayles"), 34)._repr_html_()
    rows = data_rows(page)
    assert [row[0] for row in rows] == ["0", "10", "20", "30"]
    for row in rows:
        start = int(row[0])
        assert row[1:] == [str(kayles(n)) for n in range(start, min(start + 10, 35))]


def test_kayles_repr_is_the_call() -> None:
    assert repr(analyze("kayles", "7,4")) == "analyze('kayles', '7,4')"
    assert repr(analyze_nim([1, 1], misere=True)) == "analyze_nim([1, 1], misere=True)"


@pytest.mark.parametrize(
    ("stalks", "words"),
    [
        ("B", "Left (Blue) wins"),
        ("R", "Right (Red) wins"),
        ("BR", "Left (Blue) wins"),
        ("RB", "Right (Red) wins"),
        ("B,R", "the second player wins"),
    ],
)
def test_red_blue_speaks_left_and_right(stalks: str, words: str) -> None:
    page = analyze("red-blue-hackenbush", stalks)._repr_html_()
    checked(page)
    assert words in page
    assert "P:" not in page and "N:" not in page
    assert page.count('stroke="#1f5fbf"') == stalks.count("B")
    assert page.count('stroke="#c8322d"') == stalks.count("R")


def test_other_notations_are_written_not_drawn() -> None:
    page = analyze("turning-turtles", "THHTTH")._repr_html_()
    assert "<svg" not in page and "<code>THHTTH</code>" in page


def test_huge_heaps_are_written_not_drawn() -> None:
    page = analyze_nim([2**80, 3])._repr_html_()
    assert "<svg" not in page and f"<code>{2**80},3</code>" in page
    assert heap_board_svg([500]) is None and stalks_svg(["B" * 500]) is None


def test_text_is_escaped() -> None:
    page = html_table(["<th>"], [['<script>"a" & b</script>']])
    assert "<script>" not in page and "&lt;script&gt;" in page and "&amp;" in page
    assert data_rows(page) == [['<script>"a" & b</script>']]
    from nimlab.catalogue import GameAnalysis

    record = GameAnalysis("my<game>", "1,2", None, Outcome.N, None, ({"to": "<x>", "move": "a&b"},))
    page = record._repr_html_()
    assert "<game>" not in page and "<x>" not in page
    assert ["", "a&b", "<x>"] in data_rows(page)


# -- equilibria ---------------------------------------------------------------------------------
def test_equilibrium_shows_value_and_certificate() -> None:
    result = solve("sn", [3, 3, 1])
    assert repr(result) == "solve('sn', [3, 3, 1])"
    rows = data_rows(result._repr_html_())
    assert ["value", "1/3"] in rows  # SN(3,3,1) = 1/3 (seed 000, Fig. 2)
    assert ["lower bound", "1/3"] in rows and ["upper bound", "1/3"] in rows
    assert ["nodes", str(result.nodes)] in rows


def test_equilibrium_strategy_table_and_escaping() -> None:
    entries = (
        StrategyEntry(
            "L", (), "[2, 1]", Fraction(1), (("1_1", Fraction(1, 3)), ("2_1", Fraction(2, 3)))
        ),
    )
    record = EquilibriumResult(
        "kn", (2, 1), True, Fraction(1, 2), False, 9, 3,
        Certificate(Fraction(1, 3), Fraction(2, 3), "bounds <a & b>"), {"total": 0.5}, entries,
    )  # fmt: skip
    page = record._repr_html_()
    rows = data_rows(page)
    assert "bounds <a & b>" not in page and ["certificate", "bounds <a & b>"] in rows
    assert ["L", "", "[2, 1]", "1", "1_1: 1/3, 2_1: 2/3"] in rows
    assert repr(record) == "solve('kn', [2, 1], misere=True)"


def test_hidden_catalogue_game_repr_round_trips() -> None:
    result = solve("kn", "6", game="subtraction", options={"max": 2})
    text = repr(result)
    assert text == "solve('kn', '6', game='subtraction', options={'max': 2})"
    assert eval(text, {"solve": nimlab.solve}).value == result.value


# -- Scoring Nim --------------------------------------------------------------------------------
@pytest.mark.parametrize("heaps", [(5, 4, 2), (3, 2, 1), (2,)])
def test_payoff_function_table_matches_the_recursion(heaps: tuple[int, ...]) -> None:
    f = payoff_function(heaps)
    assert eval(repr(f), {"PiecewiseLinear": PiecewiseLinear, "Fraction": Fraction}) == f
    rows = data_rows(f._repr_html_())
    for n_text, value, _slope in rows[1:] if f.breakpoints else []:
        n = Fraction(n_text)
        if n.denominator == 1:
            assert Fraction(value) == scoring(tuple(sorted(heaps)), int(n))


def test_payoff_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    f = payoff_function([5, 4, 2])
    svg = re.findall(r"<svg.*?</svg>", f._repr_html_(), flags=re.DOTALL)
    assert len(svg) == 1
    root = ET.fromstring(svg[0])
    polyline = root.find("{http://www.w3.org/2000/svg}polyline")
    assert polyline is not None
    assert len(polyline.attrib["points"].split()) == len(f.breakpoints) + 2


def test_plot_payoff_writes_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("matplotlib")
    from nimlab.scoring.plot import plot_payoff

    monkeypatch.chdir(tmp_path)
    figure = plot_payoff(payoff_function([5, 4, 2]), title="f")
    assert figure.axes[0].get_title() == "f" and list(tmp_path.iterdir()) == []
    plot_payoff(payoff_function([5, 4, 2]), tmp_path / "f.svg")
    ET.parse(tmp_path / "f.svg")


# -- Gambit files -------------------------------------------------------------------------------
def test_efg_result_display() -> None:
    from nimlab.equilibrium.efg_read import parse_efg, to_zero_sum
    from nimlab.equilibrium.efg_solve import solve_efg

    text = """EFG 2 R "coin & <die>" { "P1" "P2" }
c "" 1 "toss" { "heads" 1/3 "tails" 2/3 } 0
p "" 1 1 "saw heads" { "bet" "pass" } 0
t "" 1 "win" { 2 -2 }
t "" 2 "nothing" { 0 0 }
p "" 1 2 "saw tails" { "bet" "pass" } 0
t "" 3 "lose" { -1 1 }
t "" 2
"""
    result = solve_efg(to_zero_sum(parse_efg(text)), strategies=True)
    assert repr(result).startswith("<EfgResult 'coin & <die>': value 2/3 for P1 (exact)")
    page = result._repr_html_()
    assert "coin &amp; &lt;die&gt;" in page
    rows = data_rows(page)
    # By hand: bet on heads (1/3 of the time, wins 2), pass on tails (0): 1/3 * 2 = 2/3.
    assert ["value for P1", "2/3"] in rows
    assert ["P1", "saw heads", "bet: 1, pass: 0"] in rows


def test_a_domineering_board_is_drawn_with_its_thermograph() -> None:
    """``analyze("domineering", ...)`` draws the board (blocked cells dark) and the value's
    thermograph; the value shown is the brute-force twin's canonical form."""
    from nimlab.cgt.rulesets.domineering import brute_value

    for board, cells, blocked in (("../..", 4, 0), ("..#/...", 6, 1)):
        page = analyze("domineering", board)._repr_html_()
        checked(page)
        svgs = re.findall(r"<svg.*?</svg>", page, flags=re.DOTALL)
        assert len(svgs) == 2, board  # the board, then the thermograph
        assert svgs[0].count('width="28" height="28"') == cells
        assert svgs[0].count('fill="#555"') == blocked
        assert "<polyline" in svgs[1] or "<line" in svgs[1]
        rows = dict(r for r in data_rows(page) if len(r) == 2)
        assert rows["value"] == str(brute_value(board))
    assert (
        dict(r for r in data_rows(analyze("domineering", "../..")._repr_html_()) if len(r) == 2)[
            "temperature"
        ]
        == "1"
    )  # ±1 = {1|-1}: temperature 1


def test_a_cgt_game_shows_its_values_and_thermograph() -> None:
    """A :class:`nimlab.cgt.Game` in a notebook: its numbers in a table, its thermograph as SVG
    (``_repr_svg_`` too); {2|-1/2}: stops 2 and -1/2, mean 3/4, temperature 5/4."""
    from nimlab.cgt import parse_game

    g = parse_game("{2|-1/2}")
    page = g._repr_html_()
    checked(page)
    text = re.sub(r"<[^>]+>", " ", page)
    for words in ("{2|-1/2}", "3/4", "5/4", "-1/2"):
        assert words in text, words
    assert "<svg" in page
    picture = g._repr_svg_()
    root = ET.fromstring(picture)
    assert root.tag.endswith("svg")
    # a hot game's thermograph has a mast and two walls: more than one segment drawn
    assert picture.count("<polyline") + picture.count("<line") >= 2
    assert ET.fromstring(parse_game("*")._repr_svg_()).tag.endswith("svg")


def test_a_hackenbush_graph_is_drawn_edge_by_edge() -> None:
    """Every edge drawn once in its colour (blue, red, green), numbered from 1 as typed moves
    number them; the value's thermograph follows."""
    from nimlab.cgt.rulesets.hackenbush import brute_value

    graph = "g-a:B,a-b:R,b-g:G,b-c:B,g-g:R,a-b:G"
    page = analyze("hackenbush", graph)._repr_html_()
    checked(page)
    drawing = re.findall(r"<svg.*?</svg>", page, flags=re.DOTALL)[0]
    assert drawing.count("<path") == 6
    assert drawing.count('stroke="#1f5fbf"') == 2  # blue
    assert drawing.count('stroke="#c8322d"') == 2  # red
    assert drawing.count('stroke="#2f9e44"') == 2  # green
    assert [t for t in re.findall(r">(\d+)</text>", drawing)] == ["1", "2", "3", "4", "5", "6"]
    rows = dict(r for r in data_rows(page) if len(r) == 2)
    assert rows["value"] == str(brute_value(graph))
