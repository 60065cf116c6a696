"""Short partizan games as hash-consed canonical forms, with memoised sum, negation and order.

Every :class:`Game` is the canonical form of its value (no dominated options, no reversible
ones), interned: one object per value, so ``==`` between games is identity and options,
sums and comparisons are memoised by the games' interned ids.

>>> half = number(Fraction(1, 2))
>>> half + half == number(1), str(-half), str(star(1) + star(1))
(True, '-1/2', '0')
>>> g = game([number(2)], [number(Fraction(-1, 2))])
>>> str(g), g.outcome, g > 0, g.left_stop, g.right_stop
('{2|-1/2}', 'N', False, Fraction(2, 1), Fraction(-1, 2))
>>> up() > 0, up() < number(Fraction(1, 1024)), (up() + star(1)).outcome
(True, True, 'N')
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from nimlab.errors import InvalidPositionError, TooLargeError

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_JSON_NODES",
    "MAX_NUMBER_BIRTHDAY",
    "ZERO",
    "Game",
    "game",
    "integer",
    "miny",
    "number",
    "simplest_between",
    "star",
    "subpositions",
    "switch",
    "tiny",
    "up",
]

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

#: The largest birthday of a number built as a canonical form (|integer part| + log2 of the
#: denominator): its chain of options has that many games.
MAX_NUMBER_BIRTHDAY = 100_000

#: ``to_json`` nests the options as a tree (shared options repeated): above this many nodes it
#: is not written (:func:`tree_size` gives the count; numbers with large denominators and
#: deep games grow exponentially as trees).
MAX_JSON_NODES = 100_000
#: ... nor above this birthday (the depth of the nesting).
MAX_JSON_DEPTH = 1_000

Rational = int | Fraction


#: How a canonical form is written (CGSuite's notation): :mod:`nimlab.cgt.notation` installs
#: its writer with :func:`set_writer` when imported, which the package does before anything
#: else, so this module needs no import of the module that imports it.
_WRITERS: list[Callable[[Game], str]] = []


def set_writer(writer: Callable[[Game], str]) -> None:
    """Make ``writer`` the text of every game (``str(g)``)."""
    _WRITERS[:] = [writer]


class Game:
    """A canonical short game ``{L1, L2, ... | R1, R2, ...}``; build them with :func:`game`.

    Instances are interned: never call the constructor. Arithmetic ``+``, ``-``, and the
    order ``<=``, ``>=``, ``<``, ``>`` (a partial order), ``==`` (identity) and
    :meth:`confused` (``G || H``) are memoised.
    """

    __slots__ = (
        "__weakref__",
        "_birthday",
        "_stops",
        "_str",
        "_thermograph",
        "id",
        "left",
        "nimber",
        "number",
        "right",
    )

    left: tuple[Game, ...]
    right: tuple[Game, ...]
    id: int
    number: Fraction | None
    nimber: int | None

    def __init__(self, left: tuple[Game, ...], right: tuple[Game, ...], ident: int) -> None:
        self.left = left
        self.right = right
        self.id = ident
        self.number = None
        self.nimber = None
        self._birthday: int | None = None
        self._stops: tuple[Fraction, Fraction] | None = None
        self._str: str | None = None
        self._thermograph: Any = None

    # -- identity -------------------------------------------------------------------------
    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int | Fraction):
            return self.number is not None and self.number == other
        return self is other

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __reduce__(self) -> Any:
        """Pickle by the options, so an unpickled game is interned again."""
        return (game, (list(self.left), list(self.right)))

    # -- arithmetic -----------------------------------------------------------------------
    def __add__(self, other: Game | Rational) -> Game:
        return add(self, _coerce(other))

    def __radd__(self, other: Game | Rational) -> Game:
        return add(_coerce(other), self)

    def __neg__(self) -> Game:
        return neg(self)

    def __sub__(self, other: Game | Rational) -> Game:
        return add(self, neg(_coerce(other)))

    def __rsub__(self, other: Game | Rational) -> Game:
        return add(_coerce(other), neg(self))

    def __pos__(self) -> Game:
        return self

    # -- order ----------------------------------------------------------------------------
    def __le__(self, other: Game | Rational) -> bool:
        return le(self, _coerce(other))

    def __ge__(self, other: Game | Rational) -> bool:
        return le(_coerce(other), self)

    def __lt__(self, other: Game | Rational) -> bool:
        o = _coerce(other)
        return le(self, o) and not le(o, self)

    def __gt__(self, other: Game | Rational) -> bool:
        o = _coerce(other)
        return le(o, self) and not le(self, o)

    def confused(self, other: Game | Rational) -> bool:
        """``G || H``: neither ``G >= H`` nor ``G <= H``.

        >>> star(1).confused(0), up().confused(0)
        (True, False)
        """
        o = _coerce(other)
        return not le(self, o) and not le(o, self)

    # -- properties -----------------------------------------------------------------------
    @property
    def is_number(self) -> bool:
        """Whether the game is a (dyadic) number."""
        return self.number is not None

    @property
    def outcome(self) -> str:
        """``L`` (Left wins whoever starts), ``R``, ``N`` (first player) or ``P`` (second).

        >>> [g.outcome for g in (number(1), number(-1), ZERO, star(1))]
        ['L', 'R', 'P', 'N']
        """
        ge0 = le(ZERO, self)
        le0 = le(self, ZERO)
        if ge0:
            return "P" if le0 else "L"
        return "R" if le0 else "N"

    @property
    def birthday(self) -> int:
        """The birthday of the canonical form: 0 for 0, else 1 + the largest of the options'.

        >>> ZERO.birthday, star(1).birthday, number(Fraction(3, 4)).birthday, up().birthday
        (0, 1, 3, 2)
        """
        if self._birthday is None:
            stack: list[Game] = [self]
            while stack:  # iterative, so deep games do not exhaust the stack
                g = stack[-1]
                pending = [o for o in (*g.left, *g.right) if o._birthday is None]
                if pending:
                    stack.extend(pending)
                    continue
                stack.pop()
                g._birthday = 1 + max((o._birthday or 0 for o in (*g.left, *g.right)), default=-1)
        assert self._birthday is not None
        return self._birthday

    def _stop_pair(self) -> tuple[Fraction, Fraction]:
        if self._stops is None:
            if self.number is not None:
                self._stops = (self.number, self.number)
            else:
                self._stops = (
                    max(o._stop_pair()[1] for o in self.left),
                    min(o._stop_pair()[0] for o in self.right),
                )
        return self._stops

    @property
    def left_stop(self) -> Fraction:
        """The number reached when Left starts and both play to the stop (exact)."""
        return self._stop_pair()[0]

    @property
    def right_stop(self) -> Fraction:
        """The number reached when Right starts (exact)."""
        return self._stop_pair()[1]

    @property
    def thermograph(self) -> Any:
        """The thermograph (:class:`nimlab.cgt.thermograph.Thermograph`), computed once."""
        if self._thermograph is None:
            from nimlab.cgt.thermograph import thermograph_of

            self._thermograph = thermograph_of(self)
        return self._thermograph

    @property
    def mean(self) -> Fraction:
        """The mean value (the mast of the thermograph).

        >>> switch(Fraction(2), Fraction(-1, 2)).mean
        Fraction(3, 4)
        """
        return self.thermograph.mean  # type: ignore[no-any-return]

    @property
    def temperature(self) -> Fraction:
        """The temperature: -1/2^k for a number with denominator 2^k (-1 for integers), else
        where the thermograph's walls meet (0 for infinitesimals).

        >>> switch(Fraction(2), Fraction(-1, 2)).temperature, number(Fraction(3, 4)).temperature
        (Fraction(5, 4), Fraction(-1, 4))
        """
        return self.thermograph.temperature  # type: ignore[no-any-return]

    # -- text -----------------------------------------------------------------------------
    def __str__(self) -> str:
        if self._str is None:
            self._str = _WRITERS[0](self)
        return self._str

    def __repr__(self) -> str:
        return f"parse_game({str(self)!r})"

    def _repr_html_(self) -> str:
        """The value, its outcome, stops, mean, temperature and its thermograph."""
        from nimlab.cgt.render import game_html

        return game_html(self)

    def _repr_svg_(self) -> str:
        """The thermograph, drawn."""
        return self.thermograph.svg()  # type: ignore[no-any-return]

    @property
    def tree_size(self) -> int:
        """How many nodes the canonical form has written as a tree (options repeated).

        >>> number(Fraction(3, 4)).tree_size, star(2).tree_size
        (7, 9)
        """
        found = _TREE_SIZES.get(self.id)
        if found is None:
            stack = [self]
            while stack:  # iterative: deep games would exhaust the stack
                g = stack[-1]
                pending = [o for o in (*g.left, *g.right) if o.id not in _TREE_SIZES]
                if pending:
                    stack.extend(pending)
                    continue
                stack.pop()
                _TREE_SIZES[g.id] = 1 + sum(_TREE_SIZES[o.id] for o in (*g.left, *g.right))
            found = _TREE_SIZES[self.id]
        return found

    @property
    def json_writable(self) -> bool:
        """Whether :meth:`to_json` writes it (at most MAX_JSON_NODES nodes, MAX_JSON_DEPTH deep)."""
        return self.birthday <= MAX_JSON_DEPTH and self.tree_size <= MAX_JSON_NODES

    def to_json(self) -> dict[str, Any]:
        """``{"L": [...], "R": [...]}``: the canonical form as nested options (TooLargeError
        over :data:`MAX_JSON_NODES` nodes).

        >>> switch(Fraction(1), Fraction(-1)).to_json()
        {'L': [{'L': [{'L': [], 'R': []}], 'R': []}], 'R': [{'L': [], 'R': [{'L': [], 'R': []}]}]}
        """
        if not self.json_writable:
            raise TooLargeError(
                f"the canonical form written as nested options would have {self.tree_size:,}"
                f" nodes nested {self.birthday:,} deep, over {MAX_JSON_NODES:,} nodes or"
                f" {MAX_JSON_DEPTH:,} deep"
            )
        return self._nested()

    def _nested(self) -> dict[str, Any]:
        return {"L": [o._nested() for o in self.left], "R": [o._nested() for o in self.right]}


# -- the intern table and the memo tables ---------------------------------------------------
_TABLE: dict[tuple[tuple[int, ...], tuple[int, ...]], Game] = {}
_LE: dict[tuple[int, int], bool] = {}
_ADD: dict[tuple[int, int], Game] = {}
_NEG: dict[int, Game] = {}
_NUMBERS: dict[Fraction, Game] = {}
_NIMBERS: dict[int, Game] = {}
_TREE_SIZES: dict[int, int] = {}


def _intern(left: Iterable[Game], right: Iterable[Game]) -> Game:
    """The one object for these (canonical, deduplicated) options."""
    lt = tuple(sorted(set(left), key=lambda g: g.id))
    rt = tuple(sorted(set(right), key=lambda g: g.id))
    key = (tuple(g.id for g in lt), tuple(g.id for g in rt))
    found = _TABLE.get(key)
    if found is None:
        found = Game(lt, rt, len(_TABLE))
        _TABLE[key] = found
        _tag(found)
    return found


def _tag(g: Game) -> None:
    """Recognise numbers and nimbers among new canonical forms."""
    if len(g.left) <= 1 and len(g.right) <= 1:
        xl = g.left[0].number if g.left else None
        xr = g.right[0].number if g.right else None
        all_numbers = (not g.left or xl is not None) and (not g.right or xr is not None)
        if all_numbers and (xl is None or xr is None or xl < xr):
            g.number = simplest_between(xl, xr)
            _NUMBERS.setdefault(g.number, g)
            return
    if g.left == g.right and all(o.nimber is not None for o in g.left):
        values = sorted(o.nimber for o in g.left if o.nimber is not None)
        if values == list(range(len(values))):
            g.nimber = len(values)
            _NIMBERS.setdefault(g.nimber, g)
    if not g.left and not g.right:
        g.nimber = 0


def _coerce(value: Game | Rational) -> Game:
    if isinstance(value, Game):
        return value
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        return number(value)
    raise TypeError(f"not a game or a number: {value!r}")


def simplest_between(low: Fraction | None, high: Fraction | None) -> Fraction:
    """The simplest dyadic number strictly between ``low`` and ``high`` (None: unbounded).

    >>> [str(simplest_between(a, b)) for a, b in [(None, None), (Fraction(1), None),
    ...     (Fraction(0), Fraction(1)), (Fraction(3, 4), Fraction(1)), (None, Fraction(-2))]]
    ['0', '2', '1/2', '7/8', '-3']
    """
    if low is not None and high is not None and low >= high:
        raise ArithmeticError(f"no number between {low} and {high}")
    if (low is None or low < 0) and (high is None or high > 0):
        return Fraction(0)
    if low is None:
        assert high is not None
        return Fraction(math.ceil(high) - 1)
    if high is None:
        return Fraction(math.floor(low) + 1)
    if high <= 0:
        return -simplest_between(-high, -low)
    # 0 <= low < high: the smallest integer above low if below high, else the dyadic of
    # the smallest denominator in between
    candidate = math.floor(low) + 1
    if candidate < high:
        return Fraction(candidate)
    denominator = 2
    while True:
        numerator = math.floor(low * denominator) + 1
        if Fraction(numerator, denominator) < high:
            return Fraction(numerator, denominator)
        denominator *= 2


ZERO = _intern((), ())
ZERO.number = Fraction(0)
ZERO.nimber = 0
_NUMBERS[Fraction(0)] = ZERO
_NIMBERS[0] = ZERO


def number(value: Rational) -> Game:
    """The canonical form of a dyadic rational.

    >>> str(number(Fraction(3, 4))), number(Fraction(3, 4)).left[0].number
    ('3/4', Fraction(1, 2))
    >>> number(Fraction(1, 3))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: 1/3 is not a dyadic rational (its denominator is not ...
    """
    x = value if isinstance(value, Fraction) else Fraction(value)
    found = _NUMBERS.get(x)
    if found is not None:
        return found
    d = x.denominator
    if d & (d - 1):
        raise InvalidPositionError(
            f"{x} is not a dyadic rational (its denominator is not a power of 2)"
        )
    if d.bit_length() - 1 + abs(math.floor(x)) > MAX_NUMBER_BIRTHDAY:
        raise TooLargeError(
            f"the number {x} has birthday about {d.bit_length() - 1 + abs(math.floor(x)):,}:"
            f" nimlab builds canonical forms of numbers up to birthday {MAX_NUMBER_BIRTHDAY:,}"
            " (a fixed limit)"
        )
    if d == 1:
        n = int(x)
        sign = 1 if n > 0 else -1
        start = n - sign  # build the chain from the nearest integer already known, iteratively
        while Fraction(start) not in _NUMBERS:
            start -= sign
        g = _NUMBERS[Fraction(start)]
        for k in range(start + sign, n + sign, sign):
            g = _intern((g,), ()) if sign > 0 else _intern((), (g,))
            assert g.number == k
    else:
        step = Fraction(1, d)
        g = _intern((number(x - step),), (number(x + step),))
    assert g.number == x, (g.number, x)
    return g


def integer(n: int) -> Game:
    """The integer ``n``."""
    return number(Fraction(n))


def star(n: int = 1) -> Game:
    """The nimber ``*n``.

    >>> str(star(0)), str(star(1)), str(star(3)), star(2) + star(3) == star(1)
    ('0', '*', '*3', True)
    """
    if n < 0:
        raise InvalidPositionError(f"invalid nimber *{n}: it must be non-negative")
    found = _NIMBERS.get(n)
    if found is not None:
        return found
    options = [star(k) for k in range(n)]
    g = _intern(options, options)
    return g


def up(n: int = 1) -> Game:
    """``n.^`` (``^`` = ``{0|*}``); negative ``n`` gives down multiples.

    >>> str(up()), str(up(2)), str(up(-1)), str(up(3))
    ('^', '^^', 'v', '^3')
    """
    base = _intern((ZERO,), (star(1),))
    result = ZERO
    for _ in range(abs(n)):
        result = result + base
    return result if n >= 0 else -result


def switch(high: Rational, low: Rational) -> Game:
    """``{high|low}`` of two numbers (written ``±x`` when low = -high).

    >>> str(switch(1, -1)), str(switch(3, 1))
    ('±1', '{3|1}')
    """
    return game([number(high)], [number(low)])


def tiny(x: Rational | Game = 1) -> Game:
    """``tiny-x`` = ``{0||0|-x}``.

    >>> str(tiny(2)), tiny(2) > 0, tiny(2) < up()
    ('{0||0|-2}', True, True)
    """
    g = _coerce(x) if isinstance(x, Game) else number(x)
    return game([ZERO], [game([ZERO], [-g])])


def miny(x: Rational | Game = 1) -> Game:
    """``miny-x`` = ``{x|0||0}`` = -tiny-x."""
    return -tiny(x)


# -- order ----------------------------------------------------------------------------------
def le(g: Game, h: Game) -> bool:
    """``g <= h``: no left option of g is >= h and no right option of h is <= g (memoised)."""
    if g is h:
        return True
    if g.number is not None and h.number is not None:
        return g.number <= h.number
    key = (g.id, h.id)
    found = _LE.get(key)
    if found is not None:
        return found
    result = True
    for gl in g.left:
        if le(h, gl):
            result = False
            break
    if result:
        for hr in h.right:
            if le(hr, g):
                result = False
                break
    _LE[key] = result
    return result


# -- negation and sum -----------------------------------------------------------------------
def neg(g: Game) -> Game:
    """``-g`` = ``{-R | -L}`` (canonical when g is)."""
    found = _NEG.get(g.id)
    if found is not None:
        return found
    if g.number is not None:
        result = number(-g.number)
    elif g.nimber is not None:
        result = g
    else:
        result = _intern([neg(r) for r in g.right], [neg(o) for o in g.left])
    _NEG[g.id] = result
    _NEG[result.id] = g
    return result


def add(g: Game, h: Game) -> Game:
    """``g + h`` in canonical form (memoised; numbers add directly, a number is added to a
    non-number by translating its options: the number translation theorem)."""
    if g is ZERO:
        return h
    if h is ZERO:
        return g
    if g.id > h.id:
        g, h = h, g
    key = (g.id, h.id)
    found = _ADD.get(key)
    if found is not None:
        return found
    if g.number is not None and h.number is not None:
        result = number(g.number + h.number)
    elif g.nimber is not None and h.nimber is not None:
        result = star(g.nimber ^ h.nimber)
    elif g.number is not None:
        result = _canonical([add(o, g) for o in h.left], [add(o, g) for o in h.right])
    elif h.number is not None:
        result = _canonical([add(o, h) for o in g.left], [add(o, h) for o in g.right])
    else:
        lefts = [add(o, h) for o in g.left] + [add(g, o) for o in h.left]
        rights = [add(o, h) for o in g.right] + [add(g, o) for o in h.right]
        result = _canonical(lefts, rights)
    _ADD[key] = result
    return result


def sum_games(games: Iterable[Game]) -> Game:
    """The sum of many games, numbers first (they add as Fractions).

    >>> str(sum_games([star(1), number(1), star(1), up()]))
    '1^'
    """
    numbers: Game | None = None
    rest = []
    for g in games:
        if g is ZERO:
            continue
        if g.number is not None:
            numbers = g if numbers is None else add(numbers, g)
        else:
            rest.append(g)
    result = ZERO if numbers is None else numbers
    if len(rest) > 1:  # add the small games first: pairs of equal games cancel quickly
        rest.sort(key=lambda g: g.id)
    for g in rest:
        result = add(result, g)
    return result


# -- canonical form -------------------------------------------------------------------------
def game(left: Iterable[Game | Rational], right: Iterable[Game | Rational]) -> Game:
    """The canonical form of ``{left | right}``.

    >>> str(game([0], [0])), str(game([0, star(1)], [0])), str(game([1], [])), str(game([-1], [1]))
    ('*', '^*', '2', '0')
    """
    return _canonical([_coerce(o) for o in left], [_coerce(o) for o in right])


def _canonical(left: Sequence[Game], right: Sequence[Game]) -> Game:
    """Remove dominated options and bypass reversible ones until none is left (options are
    canonical already); all-number options with every left < every right give the simplest
    number in between directly."""
    lefts = list(set(left))
    rights = list(set(right))
    xl = [o.number for o in lefts]
    xr = [o.number for o in rights]
    if None not in xl and None not in xr:
        high = max((x for x in xl if x is not None), default=None)
        low = min((x for x in xr if x is not None), default=None)
        if high is None or low is None or high < low:
            return number(simplest_between(high, low))
    while True:
        lefts = _undominated(lefts, maximal=True)
        rights = _undominated(rights, maximal=False)
        memo: dict[tuple[int, int], bool] = {}
        changed = False
        new_lefts: list[Game] = []
        for a in lefts:
            reverser = next((ar for ar in a.right if _le_form(ar, lefts, rights, memo)), None)
            if reverser is None:
                new_lefts.append(a)
            else:
                new_lefts.extend(reverser.left)
                changed = True
        new_rights: list[Game] = []
        for b in rights:
            reverser = next((bl for bl in b.left if _ge_form(bl, lefts, rights, memo)), None)
            if reverser is None:
                new_rights.append(b)
            else:
                new_rights.extend(reverser.right)
                changed = True
        lefts = list(set(new_lefts))
        rights = list(set(new_rights))
        if not changed:
            return _intern(lefts, rights)


def _undominated(options: list[Game], *, maximal: bool) -> list[Game]:
    """The options not dominated by another (for Left the maximal ones, for Right minimal)."""
    if len(options) <= 1:
        return options
    kept: list[Game] = []
    for a in options:
        dominated = False
        for b in options:
            if a is not b and (le(a, b) if maximal else le(b, a)):
                dominated = True
                break
        if not dominated:
            kept.append(a)
    return kept


def _le_form(
    x: Game, lefts: list[Game], rights: list[Game], memo: dict[tuple[int, int], bool]
) -> bool:
    """``x <= G`` where G = ``{lefts | rights}`` is not interned yet."""
    key = (0, x.id)
    found = memo.get(key)
    if found is not None:
        return found
    result = not any(le(r, x) for r in rights) and not any(
        _ge_form(xl, lefts, rights, memo) for xl in x.left
    )
    memo[key] = result
    return result


def _ge_form(
    y: Game, lefts: list[Game], rights: list[Game], memo: dict[tuple[int, int], bool]
) -> bool:
    """``G <= y`` where G = ``{lefts | rights}`` is not interned yet."""
    key = (1, y.id)
    found = memo.get(key)
    if found is not None:
        return found
    result = not any(le(y, o) for o in lefts) and not any(
        _le_form(yr, lefts, rights, memo) for yr in y.right
    )
    memo[key] = result
    return result


_SUBPOSITIONS: dict[int, int] = {}


def subpositions(g: Game) -> int:
    """How many distinct canonical forms are reachable from ``g`` (itself included): the
    size of its game graph, which bounds the work of a sum (about the product of the sizes).

    >>> subpositions(ZERO), subpositions(star(1)), subpositions(up())
    (1, 2, 3)
    """
    found = _SUBPOSITIONS.get(g.id)
    if found is None:
        seen: set[int] = set()
        stack = [g]
        while stack:
            x = stack.pop()
            if x.id in seen:
                continue
            seen.add(x.id)
            stack.extend(x.left)
            stack.extend(x.right)
        found = len(seen)
        _SUBPOSITIONS[g.id] = found
    return found


def cache_sizes() -> dict[str, int]:
    """Sizes of the intern and memo tables (for benchmarks)."""
    return {"games": len(_TABLE), "le": len(_LE), "add": len(_ADD), "neg": len(_NEG)}
