"""The nim-variants report recomputes the paper's claims and they all agree."""

from __future__ import annotations

from pathlib import Path

from nimlab.reports.nim_variants import write_report


def test_report_small(tmp_path: Path) -> None:
    lines: list[str] = []
    path = write_report(tmp_path / "out", table2_max=4, large_kn=False, progress=lines.append)
    text = path.read_text()
    assert "## Table 1" in text and "## Table 2" in text and "Fig. 2" in text
    assert "| NO |" not in text
    assert "claims checked: all agree" in text
    assert "misère Schrödinger Nim" in text and "three heaps" in text and "kn-empty" in text
    assert "| SN(4,4,1) | 1/5 | 1/5 | True | yes |" in text  # the diagonal pattern
    assert "## Patterns guessed and checked" in text and "misère SN-(4,4,1)" in text
    assert any(line.startswith("sn(4,4,1): 1/5 (") for line in lines)  # a line per game
    assert len(lines) > 50
    assert "| SN(n, n, 1), n >= 4 | none: 1 value cannot over-determine" in text
    assert "Lemma 3.2 tightened" in text
    assert "* n1, n2 >= 4: 1/5 <= v <= 1/5 (0.2000000 to 0.2000000; least at SN(4,4,1)," in text
    # three-heap Kriegspiel's rows go into the patterns too, guessed from all but their last
    row = "| KN(n, 2, 1), n >= 2 | v(n) = 0 for n >= 2 | v(2..4) = 0, 0, 0 | 2 | v(5) = 0: holds |"
    assert row in text
    assert text.index("## Patterns guessed") > text.index("## Beyond the paper: Kriegspiel")


def test_tightened_bounds_are_the_extremes_of_the_grid_above_each_corner() -> None:
    """Each line bounds exactly the games with both first heaps at least k: its ends are
    values of the grid attained where it says, and no game in that corner lies outside."""
    import random
    from fractions import Fraction

    from nimlab.reports.nim_variants import tightened_bounds

    rng = random.Random(5)
    grid = {
        (n1, n2): Fraction(rng.randint(0, 20), 80) for n1 in range(4, 9) for n2 in range(4, n1 + 1)
    }
    for k, line in zip(range(4, 9), tightened_bounds(grid), strict=True):
        corner = {key: v for key, v in grid.items() if key[1] >= k}
        low, high = (
            Fraction(part) for part in line.split(": ")[1].split(" (")[0].split(" <= v <= ")
        )
        assert low == min(corner.values()) and high == max(corner.values())
        least = line.split("least at SN(")[1].split(",1)")[0]
        n1, n2 = map(int, least.split(","))
        assert grid[(n1, n2)] == low and n2 >= k


def test_the_patterns_section_guesses_the_diagonal_from_all_but_its_last_value() -> None:
    """The diagonal's values (as computed by ``--reach 10``) give the Möbius recurrence that
    F(2n-6)/F(2n-3) satisfies, made from n = 4..9 and checked on n = 10."""
    from fractions import Fraction

    from nimlab.reports.nim_variants import fibonacci, patterns_section

    diagonal = {n: Fraction(fibonacci(2 * n - 6), fibonacci(2 * n - 3)) for n in range(4, 11)}
    rows = [line for line in patterns_section({"diagonal": diagonal}) if line.startswith("|")]
    assert rows[2] == (
        "| diagonal | v(n+1) = (v(n) + 1)/(v(n) + 5) for n >= 4 | v(4..9) = 1/5, 3/13, 4/17, "
        "21/89, 55/233, 72/305 | 2 | v(10) = 377/1597: holds |"
    )


