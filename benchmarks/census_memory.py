"""Where the memory of ``nimlab reproduce misere-census`` goes, code by code (Linux only).

Run: ``.venv/bin/python benchmarks/census_memory.py [--codes 0.6,0.35] [--start K] [--limit N]
[--seconds S]``. In one process, as :func:`nimlab.reports.misere_census.write_report` runs
them (census order, each code its census seconds unless ``--seconds``): before each code the
process's peak RSS is reset (``/proc/self/clear_refs``), and after it the peak reached while
that code was solved, the RSS left behind, and the bytes of what the census keeps of it (its
certificate's JSON). Prints a Markdown table, the codes by peak, and the run's peak.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from nimlab.quotients import misere_quotient
from nimlab.reports.misere_census import census_codes

STATUS = Path("/proc/self/status")


def rss_and_peak() -> tuple[float, float]:
    """The process's resident set and its peak since the last reset, in MB."""
    fields = dict(
        line.split(":", 1) for line in STATUS.read_text().splitlines() if line.startswith("Vm")
    )
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def reset_peak() -> None:
    """Reset VmHWM to the present RSS (``echo 5 > /proc/self/clear_refs``)."""
    Path("/proc/self/clear_refs").write_text("5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--codes", default=None)
    parser.add_argument("--start", type=int, default=0, help="skip the first codes")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    args = parser.parse_args()
    plan = list(census_codes())
    if args.codes:
        chosen = args.codes.split(",")
        plan = [(c, s) for c, s in plan if c in chosen]
    plan = plan[args.start : args.limit]
    print("| code | heap | order | peak MB | RSS after MB | certificate KB | s |")
    print("|---|---|---|---|---|---|---|")
    rows = []
    top = 0.0
    kept = 0
    for code, allowed in plan:
        reset_peak()
        started = time.monotonic()
        quotient = misere_quotient(code, seconds=args.seconds or allowed)
        seconds = time.monotonic() - started
        certificate = len(json.dumps(quotient.certificate())) / 1024
        kept += int(certificate)
        rss, peak = rss_and_peak()
        top = max(top, peak)
        rows.append((peak, code))
        print(
            f"| {code} | {quotient.certified_to} | {quotient.order} | {peak:.0f} | {rss:.0f} |"
            f" {certificate:.0f} | {seconds:.1f} |",
            flush=True,
        )
        del quotient
    rows.sort(reverse=True)
    print("\nlargest peaks: " + ", ".join(f"{c} {p:.0f} MB" for p, c in rows[:8]))
    print(f"run's peak {top:.0f} MB; certificates kept {kept / 1024:.1f} MB as JSON")


if __name__ == "__main__":
    main()
