"""Shared hypothesis strategies."""

from __future__ import annotations

from hypothesis import strategies as st

nimbers = st.integers(min_value=0, max_value=2**130)
small_nimbers = st.integers(min_value=0, max_value=255)
heaps = st.lists(st.integers(min_value=0, max_value=7), min_size=0, max_size=4).map(tuple)
big_heaps = st.lists(st.integers(min_value=0, max_value=2**70), min_size=1, max_size=8).map(tuple)
