"""Thermographs: the walls of a game cooled by t, as exact piecewise-linear trajectories.

For a number x the walls are the mast at x and the temperature is -1/2^k (x's denominator
is 2^k; -1 for integers). For any other game G, for t >= 0,
``L(t) = max over G^L of RW(G^L)(t) - t`` and ``R(t) = min over G^R of LW(G^R)(t) + t``;
the temperature T is the least t with ``L(t) <= R(t)``, the mean is ``L(T)``, and above T
both walls are the vertical mast at the mean. Every breakpoint and value is a Fraction;
floats appear only in the SVG drawing.

>>> from nimlab.cgt.notation import parse_game
>>> th = thermograph_of(parse_game("{2|-1/2}"))
>>> th.temperature, th.mean
(Fraction(5, 4), Fraction(3, 4))
>>> th.to_json()["left_wall"], th.to_json()["right_wall"]
([['0', '2'], ['5/4', '3/4']], [['0', '-1/2'], ['5/4', '3/4']])
>>> thermograph_of(parse_game("{3|0||-2}")).to_json()["temperature"]
'7/4'
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from nimlab.exact import exact_str

if TYPE_CHECKING:
    from nimlab.cgt.game import Game

__all__ = ["Thermograph", "Trajectory", "thermograph_of"]

F0 = Fraction(0)


@dataclass(frozen=True)
class Trajectory:
    """A continuous piecewise-linear function of t >= 0: its breakpoints ``(t, value)``
    (the first at t = 0) and its slope after the last one.

    >>> f = Trajectory(((F0, Fraction(2)),), Fraction(-1))
    >>> f(Fraction(3)), f.shift(Fraction(1))(Fraction(3))
    (Fraction(-1, 1), Fraction(2, 1))
    """

    points: tuple[tuple[Fraction, Fraction], ...]
    slope: Fraction

    @staticmethod
    def constant(x: Fraction) -> Trajectory:
        """The vertical line (mast) at ``x``."""
        return Trajectory(((F0, x),), F0)

    def __call__(self, t: Fraction) -> Fraction:
        pts = self.points
        if t >= pts[-1][0]:
            return pts[-1][1] + self.slope * (t - pts[-1][0])
        for (t0, v0), (t1, v1) in itertools.pairwise(pts):
            if t0 <= t <= t1:
                return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
        raise ValueError(f"t = {t} is before the trajectory starts")

    def slope_after(self, t: Fraction) -> Fraction:
        """The slope just after ``t``."""
        pts = self.points
        for (t0, v0), (t1, v1) in itertools.pairwise(pts):
            if t0 <= t < t1:
                return (v1 - v0) / (t1 - t0)
        return self.slope

    def shift(self, c: Fraction) -> Trajectory:
        """``t -> f(t) + c t``."""
        return Trajectory(tuple((t, v + c * t) for t, v in self.points), self.slope + c)

    def truncate(self, at: Fraction) -> Trajectory:
        """``f`` up to ``at``, then constant."""
        pts = [p for p in self.points if p[0] < at] + [(at, self(at))]
        return _simplified(pts, F0)


def _simplified(points: list[tuple[Fraction, Fraction]], slope: Fraction) -> Trajectory:
    """Drop breakpoints where the slope does not change."""
    kept: list[tuple[Fraction, Fraction]] = []
    for p in points:
        if kept and kept[-1][0] == p[0]:
            continue
        while len(kept) >= 2:
            (t0, v0), (t1, v1) = kept[-2], kept[-1]
            if (v1 - v0) * (p[0] - t1) == (p[1] - v1) * (t1 - t0):
                kept.pop()
            else:
                break
        kept.append(p)
    if len(kept) >= 2:
        (t0, v0), (t1, v1) = kept[-2], kept[-1]
        if (v1 - v0) / (t1 - t0) == slope:
            kept.pop()
    return Trajectory(tuple(kept), slope)


def _combine(
    f: Trajectory, g: Trajectory, pick: Callable[[Fraction, Fraction], Fraction], larger: bool
) -> Trajectory:
    """The pointwise max (``larger``) or min of two trajectories, exactly."""
    ts = sorted({t for t, _ in f.points} | {t for t, _ in g.points})
    extra: list[Fraction] = []
    for t0, t1 in itertools.pairwise(ts):
        d0, d1 = f(t0) - g(t0), f(t1) - g(t1)
        if d0 * d1 < 0:
            extra.append(t0 + (t1 - t0) * d0 / (d0 - d1))
    last = ts[-1]
    d, ds = f(last) - g(last), f.slope - g.slope
    if ds != 0 and d * ds < 0:
        extra.append(last - d / ds)
    all_ts = sorted(set(ts) | set(extra))
    points = [(t, pick(f(t), g(t))) for t in all_ts]
    end = all_ts[-1]
    fe, ge = f(end), g(end)
    if fe == ge:
        slope = max(f.slope, g.slope) if larger else min(f.slope, g.slope)
    else:
        slope = f.slope if (fe > ge) == larger else g.slope
    return _simplified(points, slope)


def _first_meeting(left: Trajectory, right: Trajectory) -> Fraction:
    """The least t >= 0 with ``left(t) <= right(t)``."""
    ts = sorted({t for t, _ in left.points} | {t for t, _ in right.points})
    for t0, t1 in itertools.pairwise(ts):
        d0, d1 = left(t0) - right(t0), left(t1) - right(t1)
        if d0 <= 0:
            return t0
        if d1 <= 0:
            return t0 + (t1 - t0) * d0 / (d0 - d1)
    last = ts[-1]
    d = left(last) - right(last)
    if d <= 0:
        return last
    ds = left.slope - right.slope
    if ds >= 0:
        raise ArithmeticError("the walls never meet (not a short game?)")
    return last - d / ds


@dataclass(frozen=True)
class Thermograph:
    """The walls (for t >= 0), the mast (the mean) and the temperature, all exact."""

    left_wall: Trajectory
    right_wall: Trajectory
    mean: Fraction
    temperature: Fraction

    def to_json(self) -> dict[str, Any]:
        """Exact strings: ``{"temperature", "mean", "left_wall", "right_wall"}``, each wall a
        list of ``[t, value]`` breakpoints from t = 0 (vertical above the last one)."""

        def wall(w: Trajectory) -> list[list[str]]:
            return [[exact_str(t), exact_str(v)] for t, v in w.points]

        return {
            "temperature": exact_str(self.temperature),
            "mean": exact_str(self.mean),
            "left_wall": wall(self.left_wall),
            "right_wall": wall(self.right_wall),
        }

    def svg(self, width: int = 360, height: int = 260) -> str:
        """The thermograph drawn: value on the horizontal axis, positive to the LEFT (the
        convention of Winning Ways), temperature upwards; floats only here."""
        from nimlab.cgt.render import thermograph_svg

        return thermograph_svg(self, width, height)

    def _repr_svg_(self) -> str:
        return self.svg()


def thermograph_of(g: Game) -> Thermograph:
    """The thermograph of ``g`` (children's are memoised on each game)."""
    if g.number is not None:
        x = g.number
        temperature = Fraction(-1, x.denominator)
        mast = Trajectory.constant(x)
        return Thermograph(mast, mast, x, temperature)
    left: Trajectory | None = None
    for o in g.left:
        w = o.thermograph.right_wall.shift(Fraction(-1))
        left = w if left is None else _combine(left, w, max, True)
    right: Trajectory | None = None
    for o in g.right:
        w = o.thermograph.left_wall.shift(Fraction(1))
        right = w if right is None else _combine(right, w, min, False)
    assert left is not None and right is not None, "a non-number has options on both sides"
    temperature = _first_meeting(left, right)
    mean = left(temperature)
    return Thermograph(left.truncate(temperature), right.truncate(temperature), mean, temperature)
