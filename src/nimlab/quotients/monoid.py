"""Finite commutative monoids as multiplication tables: products, submonoids, quotients.

Elements are ``0 .. size - 1``; ``0`` is always the identity. A :class:`Monoid` is what the
misère-quotient solver builds and reduces: the direct product of a known quotient with cyclic
monoids (:func:`cyclic`, :func:`generated_product`), restricted to what the heaps generate, then
divided by indistinguishability (:func:`reduce`, Moore's partition refinement on the action of
the generators).

>>> c = cyclic(2, 2)  # 1, x, x^2, x^3 with x^4 = x^2
>>> c.size, c.mul[1][3], c.mul[2][2]
(4, 2, 2)
>>> reduced, image = reduce(c, [False, True, False, True], [1])
>>> reduced.size, image
(2, [0, 1, 0, 1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import numpy as np

from nimlab.errors import TooLargeError
from nimlab.quotients import compiled

__all__ = [
    "Monoid",
    "Product",
    "TableTooLargeError",
    "cyclic",
    "element_index",
    "generated_product",
    "kernel",
    "reduce",
    "trivial",
]


class Monoid:
    """A finite commutative monoid: ``mul[x][y]`` is the product, ``0`` the identity.

    Built from a table (tuples of tuples, or a square numpy array), or (:meth:`from_tree`)
    from its generators' actions and a spanning tree from the identity: the solver's monoids
    keep no table, computing the columns they are asked for, and make the table (``array``,
    ``mul``) only when asked for it.

    >>> Monoid(((0, 1), (1, 0))) == Monoid(np.array([[0, 1], [1, 0]]))
    True
    """

    def __init__(self, mul: Sequence[Sequence[int]] | np.ndarray) -> None:
        if isinstance(mul, np.ndarray):
            self.__dict__["array"] = mul
        else:
            self.__dict__["mul"] = tuple(tuple(int(v) for v in row) for row in mul)
        self._rows: dict[int, list[int]] = {}
        self._tree: _Tree | None = None

    @classmethod
    def from_tree(cls, actions: np.ndarray, parent: np.ndarray, via: np.ndarray) -> Monoid:
        """The monoid whose generator ``i`` acts as ``actions[i]`` (``x -> x * g_i``), each
        element ``y != 0`` being ``parent[y] * g_via[y]`` (a tree from the identity).

        >>> m = Monoid.from_tree(np.array([[1, 2, 1]]), np.array([0, 0, 1]), np.array([0, 0, 0]))
        >>> m.size, m.column(2), m.mul == cyclic(1, 2).mul
        (3, [2, 1, 2], True)
        """
        monoid = cls.__new__(cls)
        monoid._rows = {}
        monoid._tree = _Tree(actions, parent, via)
        return monoid

    @cached_property
    def mul(self) -> tuple[tuple[int, ...], ...]:
        """The table as tuples of tuples."""
        return tuple(tuple(row) for row in self.array.tolist())

    @cached_property
    def array(self) -> np.ndarray:
        """The table as a numpy array (computed once; TableTooLargeError past
        :data:`_MAX_TABLE` entries)."""
        if self._tree is not None:
            return self._tree.table()
        size = len(self.mul)
        return np.array(self.mul, dtype=np.int64).reshape(size, size)

    @property
    def size(self) -> int:
        """The number of elements."""
        if self._tree is not None:
            return self._tree.size
        if "array" in self.__dict__:
            return len(self.__dict__["array"])
        return len(self.mul)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Monoid) and np.array_equal(self.array, other.array)

    def __hash__(self) -> int:
        return hash(self.array.tobytes())

    def __repr__(self) -> str:
        return f"Monoid({self.mul!r})"

    def column(self, y: int) -> list[int]:
        """``x * y`` for every ``x`` (the row of ``y``: the monoid is commutative)."""
        row = self._rows.get(y)
        if row is None:
            row = self._rows[y] = self.columns([y])[:, 0].tolist()
        return row

    def times(self, x: int, y: int) -> int:
        """The product ``x * y``."""
        return self.column(y)[x]

    def columns(self, ys: Sequence[int]) -> np.ndarray:
        """``x * ys[j]`` at ``[x, j]``, for every element ``x``."""
        if self._tree is not None and "array" not in self.__dict__:
            return self._tree.columns(ys)
        return np.ascontiguousarray(self.array[list(ys)].T)

    def products(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """``xs[i] * ys[i]`` for each ``i`` (arrays).

        >>> cyclic(2, 2).products(np.array([1, 2, 3]), np.array([1, 3, 3])).tolist()
        [2, 3, 2]
        """
        if self._tree is not None and "array" not in self.__dict__:
            return self._tree.products(xs, ys)
        found: np.ndarray = self.array[np.asarray(ys), np.asarray(xs)]
        return found

    def power(self, x: int, k: int) -> int:
        """``x`` to the ``k``.

        >>> cyclic(2, 2).power(1, 7)
        3
        """
        result = 0
        column = self.column(x)
        for _ in range(k):
            result = column[result]
        return result


class _Tree:
    """A monoid by its generators' actions (``actions[i, x] = x * g_i``) and a spanning tree
    from the identity (``y = parent[y] * g_via[y]``): a column ``x * y`` is the column of
    ``parent[y]`` moved by ``g_via[y]`` (the monoid is commutative)."""

    def __init__(self, actions: np.ndarray, parent: np.ndarray, via: np.ndarray) -> None:
        self.actions = np.ascontiguousarray(actions, dtype=np.int64)
        self.size = int(self.actions.shape[1]) if self.actions.ndim == 2 else 1
        self.parent_array = np.asarray(parent, dtype=np.int64)
        self.via_array = np.asarray(via, dtype=np.int64)
        self.parent = self.parent_array.tolist()
        self.via = self.via_array.tolist()
        # a column is computed after its parent's: by depth in the tree
        depth = _depths(np.asarray(parent, dtype=np.int64))
        self.depth = depth.tolist()
        self.order = np.argsort(depth, kind="stable")
        self.memo: dict[int, np.ndarray] = {0: np.arange(self.size, dtype=np.int64)}

    def columns(self, ys: Sequence[int]) -> np.ndarray:
        """``x * ys[j]`` at ``[x, j]``: the columns of ``ys`` and of their ancestors, each
        one gather (columns computed before are kept, up to :data:`_MEMO` entries)."""
        size = self.size
        out = np.empty((size, len(ys)), dtype=np.int64)
        if not len(ys):
            return out
        parent, depth, memo = self.parent, self.depth, self.memo
        need: set[int] = set()
        for y in ys:
            z = int(y)
            while z not in memo and z not in need:
                need.add(z)
                z = parent[z]
        if (len(memo) + len(need)) * size > _MEMO:
            memo = {0: memo[0]}  # forget: the new columns are kept, and the identity's
            need = set()
            for y in ys:
                z = int(y)
                while z not in memo and z not in need:
                    need.add(z)
                    z = parent[z]
        actions, via = self.actions, self.via
        for k, z in enumerate(sorted(need, key=depth.__getitem__)):
            if not k & 63:
                compiled.check()
            memo[z] = actions[via[z]][memo[parent[z]]]
        for j, y in enumerate(ys):
            out[:, j] = memo[int(y)]
        self.memo = memo
        return out

    def products(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """``xs[i] * ys[i]`` for each ``i``: ``xs`` moved along the path of each ``ys[i]``."""
        xs = np.array(xs, dtype=np.int64)
        ys = np.array(ys, dtype=np.int64)
        parent, via = self.parent_array, self.via_array
        active = np.flatnonzero(ys)
        while len(active):
            xs[active] = self.actions[via[ys[active]], xs[active]]
            ys[active] = parent[ys[active]]
            active = active[ys[active] != 0]
        return xs

    def table(self) -> np.ndarray:
        """The whole table, column by column along the tree."""
        size = self.size
        if size * size > _MAX_TABLE:
            raise TableTooLargeError(
                f"a quotient of order {size:,} needs a table of {size * size * 8:,} bytes",
                estimate=size,
                limit=_MAX_ORDER,
            )
        table = np.empty((size, size), dtype=np.int64)
        table[:, 0] = np.arange(size)
        for k, y in enumerate(self.order[1:].tolist()):
            if not k & 255:
                compiled.check()
            table[:, y] = self.actions[self.via[y]][table[:, self.parent[y]]]
        return table


def _flat_columns(
    tables: Sequence[np.ndarray], slots: Sequence[np.ndarray], strides: np.ndarray
) -> tuple[Any, ...]:
    """The arguments of :func:`nimlab.quotients.kernels.product_search` (but the stop flag)."""
    widths = np.array([t.shape[1] for t in tables], dtype=np.int64)
    offsets = np.zeros(len(tables), dtype=np.int64)
    offsets[1:] = np.cumsum([t.size for t in tables])[:-1]
    cols = np.concatenate([t.reshape(-1) for t in tables]).astype(np.int64)
    return cols, offsets, widths, np.stack(slots, axis=1), strides, _MAX_ELEMENTS


def _depths(parent: np.ndarray) -> np.ndarray:
    """The number of steps from each element to the identity (``parent[0] == 0``).

    >>> _depths(np.array([0, 0, 1, 2, 1])).tolist()
    [0, 1, 2, 3, 2]
    """
    depth: np.ndarray = (np.arange(len(parent)) != 0).astype(np.int64)
    up = parent.copy()
    while True:
        moving = up != 0
        if not moving.any():
            return depth
        depth += moving
        up = parent[up]


def trivial() -> Monoid:
    """The one-element monoid."""
    return Monoid(((0,),))


def cyclic(index: int, period: int) -> Monoid:
    """The monoid generated by ``x`` with ``x^(index + period) = x^index``: elements
    ``x^0 .. x^(index + period - 1)`` (element ``k`` is ``x^k``).

    >>> cyclic(1, 2).mul
    ((0, 1, 2), (1, 2, 1), (2, 1, 2))
    """
    size = index + period

    def norm(k: int) -> int:
        return k if k < size else index + (k - index) % period

    return Monoid(tuple(tuple(norm(i + j) for j in range(size)) for i in range(size)))


def element_index(monoid: Monoid, x: int) -> tuple[int, int]:
    """``(index, period)`` of ``x``: the least ``i`` and ``p >= 1`` with ``x^(i+p) = x^i``.

    >>> element_index(cyclic(3, 2), 1)
    (3, 2)
    """
    seen: dict[int, int] = {}
    column = monoid.column(x)
    power, k = 0, 0
    while power not in seen:
        seen[power] = k
        power, k = column[power], k + 1
    return seen[power], k - seen[power]


class Product:
    """The submonoid of a direct product of monoids generated by some elements (tuples of
    components), numbered in the order a breadth-first search from the identity meets them
    (each element's successors by the generators in turn). The search runs on whole levels
    at once (numpy); products are read off columns (:meth:`column`: ``x * y`` for every
    ``x``), computed for the ``y`` asked for and kept.

    >>> m = Product([cyclic(1, 2), cyclic(1, 2)], [(1, 0), (1, 1)])
    >>> m.size, m.generators, m.times(1, 2)
    (7, [1, 2], 4)
    """

    def __init__(
        self,
        parts: Sequence[Monoid],
        generators: Sequence[tuple[int, ...]],
        tick: Callable[[], None] | None = None,
    ) -> None:
        sizes = [part.size for part in parts]
        strides = [1] * len(parts)
        for i in range(len(parts) - 2, -1, -1):
            strides[i] = strides[i + 1] * sizes[i + 1]
        self._strides = np.array(strides, dtype=np.int64)
        self._lookup = _CodeIndex(strides[0] * sizes[0] if parts else 1)
        gens = np.array(generators, dtype=np.int64).reshape(len(generators), len(parts))
        # each part's columns of the generators' components (no part's whole table)
        self.tables = []
        slots = []
        for i, part in enumerate(parts):
            values, slot = np.unique(gens[:, i], return_inverse=True)
            self.tables.append(part.columns(values.tolist()))
            slots.append(slot.reshape(-1))
        search = (
            compiled.kernel("product_search")
            if strides[0] * sizes[0] >= _COMPILED_PRODUCT and len(gens)
            else None
        )
        if search is not None:
            status, self.elements, self._actions, self._parent_array, self._via_array = (
                compiled.run(
                    search, _flat_columns(self.tables, slots, self._strides), compiled.current()
                )
            )
            if status == 0:
                raise compiled.SearchStoppedError("a product search was stopped at its deadline")
            if status < 0:
                raise TableTooLargeError(
                    f"a candidate product passes {_MAX_ELEMENTS:,} elements",
                    estimate=len(self.elements),
                    limit=_MAX_ELEMENTS,
                )
            self._lookup.add(self.elements @ self._strides, 0)
        else:
            blocks = [np.zeros((1, len(parts)), dtype=np.int64)]
            self._lookup.add(np.zeros(1, dtype=np.int64), 0)
            count = 1
            frontier = blocks[0]
            actions: list[np.ndarray] = []
            parents = [np.zeros(1, dtype=np.int64)]
            vias = [np.zeros(1, dtype=np.int64)]
            level_start = 0
            while len(frontier):
                if tick is not None:
                    tick()
                compiled.check()
                moved = np.empty((len(frontier), len(gens), len(parts)), dtype=np.int64)
                for i, table in enumerate(self.tables):
                    moved[:, :, i] = table[frontier[:, i][:, None], slots[i][None, :]]
                codes = (moved @ self._strides).reshape(-1)
                known = self._lookup.find(codes)
                fresh = np.flatnonzero(known < 0)
                if len(fresh):
                    _, first = np.unique(codes[fresh], return_index=True)
                    keep = fresh[np.sort(first)]
                    parents.append(level_start + keep // len(gens))
                    vias.append(keep % len(gens))
                    level_start = count
                    self._lookup.add(codes[keep], count)
                    count += len(keep)
                    if count > _MAX_ELEMENTS:
                        raise TableTooLargeError(
                            f"a candidate product passes {_MAX_ELEMENTS:,} elements",
                            estimate=count,
                            limit=_MAX_ELEMENTS,
                        )
                    frontier = moved.reshape(-1, len(parts))[keep]
                    blocks.append(frontier)
                    known = self._lookup.find(codes)
                else:
                    frontier = frontier[:0]
                actions.append(known.reshape(-1, len(gens)))
            self.elements = np.concatenate(blocks)
            self._actions = np.concatenate(actions) if actions else np.zeros((1, len(gens)), int)
            self._parent_array = np.concatenate(parents)
            self._via_array = np.concatenate(vias)
        self.generators = [int(i) for i in self._lookup.find(gens @ self._strides)]
        self._tree = _Tree(self._actions.T, self._parent_array, self._via_array)
        #: each element (but the identity) is ``parents[y]`` times generator ``vias[y]``
        self.parents, self.vias = self._parent_array, self._via_array
        self._columns: dict[int, list[int]] = {}

    @property
    def size(self) -> int:
        """The number of elements."""
        return len(self.elements)

    def column(self, y: int) -> list[int]:
        """``x * y`` for every element ``x``."""
        known = self._columns.get(y)
        if known is None:
            known = self._columns[y] = self._tree.columns([y])[:, 0].tolist()
        return known

    def times(self, x: int, y: int) -> int:
        """The product of elements ``x`` and ``y``."""
        return self.column(y)[x]

    def columns(self, ys: Sequence[int]) -> np.ndarray:
        """``x * ys[j]`` at ``[x, j]``, for every element ``x``."""
        return self._tree.columns(ys)

    def products(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """``xs[i] * ys[i]`` for each ``i`` (arrays)."""
        return self._tree.products(xs, ys)

    def embed(self, xs: Sequence[int]) -> list[int]:
        """The elements ``(x, 0, ..., 0)`` (first component ``x``, the identity in the other
        parts), each of which must have been generated (KeyError otherwise).

        >>> m = Product([cyclic(1, 2), cyclic(1, 2)], [(1, 0), (0, 1)])
        >>> m.embed([0, 1, 2]), m.elements[m.embed([2])[0]].tolist()
        ([0, 1, 3], [2, 0])
        """
        found = self._lookup.find(np.asarray(xs, dtype=np.int64) * self._strides[0])
        if (found < 0).any():
            raise KeyError("an element of the first part alone is not generated")
        return [int(v) for v in found]


class _CodeIndex:
    """Element numbers of mixed-radix codes: a dense array for small spaces, else sorted."""

    _DENSE = 1 << 23

    def __init__(self, space: int) -> None:
        self.dense = np.full(space, -1, dtype=np.int64) if space <= self._DENSE else None
        self.keys = np.zeros(0, dtype=np.int64)
        self.values = np.zeros(0, dtype=np.int64)

    def add(self, codes: np.ndarray, start: int) -> None:
        numbers = np.arange(start, start + len(codes), dtype=np.int64)
        if self.dense is not None:
            self.dense[codes] = numbers
            return
        keys = np.concatenate([self.keys, codes])
        values = np.concatenate([self.values, numbers])
        order = np.argsort(keys, kind="stable")
        self.keys, self.values = keys[order], values[order]

    def find(self, codes: np.ndarray) -> np.ndarray:
        """The number of each code, -1 for codes not added."""
        if self.dense is not None:
            found: np.ndarray = self.dense[codes]
            return found
        if not len(self.keys):
            return np.full(len(codes), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.keys, codes), len(self.keys) - 1)
        return np.where(self.keys[at] == codes, self.values[at], -1)


def generated_product(
    parts: Sequence[Monoid], generators: Sequence[tuple[int, ...]]
) -> tuple[Monoid, list[int]]:
    """:class:`Product` as a table (small products only: it has ``size ** 2`` entries).

    >>> m, gens = generated_product([cyclic(1, 2), cyclic(1, 2)], [(1, 0), (1, 1)])
    >>> m.size, gens
    (7, [1, 2])
    """
    product = Product(parts, generators)
    columns = [product.column(y) for y in range(product.size)]
    return Monoid(tuple(tuple(col) for col in columns)), product.generators


def reduce(
    monoid: Monoid | Product,
    p_portion: Sequence[bool],
    generators: Sequence[int],
    tick: Callable[[], None] | None = None,
    stop_at: float | None = None,
) -> tuple[Monoid, list[int]]:
    """Identify indistinguishable elements: ``x ~ y`` when ``xz`` and ``yz`` are both in the
    P-portion or both out of it for every ``z`` the generators generate. Returns the quotient
    (classes numbered by their least element, so the identity stays 0) and each element's
    class.

    The classes are refined from {P, not P} by the generators' actions until stable (Moore's
    algorithm, on whole arrays, or compiled for a large monoid: stopped at ``stop_at``, then
    SearchStoppedError); the limit is a congruence since the monoid is commutative.
    """
    size = monoid.size
    gens = list(dict.fromkeys(generators))
    actions = monoid.columns(gens).T.reshape(len(gens), size)
    flags = np.array(p_portion, dtype=np.int64)
    refine = compiled.kernel("refine") if size * len(gens) >= _COMPILED_CELLS else None
    if refine is not None:
        if tick is not None:
            tick()
        done, label = compiled.run(refine, (flags, actions), stop_at)
        if not done:
            raise compiled.SearchStoppedError("a refinement was stopped at its deadline")
    else:
        label = _refine(flags, actions, tick, exact=False)
        if not _stable(label, flags, actions):  # a collision of the hashed signatures
            label = _refine(flags, actions, tick, exact=True)
    count = int(label.max()) + 1
    # renumber by least member
    _, first = np.unique(label, return_index=True)
    rank = np.empty(count, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(count)
    image = rank[label]
    reps = np.sort(first)  # the least member of each class, in class order
    acts = np.stack([image[act[reps]] for act in actions]) if gens else np.zeros((0, count), int)
    tree = _class_tree(monoid, gens, image, reps)
    if tree is None:
        tree = _breadth_first(acts)
    return Monoid.from_tree(acts, *tree), image.tolist()


def _class_tree(
    monoid: Monoid | Product, gens: Sequence[int], image: np.ndarray, reps: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """A spanning tree of the classes read off a product's search tree: the least member
    of a class (the first met, so the least deep) is its parent times a generator, so the
    class is the parent's class times that generator's (a congruence). None when ``monoid``
    is not a :class:`Product` whose generators are all among ``gens``."""
    if not isinstance(monoid, Product):
        return None
    where = {g: i for i, g in enumerate(gens)}
    if any(g not in where for g in monoid.generators):
        return None
    slot = np.array([where[g] for g in monoid.generators], dtype=np.int64)
    parent = image[monoid.parents[reps]]
    via = slot[monoid.vias[reps]] if len(slot) else np.zeros(len(reps), dtype=np.int64)
    parent[0] = via[0] = 0
    return parent, via


def _breadth_first(acts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(parent, via)``: a breadth-first tree from the identity, ``y = parent[y] *
    g_via[y]``."""
    count = acts.shape[1]
    acts_list = acts.tolist()
    order, parent, via = [0], [0] * count, [0] * count
    seen = [False] * count
    seen[0] = True
    for y in order:
        for i, act in enumerate(acts_list):
            z = act[y]
            if not seen[z]:
                seen[z] = True
                parent[z], via[z] = y, i
                order.append(z)
    return np.array(parent, dtype=np.int64), np.array(via, dtype=np.int64)


