"""Nim analysis: winning moves (normal and misère) and enumerations of lost positions."""

from nimlab.nim.analysis import (
    NimAnalysis,
    NimGame,
    NimMove,
    analyze_nim,
    nim_outcome,
    nim_winning_moves,
)
from nimlab.nim.enumeration import (
    AestheticPositions,
    aesthetic_positions,
    is_obviously_lost,
    lost_positions,
    lost_trapezoids,
    lost_triangles,
)

__all__ = [
    "AestheticPositions",
    "NimAnalysis",
    "NimGame",
    "NimMove",
    "aesthetic_positions",
    "analyze_nim",
    "is_obviously_lost",
    "lost_positions",
    "lost_trapezoids",
    "lost_triangles",
    "nim_outcome",
    "nim_winning_moves",
]
