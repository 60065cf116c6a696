"""Rulesets valued exactly: Domineering and Hackenbush on any graph (move generators,
decomposition into regions, brute-force twins)."""

__all__: list[str] = []