def test_the_report_reads_a_sweeps_results_store(tmp_path: Path) -> None:
    """Games swept into a store by the real console script are read back by the report (and
    say so); the rest are solved and added, so a second report reads every game."""
    import re
    import subprocess
    import sys

    store = tmp_path / "grid.sqlite"
    nimlab = Path(sys.executable).with_name("nimlab")
    swept = subprocess.run(
        [str(nimlab), "sweep", "solve", "sn", "--grid", "4..5,4,1", "--store", str(store)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert swept.returncode == 0, swept.stderr
    for heaps in (["6", "1", "1"], ["2", "1", "1"]):  # one beyond the report's list, one in it
        solved = subprocess.run(
            [str(nimlab), "solve", "kn", *heaps, "--store", str(store)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert solved.returncode == 0, solved.stderr
    lines: list[str] = []
    first = write_report(
        tmp_path / "a", table2_max=5, large_kn=False, progress=lines.append, store=store
    )
    assert any(line.startswith("sn(4,4,1): 1/5 (from the store;") for line in lines)
    assert any(line.startswith("sn(5,5,1): 3/13 (") and "store" not in line for line in lines)
    text = first.read_text()
    assert "claims checked: all agree" in text
    assert "| SN(5,4,1) | 1/4 | 1/4 | True | yes |" in text  # the sub-diagonal's pattern
    assert (
        "sub-diagonal game on (v(SN(n1, n, 1)) = v(SN(n+1, n, 1)) for n1 > n): holds on the 1 game "
        in text
    )
    read = re.search(rf"\* (\d+) of (\d+) games read from the results store {store}\.", text)
    assert read is not None and read.group(1) == "4"  # sn(4,4,1), sn(5,4,1), kn(6,1,1), kn(2,1,1)
    assert any(line.startswith("kn(6,1,1): 1 (from the store;") for line in lines)
    kn_rows = [line.split(" | ")[0] for line in text.splitlines() if line.startswith("| KN(")]
    games = [row for row in kn_rows if row[len("| KN(")].isdigit()]
    assert games[-1] == "| KN(6, 1, 1)" and games.count("| KN(2, 1, 1)") == 1
    # the stored game joins its row's pattern, as the value it is checked on
    assert "| KN(n, 1, 1), n >= 1 | v(n) = 1 for n >= 1 | v(1..5) = " in text
    assert "| v(6) = 1: holds |" in text
    second = write_report(tmp_path / "b", table2_max=5, large_kn=False, store=store)
    second_text = second.read_text()
    assert f"* {read.group(2)} of {read.group(2)} games read from" in second_text
    values = [line.split(" | ")[:5] for line in text.splitlines() if line.startswith("| SN")]
    assert [
        line.split(" | ")[:5] for line in second.read_text().splitlines() if line.startswith("| SN")
    ] == values


def test_a_diagonal_already_stored_is_not_refused(tmp_path: Path) -> None:
    """``check_reach`` counts only the diagonal and sub-diagonal games the store lacks: games
    stored by the real console script (``nimlab solve ... --store``) cost nothing, so a reach
    refused on an empty store is allowed once they are all in it, and refused again for a game
    still missing."""
    import subprocess
    import sys

    import pytest

    from nimlab.budget import GIB, Budget
    from nimlab.errors import TooLargeError
    from nimlab.reports.nim_variants import check_reach

    store = tmp_path / "diagonal.sqlite"
    tight = Budget(seconds=0.001, bytes=64 * GIB)
    with pytest.raises(TooLargeError, match=r"n = 5\.\.6"):
        check_reach(6, tight, table2_max=4, store=store)
    nimlab = Path(sys.executable).with_name("nimlab")
    for first, second in (("5", "5"), ("6", "6"), ("5", "4"), ("6", "5")):
        solved = subprocess.run(
            [str(nimlab), "solve", "sn", first, second, "1", "--store", str(store)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert solved.returncode == 0, solved.stderr
        if (first, second) == ("6", "6"):  # the diagonal alone is not enough
            with pytest.raises(TooLargeError, match=r"sub-diagonal SN\(n,n-1,1\) for n = 5\.\.6"):
                check_reach(6, tight, table2_max=4, store=store)
    check_reach(6, tight, table2_max=4, store=store)
    with pytest.raises(TooLargeError):
        check_reach(7, tight, table2_max=4, store=store)
