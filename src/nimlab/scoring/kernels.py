"""The grid engine's loop compiled with numba: same values, same certificates, as the numpy one.

Import this module only when numba is wanted: it imports numba at the top and compiles the
kernel on first use (cached on disk afterwards).

>>> import numpy as np
>>> offsets = np.array([0, 0, 1], dtype=np.int64)      # () has no move; (1,) -> () taking 1
>>> kids, taken = np.array([0], dtype=np.int64), np.array([1], dtype=np.int64)
>>> values, status = grid_kernel(offsets, kids, taken, 2)
>>> values.tolist(), status                             # f_N() = -N, f_N(1) = 1 + N
([[2, 1, 0, -1, -2], [-1, 0, 1, 2, 3]], 0)
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

__all__ = ["NOT_INTEGRAL", "OK", "WINDOW_TOO_NARROW", "grid_kernel"]

OK, NOT_INTEGRAL, WINDOW_TOO_NARROW = 0, 1, 2


@numba.njit(cache=True, nogil=True)
def _kernel(offsets: Any, kids: Any, taken: Any, half_width: int) -> Any:  # pragma: no cover
    width = 2 * half_width + 1
    states = offsets.size - 1
    values = np.empty((states, width), dtype=np.int64)
    best = np.empty(width, dtype=np.int64)
    joint = np.empty(width - 1, dtype=np.bool_)
    for i in range(states):
        a, b = offsets[i], offsets[i + 1]
        if a == b:
            for j in range(width):
                values[i, j] = half_width - j  # f_N(0) = -N at N = j - half_width
            continue
        for j in range(width):
            best[j] = -(1 << 60)
        for e in range(a, b):
            c, t = kids[e], taken[e]
            for j in range(width):
                v = t - values[c, j]
                if v > best[j]:
                    best[j] = v
        for j in range(width - 1):
            joint[j] = False
        right, left = -(1 << 60), 1 << 60
        for e in range(a, b):
            c, t = kids[e], taken[e]
            for j in range(width - 1):
                if t - values[c, j] == best[j] and t - values[c, j + 1] == best[j + 1]:
                    joint[j] = True
            right = max(right, values[c, width - 2] - values[c, width - 1])
            left = min(left, values[c, 0] - values[c, 1])
        for j in range(width - 1):
            if not joint[j]:
                return values, 1
        if right != best[width - 1] - best[width - 2] or left != best[1] - best[0]:
            return values, 2
        values[i, :] = best
    return values, 0


def grid_kernel(
    offsets: npt.NDArray[np.int64],
    kids: npt.NDArray[np.int64],
    taken: npt.NDArray[np.int64],
    half_width: int,
) -> tuple[npt.NDArray[np.int64], int]:
    """Values of every position (moves in CSR form) and a status: OK or which certificate failed."""
    values, status = _kernel(offsets, kids, taken, half_width)
    return values, int(status)
