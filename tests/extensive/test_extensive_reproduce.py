"""The nim-variants report recomputes the paper's claims and they all agree."""

from __future__ import annotations

from pathlib import Path

from nimlab.extensive.reproduce import write_report


def test_report_small(tmp_path: Path) -> None:
    path = write_report(tmp_path / "out", table2_max=4, large_kn=False)
    text = path.read_text()
    assert "## Table 1" in text and "## Table 2" in text and "Fig. 2" in text
    assert "| NO |" not in text
    assert "claims checked: all agree" in text
    assert "misère Schrödinger Nim" in text and "three heaps" in text and "kn-empty" in text
    assert "| SN(4,4,1) | 1/5 | 1/5 | True | yes |" in text  # the diagonal pattern