class TableTooLargeError(TooLargeError):
    """A table over :data:`_MAX_TABLE` entries, or a :class:`Product` over
    :data:`_MAX_ELEMENTS` elements, was asked for."""


#: The largest table :func:`reduce` makes (entries; 8 bytes each: 1 GiB).
_MAX_TABLE = 1 << 27
_MAX_ORDER = 11_585
#: The most entries of columns a tree keeps for later (8 bytes each: 64 MiB).
_MEMO = 1 << 23
#: Products over a space of at least this many codes are searched compiled.
_COMPILED_PRODUCT = 4_000
#: Refinements of at least this many (elements x generators) are compiled.
_COMPILED_CELLS = 20_000
#: The most elements a :class:`Product` (a candidate before its reduction) may have.
_MAX_ELEMENTS = 1 << 22

#: Odd multipliers of the hashed signatures (fixed: runs are reproducible).
_MIX = np.random.default_rng(20261129).integers(1, 2**62, size=4096, dtype=np.int64).astype(
    np.uint64
) | np.uint64(1)


def _refine(
    flags: np.ndarray, actions: np.ndarray, tick: Callable[[], None] | None, *, exact: bool
) -> np.ndarray:
    """Moore's refinement of the classes of ``flags`` by ``actions``: each round numbers
    the signatures (own class, class of each image). ``exact=False`` numbers a hash of the
    signature (one sort a round); a collision can only merge classes, which
    :func:`_stable` detects."""
    _, label = np.unique(flags, return_inverse=True)
    count = int(label.max()) + 1
    while True:
        if tick is not None:
            tick()
        if exact:
            key = label.copy()
            width = count
            for act in actions:
                key = key * count + label[act]
                width *= count
                if width > 1 << 40:  # keep the keys small: renumber
                    _, key = np.unique(key, return_inverse=True)
                    width = int(key.max()) + 1
        else:
            mix = _MIX if len(actions) < len(_MIX) else np.resize(_MIX, len(actions) + 1)
            key = label.astype(np.uint64) * mix[0]
            for i, act in enumerate(actions):
                key += label[act].astype(np.uint64) * mix[i + 1]
        _, new = np.unique(key, return_inverse=True)
        new_count = int(new.max()) + 1
        label = new
        if new_count == count:
            return label
        count = new_count


def _stable(label: np.ndarray, flags: np.ndarray, actions: np.ndarray) -> bool:
    """Whether the classes agree with ``flags`` and each action maps a class into one class
    (then they are the coarsest such classes, when no finer refinement preceded)."""
    _, reps = np.unique(label, return_index=True)
    if not np.array_equal(flags, flags[reps][label]):
        return False
    return all(np.array_equal(label[act], label[act[reps]][label]) for act in actions)


def kernel(monoid: Monoid) -> frozenset[int]:
    """The kernel (least ideal, a group): the multiples of the product of every element.

    >>> sorted(kernel(cyclic(2, 2)))
    [2, 3]
    """
    w = 0
    for x in range(monoid.size):
        w = monoid.mul[w][x]
    return frozenset(monoid.mul[w][x] for x in range(monoid.size))
