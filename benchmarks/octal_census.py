"""The octal census as a Markdown table, from a results store filled by
``nimlab sweep grundy --codes 0.01..0.77,0.001..0.777 --upto N --summary --store STORE``.

Run: ``python benchmarks/octal_census.py STORE`` (prints the table and a tally).
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from nimlab.store.results import ResultStore


def row(payload: dict[str, Any]) -> str:
    """One code's line: its status, period and preperiod (proven) or how far it is unsettled,
    and its rare values."""
    rare = payload["rare"]
    shown = ", ".join(sorted(rare["values"], key=int)[:12])
    more = " ..." if len(rare["values"]) > 12 else ""
    if payload["status"] == "periodic":
        status = f"period {payload['period']}, preperiod {payload['preperiod']}"
        reach = f"proven from {payload['proven']:,} values"
    else:
        status = f"unsettled up to {payload['unsettled_up_to']:,}"
        reach = f"{payload['computed']:,} values"
    game = payload["game"].removeprefix("octal(").removesuffix(")")
    return (
        f"| {game} | {status} | {reach} | {payload['max']} | {rare['mask']} | "
        f"{rare['count']:,} | {shown}{more} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store")
    args = parser.parse_args()
    with ResultStore(args.store, create=False) as store:
        rows = [r for r in store.results() if r.method == "summary"]
    rows.sort(key=lambda r: (len(r.payload["game"]), r.payload["game"]))
    print("| code | status | evidence | max | mask | rare heaps | rare values |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for result in rows:
        print(row(result.payload))
    tally = Counter(r.payload["status"] for r in rows)
    print(f"\n{len(rows)} codes: {tally['periodic']} periodic, {tally['unsettled']} unsettled")


if __name__ == "__main__":
    main()
