"""Sparse matrices in compressed columns on plain numpy arrays, for solves that need not
import SciPy (its import alone takes about 0.3 s, more than a small game's whole solve).

Only what the sequence-form LP and its exact certificate use: building from triplets
(repeated cells add up), the transpose, a submatrix, products with a vector (exact on
``int64``, or on Python integers in ``object`` arrays).

>>> m = Csc.from_triplets([0, 1, 1, 0], [0, 0, 1, 0], [1, 2, 3, 4], (2, 2))
>>> m.dense().tolist(), m.nnz
([[5, 0], [2, 3]], 3)
>>> m.times(np.array([1, 1])).tolist(), m.transpose().times(np.array([1, 1])).tolist()
([5, 5], [7, 3])
>>> m.transposed_times(np.array([1, 1], dtype=object)).tolist()
[7, 3]
>>> m.select(np.array([1]), np.array([0, 1])).dense().tolist()
[[2, 3]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Csc"]


@dataclass(frozen=True)
class Csc:
    """A ``shape[0] x shape[1]`` matrix: column ``j`` holds ``data[indptr[j]:indptr[j+1]]``
    in the rows ``indices[indptr[j]:indptr[j+1]]`` (ascending, no repeats, no zeros)."""

    shape: tuple[int, int]
    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int64]
    data: npt.NDArray[Any]

    @property
    def nnz(self) -> int:
        """The number of stored entries."""
        return len(self.data)

    @classmethod
    def from_triplets(
        cls, rows: Any, cols: Any, values: Any, shape: tuple[int, int], dtype: Any = None
    ) -> Csc:
        """The matrix whose cell ``(rows[k], cols[k])`` holds ``values[k]`` (repeated cells
        add up; cells that sum to zero are dropped)."""
        r = np.asarray(rows, dtype=np.int64)
        c = np.asarray(cols, dtype=np.int64)
        v = np.asarray(values, dtype=dtype)
        key = c * max(shape[0], 1) + r
        order = np.argsort(key, kind="stable")
        key, v = key[order], v[order]
        if len(key):
            starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
            key, v = key[starts], np.add.reduceat(v, starts)
            nonzero = np.flatnonzero(v != 0)
            key, v = key[nonzero], v[nonzero]
        c, r = np.divmod(key, max(shape[0], 1))
        indptr = np.zeros(shape[1] + 1, dtype=np.int64)
        np.cumsum(np.bincount(c, minlength=shape[1]), out=indptr[1:])
        return cls(shape, indptr, r, v)

    def columns(self) -> npt.NDArray[np.int64]:
        """The column of each stored entry."""
        return np.repeat(np.arange(self.shape[1], dtype=np.int64), np.diff(self.indptr))

    def transpose(self) -> Csc:
        """The transposed matrix."""
        return Csc.from_triplets(
            self.columns(), self.indices, self.data, (self.shape[1], self.shape[0])
        )

    def select(self, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64]) -> Csc:
        """The submatrix of ``rows`` and ``cols`` (each ascending), renumbered from 0."""
        new_row = np.full(self.shape[0], -1, dtype=np.int64)
        new_row[rows] = np.arange(len(rows))
        new_col = np.full(self.shape[1], -1, dtype=np.int64)
        new_col[cols] = np.arange(len(cols))
        r, c = new_row[self.indices], new_col[self.columns()]
        keep = (r >= 0) & (c >= 0)
        return Csc.from_triplets(r[keep], c[keep], self.data[keep], (len(rows), len(cols)))

    def column_sums(self, cols: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """The sum of the columns ``cols``, a dense vector over the rows."""
        total = np.zeros(self.shape[0], dtype=self.data.dtype)
        for j in cols.tolist():
            start, end = int(self.indptr[j]), int(self.indptr[j + 1])
            np.add.at(total, self.indices[start:end], self.data[start:end])
        return total

    def times(self, vector: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``self @ vector`` (exact for integer or ``object`` arrays)."""
        dtype = np.result_type(self.data.dtype, vector.dtype)
        out = np.zeros(self.shape[0], dtype=dtype)
        if self.nnz:
            terms = self.data.astype(dtype) * vector.astype(dtype)[self.columns()]
            if dtype.kind == "O":
                order = np.argsort(self.indices, kind="stable")
                keys = self.indices[order]
                starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
                out[keys[starts]] = np.add.reduceat(terms[order], starts)
            else:
                np.add.at(out, self.indices, terms)
        return out

    def transposed_times(self, vector: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``self.T @ vector``, one sum per column (exact for integer or ``object`` arrays)."""
        dtype = np.result_type(self.data.dtype, vector.dtype)
        out = np.zeros(self.shape[1], dtype=dtype)
        filled = np.flatnonzero(np.diff(self.indptr))
        if len(filled):
            terms = self.data.astype(dtype) * vector.astype(dtype)[self.indices]
            out[filled] = np.add.reduceat(terms, self.indptr[filled])
        return out

    def dense(self) -> npt.NDArray[Any]:
        """The matrix as a dense array (for small ones)."""
        out = np.zeros(self.shape, dtype=self.data.dtype)
        out[self.indices, self.columns()] = self.data
        return out
