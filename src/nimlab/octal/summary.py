"""A summary of g(0..N) that never holds all values: histogram, rare values, proven period.

The engine (:class:`SummaryRun`) is the sparse-space method of :mod:`nimlab.octal.sparse`
compiled by numba (:mod:`nimlab.octal.kernels`, the kernel of the full table too), with the
values in the narrowest unsigned integer type that holds them (``uint8`` while every value is
below 256: one byte per heap, ``uint16`` two; a single copy, the kernel's vector compares read
it backwards in registers), rare positions in arrays that grow with them, and the histogram
kept as the values come.
It looks for a period by the octal periodicity theorem at values 64, 80, 100, ... (each about
1.25 times the last) and stops as soon as one is proven; the histogram up to any N then follows
in closed form, so a periodic game answers for ``N = 2**40`` at once.

A checkpoint (:func:`SummaryRun.save`) is a JSON header replaced atomically (temporary file,
then rename) and a file of raw values written before it, only appended to: a run killed at any
moment resumes from the last header and gives the same summary as a single run (the values
never depend on the mask or the chunking).

>>> from nimlab.octal.code import OctalCode
>>> summary = summarize_code(OctalCode.parse("0.77"), 2**40)
>>> summary.period, summary.preperiod, summary.proven, summary.counts[4]
(12, 71, 168, 183251937965)
>>> summary.max, summary.computed <= 400
(8, True)
>>> from nimlab.octal.plain import plain_sequence
>>> from nimlab.octal.rules import GRUNDY_GAME_RULES
>>> small = summarize(GRUNDY_GAME_RULES, 3000, max_take=None)
>>> values = plain_sequence(GRUNDY_GAME_RULES, 3000)
>>> small.counts == {v: values.count(v) for v in set(values)}
True
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from nimlab.errors import InvalidPositionError
from nimlab.octal.code import OctalCode
from nimlab.octal.rules import MoveRules, rules_of
from nimlab.octal.sparse import is_rare, mask_from_counts, value_dtype
from nimlab.progress import report

__all__ = [
    "CHECK_GROWTH",
    "MAX_PERIOD",
    "RareValue",
    "Summary",
    "SummaryRun",
    "summarize",
    "summarize_code",
    "summary_cost",
    "value_dtype",
    "warm_up",
]

MAX_PERIOD = 1 << 25
"""The largest period looked for (its Z-function takes 4 bytes per period tried)."""
CHECK_GROWTH = 1.25
"""Period checks at values 64, 80, 100, ...: each about this factor after the last."""
_MIN_HALF = 16
_FIRST_REVIEW = 64
_FIRST_CHUNK = 1 << 16
_CHUNK = 1 << 20
_HIST_CHUNK = 1 << 22
_FORMAT = "nimlab-octal-checkpoint"


@dataclass(frozen=True)
class RareValue:
    """How often a rare value occurs over heaps 1..N, and its first and last heap."""

    count: int
    first: int
    last: int


@dataclass
class Summary:
    """What :func:`summarize` found over heaps ``0..upto``."""

    upto: int
    counts: dict[int, int]
    max: int
    mask: int
    rare: dict[int, RareValue]
    rare_count: int
    period: int | None
    preperiod: int | None
    proven: int | None
    computed: int
    seconds: float
    resumed_from: int = 0
    periods_tried: int = 0
    value_bytes: int = 1

    def to_json(self) -> dict[str, Any]:
        """The contract's keys (``counts``, ``max``, ``rare``, ``period``, ``preperiod``) and
        what the run did (``stopped_at``, ``proven``, ``computed``, ...)."""
        return {
            "upto": self.upto,
            "counts": {str(v): c for v, c in sorted(self.counts.items())},
            "max": self.max,
            "rare": {
                "mask": self.mask,
                "count": self.rare_count,
                "values": {
                    str(v): {"count": r.count, "first": r.first, "last": r.last}
                    for v, r in sorted(self.rare.items())
                },
            },
            "period": self.period,
            "preperiod": self.preperiod,
            "proven": self.proven,
            "status": "periodic" if self.period is not None else "unsettled",
            "unsettled_up_to": None if self.period is not None else self.upto,
            "stopped_at": self.computed - 1,
            "computed": self.computed,
            "resumed_from": self.resumed_from,
            "periods_tried_up_to": self.periods_tried,
            "bytes_per_value": self.value_bytes,
            "seconds": round(self.seconds, 3),
        }


@dataclass
class SummaryRun:
    """The state of one bounded-memory computation of g(0), g(1), ... (see the module)."""

    rules: MoveRules
    key: str
    max_take: int | None
    g: npt.NDArray[Any] = field(default_factory=lambda: np.zeros(0, dtype=np.uint8))
    count: int = 0
    counts: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    period: tuple[int, int] | None = None
    periods_tried: int = 0
    resumed_from: int = 0
    _saved: int = 0

    # -- the run ---------------------------------------------------------------------------

    def run(
        self,
        upto: int,
        *,
        checkpoint: Path | None = None,
        every: float = 60.0,
        report_every: float = 2.0,
        max_seconds: float | None = None,
    ) -> None:
        """Compute until ``g(upto)`` is known or a period is proven (saving to ``checkpoint``
        every ``every`` seconds and at the end; reporting progress every ``report_every``),
        or until ``max_seconds`` have passed (then ``count`` says how far it came)."""
        from nimlab.octal import kernels

        target = upto + 1
        if self.count >= target or self.period is not None:
            self._check_period(min(self.count, target))
            return
        self._grow(min(target, max(self.count * 2, _FIRST_CHUNK)))
        half = self._half()
        rare_value, mask = self._rare_table(half)
        rare, rare_g, nrare = self._rare_positions(rare_value, 1024)
        seen = np.zeros(2 * half + 1, dtype=np.int64)
        split = np.array(self.rules.split, dtype=np.int64)
        take_all = np.array(self.rules.take_all, dtype=np.int64)
        take_some = np.array(self.rules.take_some, dtype=np.int64)
        review = max(_FIRST_REVIEW, 1 << max(self.count, 1).bit_length())
        next_check = self._next_check(self.count)
        started = last_save = last_report = time.monotonic()
        while self.count < target:
            if self.count >= self.g.shape[0]:
                self._grow(min(target, self.g.shape[0] * 2))
            stop = min(target, review, self.g.shape[0], self.count + _CHUNK)
            if self.max_take is not None:
                stop = min(stop, next_check)
            start = self.count
            reached, nrare = kernels.extend(
                self.g, start, stop, rare, rare_g, nrare, rare_value, seen, half,
                take_all, take_some, split, self.rules.unequal_split,
            )  # fmt: skip
            self._count_values(start, reached)
            self.count = reached
            if nrare == rare.shape[0]:
                rare, rare_g, nrare = self._rare_positions(rare_value, 2 * rare.shape[0])
            if int(self.g[reached - 1]) >= half or reached >= review:
                if reached >= review:
                    review *= 2
                half = self._half()
                if self.g.dtype != value_dtype(half):
                    self.g = self.g.astype(value_dtype(half))
                rare_value, mask = self._rare_table(half)
                rare, rare_g, nrare = self._rare_positions(rare_value, max(1024, 2 * nrare))
                seen = np.zeros(2 * half + 1, dtype=np.int64)
            if self.max_take is not None and self.count >= next_check:
                if self._check_period(self.count):
                    break
                next_check = self._next_check(self.count)
            now = time.monotonic()
            if max_seconds is not None and now - started >= max_seconds:
                break
            if checkpoint is not None and now - last_save >= every:
                self.save(checkpoint)
                last_save = now
            if now - last_report >= report_every:
                rate = (self.count - self.resumed_from) / max(now - started, 1e-9)
                report(
                    f"g(n) computed for n < {self.count:,} of {target:,} "
                    f"({rate:,.0f} values/s, {nrare:,} rare, mask {mask})"
                )
                last_report = now
        if self.period is None and self.max_take is not None:
            self._check_period(self.count)
        if checkpoint is not None:
            self.save(checkpoint)

    def _half(self) -> int:
        """The power of two above every value so far (at least 16)."""
        top = int(np.flatnonzero(self.counts)[-1]) if self.counts.any() else 0
        return max(_MIN_HALF, 1 << top.bit_length())

    def _rare_table(self, half: int) -> tuple[npt.NDArray[np.bool_], int]:
        """Which values are rare for the mask chosen from the histogram, and the mask."""
        mask = self.best_mask(half)
        table = np.array([is_rare(v, mask) for v in range(2 * half + 1)], dtype=np.bool_)
        return table, mask

    def best_mask(self, half: int) -> int:
        """The mask with the fewest rare heaps among ``1..count - 1``."""
        counts = np.zeros(half, dtype=np.int64)
        counts[: len(self.counts)] = self.counts[:half]
        if self.count:
            counts[int(self.g[0])] -= 1
        return mask_from_counts(counts, half)

    def _rare_positions(
        self, rare_value: npt.NDArray[np.bool_], capacity: int
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32], int]:
        """The rare positions so far, in arrays with room for at least ``capacity``."""
        from nimlab.octal import kernels

        while True:
            rare = np.zeros(capacity, dtype=np.int64)
            rare_g = np.zeros(capacity, dtype=np.int32)
            found = kernels.collect_rare(self.g, self.count, rare_value, rare, rare_g)
            if found < capacity:
                return rare, rare_g, found
            capacity = 2 * found + 2

    def _grow(self, size: int) -> None:
        """Room for ``size`` values (in place where the allocator can: no second copy)."""
        if size > self.g.shape[0]:
            if self.g.shape[0] == 0:
                self.g = np.zeros(size, dtype=self.g.dtype)
            else:
                self.g.resize(size, refcheck=False)

    def _count_values(self, start: int, stop: int) -> None:
        """Add ``g[start:stop]`` to the histogram."""
        if stop <= start:
            return
        chunk = np.bincount(self.g[start:stop], minlength=1)
        if len(chunk) > len(self.counts):
            grown = np.zeros(len(chunk), dtype=np.int64)
            grown[: len(self.counts)] = self.counts
            self.counts = grown
        self.counts[: len(chunk)] += chunk

    def _next_check(self, count: int) -> int:
        return max(_FIRST_REVIEW, int(count * CHECK_GROWTH) + 1)

    def _check_period(self, size: int) -> bool:
        """Look for a period proven by ``g[:size]``; remember it."""
        from nimlab.octal import kernels

        if self.max_take is None or self.period is not None:
            return self.period is not None
        largest = min(MAX_PERIOD, (size - self.max_take - 2) // 2)
        if largest < 1:
            return False
        z = np.zeros(largest + 1, dtype=np.int32 if size < (1 << 31) else np.int64)
        period, start = kernels.least_period(self.g, size, self.max_take, largest, z)
        self.periods_tried = max(self.periods_tried, largest)
        if period:
            self.period = (int(period), int(start))
            return True
        return False

    # -- checkpoints -------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Append the new values to the values file, then replace the header atomically."""
        itemsize = self.g.dtype.itemsize
        values_path = path.with_name(f"{path.name}.{self.g.dtype.name}")
        header_values = _read_header(path).get("values") if path.exists() else None
        start = self._saved if header_values == values_path.name else 0
        mode = "r+b" if start and values_path.exists() else "wb"
        with values_path.open(mode) as out:
            out.seek(start * itemsize)
            self.g[start : self.count].tofile(out)  # straight from the array: no copy
            out.truncate(self.count * itemsize)
            out.flush()
            os.fsync(out.fileno())
        header = {
            "format": _FORMAT,
            "version": 1,
            "game": self.key,
            "count": self.count,
            "dtype": self.g.dtype.name,
            "values": values_path.name,
        }
        temporary = path.with_name(f"{path.name}.tmp")
        temporary.write_text(json.dumps(header))
        with temporary.open("rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        self._saved = self.count
        for other in path.parent.glob(f"{path.name}.uint*"):
            if other.name != values_path.name:
                other.unlink(missing_ok=True)

    @classmethod
    def resume(cls, rules: MoveRules, key: str, max_take: int | None, path: Path) -> SummaryRun:
        """A run restarted from the checkpoint at ``path`` (a new one if there is none)."""
        state = cls(rules=rules, key=key, max_take=max_take)
        if not path.exists():
            return state
        header = _read_header(path)
        if header.get("format") != _FORMAT or header.get("game") != key:
            raise InvalidPositionError(
                f"checkpoint {path} is not one of {key} (it holds {header.get('game')!r})"
            )
        count = int(header["count"])
        dtype = np.dtype(str(header["dtype"]))
        state.g = np.fromfile(path.parent / str(header["values"]), dtype=dtype, count=count)
        if state.g.shape[0] != count:
            raise InvalidPositionError(f"checkpoint {path}: its values file is too short")
        state.count = state._saved = state.resumed_from = count
        for begin in range(0, count, _HIST_CHUNK):
            state._count_values(begin, min(count, begin + _HIST_CHUNK))
        return state

    # -- the summary -------------------------------------------------------------------------

    def summary(self, upto: int, seconds: float) -> Summary:
        """The histogram over heaps ``0..upto`` (closed form past the values when periodic),
        the rare values for the best mask over heaps ``1..upto``, and the period."""
        from nimlab.octal import kernels

        known = min(self.count, upto + 1)
        if known == self.count:
            counts = self.counts.copy()
        else:
            counts = np.zeros(len(self.counts), dtype=np.int64)
            for begin in range(0, known, _HIST_CHUNK):
                end = min(known, begin + _HIST_CHUNK)
                chunk = np.bincount(self.g[begin:end], minlength=len(counts))
                counts[: len(chunk)] += chunk
        nvalues = len(counts)
        first = np.full(nvalues, -1, dtype=np.int64)
        last = np.full(nvalues, -1, dtype=np.int64)
        kernels.first_last(self.g, 1, known, first, last)
        if upto + 1 > self.count and self.period is not None:
            period = self.period[0]
            window = self.g[self.count - period : self.count].astype(np.int64)
            heaps = np.arange(self.count - period, self.count, dtype=np.int64)
            whole, part = divmod(upto + 1 - self.count, period)
            counts += whole * np.bincount(window, minlength=nvalues)[:nvalues]
            counts += np.bincount(window[:part], minlength=nvalues)[:nvalues]
            shifted = heaps + period * ((upto - heaps) // period)
            np.maximum.at(last, window, shifted)
        half = max(_MIN_HALF, 1 << (nvalues - 1).bit_length())
        padded = np.zeros(half, dtype=np.int64)
        padded[:nvalues] = counts
        padded[int(self.g[0])] -= 1  # the mask counts heaps 1..upto
        mask = mask_from_counts(padded, half) if upto > 0 else 0
        rare = {
            v: RareValue(int(padded[v]), int(first[v]), int(last[v]))
            for v in range(nvalues)
            if padded[v] > 0 and is_rare(v, mask)
        }
        return Summary(
            upto=upto,
            counts={v: int(c) for v, c in enumerate(counts) if c},
            max=int(np.flatnonzero(counts)[-1]),
            mask=mask,
            rare=rare,
            rare_count=sum(r.count for r in rare.values()),
            period=None if self.period is None else self.period[0],
            preperiod=None if self.period is None else self.period[1],
            proven=None if self.period is None else _proof_length(self.period, self.max_take),
            computed=self.count,
            seconds=seconds,
            resumed_from=self.resumed_from,
            periods_tried=self.periods_tried,
            value_bytes=self.g.dtype.itemsize,
        )


def _proof_length(period: tuple[int, int], max_take: int | None) -> int:
    """Values the theorem needs (:func:`nimlab.octal.periodicity.proof_length`)."""
    return 2 * max(period[1], 1) + 2 * period[0] + (max_take or 0)


def _read_header(path: Path) -> dict[str, Any]:
    try:
        header = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise InvalidPositionError(f"cannot read checkpoint {path}: {error}") from error
    if not isinstance(header, dict):
        raise InvalidPositionError(f"checkpoint {path} is not a nimlab checkpoint")
    return header


def summarize(
    rules: MoveRules,
    upto: int,
    *,
    max_take: int | None,
    key: str = "",
    checkpoint: Path | None = None,
    every: float = 60.0,
    max_seconds: float | None = None,
) -> Summary:
    """The summary of g(0..upto) under ``rules``; ``max_take`` is the octal code's ``t`` (the
    periodicity theorem is used only with it; ``None``: never, e.g. for Grundy's game).
    After ``max_seconds`` the run stops and summarizes the heaps it reached (``upto`` of the
    summary is then below the one asked for)."""
    if isinstance(upto, bool) or not isinstance(upto, int) or upto < 0:
        raise InvalidPositionError(f"upto must be a non-negative integer, got {upto!r}")
    if max_seconds is not None:
        warm_up()
    started = time.perf_counter()
    if checkpoint is not None:
        state = SummaryRun.resume(rules, key, max_take, checkpoint)
    else:
        state = SummaryRun(rules=rules, key=key, max_take=max_take)
    state.run(upto, checkpoint=checkpoint, every=every, max_seconds=max_seconds)
    reached = upto if state.period is not None else min(upto, state.count - 1)
    return state.summary(reached, time.perf_counter() - started)


def summarize_code(
    code: OctalCode,
    upto: int,
    *,
    checkpoint: Path | None = None,
    every: float = 60.0,
    max_seconds: float | None = None,
) -> Summary:
    """:func:`summarize` for an octal code (with its periodicity theorem)."""
    return summarize(
        rules_of(code),
        upto,
        max_take=code.max_take,
        key=f"octal({code})",
        checkpoint=checkpoint,
        every=every,
        max_seconds=max_seconds,
    )


# The cost model of a summary run (calibrated in BENCHMARKS.md, "bounded memory"): each value
# pairs every rare heap below it, about _PAIR_SECONDS per pair, plus _VALUE_SECONDS per value;
# R(N) is extrapolated from the rare counts at _SAMPLES with its growth exponent in [0, 1]
# (samples at 2^15 and 2^16: at 2^13 and 2^14 Grundy's game still gains rare heaps, 820 to
# 1,149, and 2^30 was estimated at 9 days; its count is 1,273 from 2^17 on).
_PAIR_SECONDS = 2.0e-9  # one kernel: Grundy's game to 2^23 in 21.2 s, 1,273 rare heaps (loaded)
_VALUE_SECONDS = 1e-7
_COMPILE_SECONDS = 2.0
_ENGINE_BYTES = 400_000_000
"""The process without its values: interpreter, imports, numba (173-205 MB measured with
``--upto 0`` and a warm kernel cache, 232 MB at 2^20 when the kernels compile; once 350 MB,
in the CLI child of a test run, cause not found: hence the margin)."""
_SAMPLES = (32_767, 65_535)


def summary_cost(rules: MoveRules, upto: int, *, max_take: int | None) -> tuple[float, int]:
    """Estimated (seconds, peak bytes) of :func:`summarize` to ``upto``: a pilot run to 16,383
    values (a fraction of a second) proves the period of many octal games, and then the whole
    summary is a closed form; otherwise its rare counts give the sparse engine's cost.

    >>> seconds, size = summary_cost(rules_of(OctalCode.parse("0.77")), 2**40, max_take=2)
    >>> seconds < 5, size < 500_000_000
    (True, True)
    """
    pilot = SummaryRun(rules=rules, key="", max_take=max_take)
    pilot.run(min(upto, _SAMPLES[1]))
    if pilot.period is not None or upto < pilot.count:
        return _COMPILE_SECONDS, _ENGINE_BYTES
    rares = []
    for size in _SAMPLES:
        counts = np.bincount(pilot.g[1:size])
        half = max(_MIN_HALF, 1 << (len(counts) - 1).bit_length())
        padded = np.zeros(half, dtype=np.int64)
        padded[: len(counts)] = counts
        mask = mask_from_counts(padded, half)
        rares.append(max(1, sum(int(c) for v, c in enumerate(counts) if is_rare(v, mask))))
    growth = min(1.0, max(0.0, float(np.log2(rares[1] / rares[0]))))
    size = upto + 1
    rare_upto = rares[1] * (size / (_SAMPLES[1] + 1)) ** growth
    seconds = _PAIR_SECONDS * size * rare_upto + _VALUE_SECONDS * size + _COMPILE_SECONDS
    itemsize = 1 if int(pilot.g[: pilot.count].max()) < 64 else 2
    period_bytes = 4 * min(MAX_PERIOD, size // 2) if max_take is not None else 0
    values_bytes = itemsize * size  # one copy of the values
    counting_bytes = 8 * min(size, _CHUNK)  # np.bincount's intp copy of a chunk
    total = _ENGINE_BYTES + values_bytes + counting_bytes + period_bytes + 12 * rare_upto
    return seconds, int(total)


def warm_up() -> None:
    """Compile the kernels for every value type now (a few seconds, once per process), so a
    time budget counts computing, not compiling."""
    from nimlab.octal.rules import GRUNDY_GAME_RULES

    for dtype in (np.uint8, np.uint16, np.uint32):
        run = SummaryRun(rules=GRUNDY_GAME_RULES, key="", max_take=1)
        run.g = np.zeros(0, dtype=dtype)
        run.run(300)
        run.summary(300, 0.0)
