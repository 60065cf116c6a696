"""sweep misere through the store, the census report and its certificates, the notebook repr."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from nimlab.quotients import misere_quotient
from nimlab.quotients.certificate import check_certificate
from nimlab.reports.misere_census import write_report


def test_sweep_misere_fills_the_store(cli: Any, tmp_path: Path) -> None:
    store = str(tmp_path / "s.sqlite")
    args = ("sweep", "misere", "--codes", "0.77,0.07", "--upto", "12", "--store", store)
    first = cli(*args, "--workers", "1", "--json")
    assert first.code == 0, first.err
    assert first.json()["computed"] == 2
    again = cli(*args, "--workers", "1", "--json").json()
    assert (again["computed"], again["skipped"]) == (0, 2)
    served = cli("misere", "0.07", "--upto", "12", "--store", store, "--json").json()
    assert served["cached"] is True and served["order"] == 12


def test_census_report_and_certificates(tmp_path: Path) -> None:
    report = write_report(tmp_path, limit=8)
    text = report.read_text()
    assert "| 0.1 | 2 | 1 |" in text  # one token at a time: parity, the tame quotient {1, a}
    assert text.count("\n| 0.") == 8
    certificates = json.loads((tmp_path / "certificates.json").read_text())
    assert len(certificates) == 8
    for cert in certificates:
        check_certificate(cert, count=3, largest=8)


def test_notebook_repr_marks_the_p_portion() -> None:
    page = misere_quotient("0.07", 10)._repr_html_()
    assert "<table>" in page and "order 12" in page
    assert page.count("<b>") >= misere_quotient("0.07", 10).p_order
