"""Scoring Nim (Oginuma and Shinoda, 2025): exact payoffs as functions of the bonus N, and more."""

from nimlab.scoring.payoff import (
    PayoffSolution,
    c_minus,
    c_plus,
    payoff_function,
    payoff_value,
    solve_payoffs,
)
from nimlab.scoring.piecewise import PiecewiseLinear, maximum

__all__ = [
    "PayoffSolution",
    "PiecewiseLinear",
    "c_minus",
    "c_plus",
    "maximum",
    "payoff_function",
    "payoff_value",
    "solve_payoffs",
]
