"""Subtrees in which only one player still chooses, replaced by their best-response value.

In a half-restricted game (:mod:`nimlab.hidden.oracle`) the held player is allowed few
actions, and at most of its information sets only one: there it has no choice, so its
realisation weight stays that of the sequence leading there (call that sequence its
*representative*). Take a sequence ``s`` of the free player ``p`` such that every terminal
below ``s`` meets the same representative ``r`` of the held player. Whatever the held player
does, the subtree under ``s`` pays ``x_s * y_r * (payoff of p's plan below s)``, so ``p``'s
best play there does not depend on the held player at all: it is the plan found by backward
induction, worth ``c(s)``, and the whole subtree can be replaced by one terminal at ``s``
paying ``c(s)`` against ``r``. The sequence-form LP of the reduced tree has the same value,
the same optimal strategies for the held player, and optimal strategies of ``p`` that agree
with the full tree's on every sequence both have; :meth:`Collapse.expand` completes ``p``'s
plan below each replaced subtree with the backward induction's choices. Best-response values
agree too: ``p``'s against any plan of the held player, and the held player's against any
plan of ``p`` that plays those choices (the held player never moves inside a replaced
subtree), so the exact certificate (:mod:`nimlab.equilibrium.certify`) may be computed on the
reduced tree.

Numbering across rounds: a tree that grows by :meth:`~nimlab.hidden.builder.Builder.grow`
only appends information sets and actions, and a sequence once kept stays kept (a subtree's
terminals only ever meet more representatives as the held player is allowed more actions),
so the reduced trees of one :class:`Collapse` keep each information set's index from round to
round: what :class:`~nimlab.equilibrium.warm.GrowingLp` needs to start from the last basis.

Dominated sequences: every outcome below a sequence ``a`` of the free player (a win or a
loss of each terminal node, not weighted) lies between the worst and the best the player can
reach there. Where another action ``b`` of the same information set is sure to do at least as
well as the best ``a`` can (its worst, with the player's own best play below, is no lower
than ``a``'s best), ``a`` is weakly dominated, at every node of the set and against every
plan of the held player. Holding ``a`` at zero, and, bottom up, leaving dominated sequences
out of the best outcomes above them, changes neither the value nor the held player's
optimal strategies (the free player's best reply never needs ``a``): :attr:`Collapse.
dominated` lists them, for :mod:`nimlab.equilibrium.warm` to drop from an LP whose simplex has
stalled. Of each set's actions that secure its best worst outcome, the backward
induction's choice is kept if it is one, else the first. At the root of SN(3,1), taking 2
from the first heap leaves (1, 1), a sure win: L's three other moves are dominated.

>>> from nimlab.hidden.restrict import Restriction
>>> from nimlab.hidden.tree import growing_tree
>>> from nimlab.equilibrium.certify import best_response_value
>>> from fractions import Fraction
>>> tree = growing_tree("sn", (3, 2, 1), 1, Restriction()).tree  # R held to its first actions
>>> reduced = Collapse(player=0).reduce(tree)
>>> tree.sequence_count(0), reduced.sequence_count(0)  # R never chooses: one terminal is left
(7, 1)
>>> list(tree.term_payoff), list(reduced.term_payoff)  # worth a win to L's best reply
([1, 1, -1, -1, -1, -1], [1])
>>> y = [Fraction(1)] * tree.sequence_count(1)  # R's only plan
>>> best_response_value(tree, 0, y) == best_response_value(reduced, 0, y)
True
>>> from nimlab.hidden.tree import build_tree
>>> collapse = Collapse(player=0)  # the whole tree of SN(3,1), L free
>>> root = collapse.reduce(build_tree("sn", (3, 1))).infosets[0]
>>> [str(root.actions[s - root.first_seq]) for s in collapse.dominated.tolist() if s <= 4]
['1_1', '1_3', '2_1']
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from nimlab.equilibrium.gametree import GameTree, InfosetTable
from nimlab.equilibrium.seqform import infoset_fields, integer_array, largest_payoff, offsets

__all__ = ["Collapse", "ReducedTree"]

Indices = npt.NDArray[np.int64]

_NONE = np.iinfo(np.int64).max
"""The smallest representative of a sequence with no terminal below (none met)."""


@dataclass
class ReducedTree:
    """A tree with some of one player's subtrees replaced by single terminals: what the
    sequence form and the certificate read of a tree (:class:`~nimlab.equilibrium.seqform.
    SequenceTree`), with information sets numbered as in the reduced trees before it."""

    infosets: InfosetTable
    seq_infoset: tuple[array[int], array[int]]
    term_seq: tuple[array[int], array[int]]
    term_payoff: array[int]

    def sequence_count(self, player: int) -> int:
        """The number of ``player``'s sequences, the empty one included."""
        return len(self.seq_infoset[player])


def _representatives(firsts: Indices, widths: Indices, parents: Indices, count: int) -> Indices:
    """Each sequence's representative: itself, or, after a choice of a one-action information
    set, the representative of the sequence leading there (by pointer jumping).

    >>> _representatives(np.array([1, 2]), np.array([1, 2]), np.array([0, 1]), 4).tolist()
    [0, 0, 2, 3]
    """
    rep = np.arange(count, dtype=np.int64)
    forced = widths == 1
    rep[firsts[forced]] = parents[forced]
    while True:
        jumped = rep[rep]
        if np.array_equal(jumped, rep):
            return rep
        rep = jumped


def _depths(infoset_of_parent: Indices) -> Indices:
    """The depth of each information set below its player's first ones (-1: a first one),
    by pointer jumping over the parents' indices.

    >>> _depths(np.array([-1, 0, 1, 0])).tolist()
    [0, 1, 2, 1]
    """
    ancestor = infoset_of_parent.copy()
    depth = (ancestor >= 0).astype(np.int64)
    while True:
        up = ancestor >= 0
        if not up.any():
            return depth
        above = ancestor[up]
        depth[up] += depth[above]
        ancestor[up] = ancestor[above]


def _ranges(firsts: Indices, widths: Indices) -> tuple[Indices, Indices]:
    """The sequences of the given information sets in one flat run, and where each set's run
    starts in it."""
    return offsets(widths) + np.repeat(firsts, widths), np.cumsum(widths) - widths


@dataclass
class Collapse:
    """Reduce the trees of one growing restricted game, in which ``player`` is free (see the
    module's text); the other player is the held one."""

    player: int
    reduced_index: Indices = field(default_factory=lambda: np.zeros(0, np.int64))
    """Per information set of the tree, its index in the reduced trees (-1: not kept yet)."""
    _expansion: tuple[Indices, ...] = ()
    _levels: list[Indices] = field(default_factory=list)
    first_play: Indices = field(default_factory=lambda: np.zeros(0, np.int64))
    """Per information set of the last reduced tree, the action the free player's backward
    induction chose there (0 for the held player's): a start for its LP."""
    dominated: Indices = field(default_factory=lambda: np.zeros(0, np.int64))
    """The free player's dominated sequences in the last reduced tree (see the module's
    text), by their numbers there."""

    def reduce(self, tree: GameTree) -> ReducedTree | GameTree:
        """The reduced tree of ``tree`` (the tree of the last call, grown), or ``tree`` itself
        when its payoffs are too large for 64-bit sums."""
        p, held = self.player, 1 - self.player
        payoff = integer_array(tree.term_payoff)
        if payoff is None or largest_payoff(payoff) * len(payoff) >= 2**62:
            return tree  # sums of payoffs could overflow 64 bits
        owner, parents, firsts, widths = infoset_fields(tree)
        own = np.flatnonzero(owner == p)
        other = np.flatnonzero(owner == held)
        count = tree.sequence_count(p)
        seq_infoset = np.asarray(tree.seq_infoset[p], dtype=np.int64)
        rep = _representatives(
            firsts[other], widths[other], parents[other], tree.sequence_count(held)
        )
        at = np.asarray(tree.term_seq[p], dtype=np.int64)
        held_at = np.asarray(tree.term_seq[held], dtype=np.int64)
        met = rep[held_at]
        low, high = np.full(count, _NONE), np.full(count, -1, dtype=np.int64)
        np.minimum.at(low, at, met)
        np.maximum.at(high, at, met)
        value = np.zeros(count, dtype=np.int64)
        size = np.zeros(count, dtype=np.int64)
        np.add.at(value, at, payoff.astype(np.int64))
        # the worst and best outcomes below each sequence, as the free player ranks them
        outcome = payoff.astype(np.int64) if p == 0 else -payoff.astype(np.int64)
        worst, best_seen = np.full(count, _NONE), np.full(count, -_NONE)
        np.minimum.at(worst, at, outcome)
        np.maximum.at(best_seen, at, outcome)
        dominated = np.zeros(count, dtype=bool)
        above = np.full(len(owner), -1, dtype=np.int64)
        above[own] = seq_infoset[parents[own]]
        depth = _depths(above)[own]
        order = np.argsort(depth, kind="stable")
        levels = np.split(own[order], np.flatnonzero(np.diff(depth[order])) + 1)
        choice = np.zeros(len(owner), dtype=np.int64)
        best_of = np.maximum.reduceat if p == 0 else np.minimum.reduceat
        for level in reversed(levels):  # the deepest information sets first
            width = widths[level]
            seqs, starts = _ranges(firsts[level], width)
            action = offsets(width)  # each sequence's action index in its set
            values = value[seqs]
            best = best_of(values, starts)
            tied = values == np.repeat(best, width)
            # among the best actions, the one whose play meets the fewest information sets
            smallest = np.minimum.reduceat(np.where(tied, size[seqs], _NONE), starts)
            shortest = tied & (size[seqs] == np.repeat(smallest, width))
            choice[level] = np.minimum.reduceat(np.where(shortest, action, _NONE), starts)
            up = parents[level]
            # weakly dominated actions: no better at best than another action is at worst
            below_worst, below_best = worst[seqs], best_seen[seqs]
            secured = np.maximum.reduceat(below_worst, starts)
            securing = below_worst == np.repeat(secured, width)
            keeper = np.where(
                securing[starts + choice[level]],  # the backward induction's, if it secures
                choice[level],
                np.minimum.reduceat(np.where(securing, action, _NONE), starts),
            )
            beaten = (below_best <= np.repeat(secured, width)) & (
                action != np.repeat(keeper, width)
            )
            dominated[seqs] = beaten
            np.minimum.at(worst, up, secured)
            np.maximum.at(
                best_seen, up, np.maximum.reduceat(np.where(beaten, -_NONE, below_best), starts)
            )
            np.add.at(value, up, best)
            np.add.at(size, up, smallest + 1)
            np.minimum.at(low, up, np.minimum.reduceat(low[seqs], starts))
            np.maximum.at(high, up, np.maximum.reduceat(high[seqs], starts))
        single = (low == high) | (high < 0)
        inner = np.zeros(len(owner), dtype=bool)  # the free player's, inside a replaced subtree
        inner[own] = single[parents[own]]
        # numbering: earlier kept information sets keep their index, new ones follow in order
        index = np.full(len(owner), -1, dtype=np.int64)
        index[: len(self.reduced_index)] = self.reduced_index
        kept = int(np.count_nonzero(index >= 0))
        fresh = np.flatnonzero((index < 0) & ~inner)
        index[fresh] = np.arange(kept, kept + len(fresh))
        self.reduced_index = index
        by_index = np.empty(kept + len(fresh), dtype=np.int64)
        by_index[index[index >= 0]] = np.flatnonzero(index >= 0)
        # the free player's kept sequences, numbered in the reduced order of their sets
        kept_own = by_index[owner[by_index] == p]
        new_first = firsts.copy()  # the held player's sequences keep their numbers
        new_first[kept_own] = 1 + np.cumsum(widths[kept_own]) - widths[kept_own]
        own_number = np.full(count, -1, dtype=np.int64)
        own_number[0] = 0
        old, _ = _ranges(firsts[kept_own], widths[kept_own])
        own_number[old] = np.repeat(new_first[kept_own], widths[kept_own]) + offsets(
            widths[kept_own]
        )
        own_seq_infoset = np.full(int(own_number.max()) + 1, -1, dtype=np.int64)
        own_seq_infoset[own_number[old]] = np.repeat(index[kept_own], widths[kept_own])
        held_seq_infoset = np.asarray(tree.seq_infoset[held], dtype=np.int64)
        held_seq_infoset = np.append(index, -1)[held_seq_infoset]  # -1 stays -1
        seq_tables = [_as_array(own_seq_infoset), _as_array(held_seq_infoset)]
        parents_out = parents.copy()
        parents_out[own] = own_number[parents[own]]
        table = InfosetTable(tree.infosets.trail)
        table.player = _as_array(owner[by_index], "b")
        table.parent_seq = _as_array(parents_out[by_index])
        table.first_seq = _as_array(new_first[by_index])
        table.width = _as_array(widths[by_index])
        table.hist = _as_array(np.asarray(tree.infosets.hist, dtype=np.int64)[by_index])
        table.pending = _as_array(np.asarray(tree.infosets.pending, dtype=np.int64)[by_index])
        table.belief = [tree.infosets.belief[i] for i in by_index.tolist()]
        table.actions = [tree.infosets.actions[i] for i in by_index.tolist()]
        # terminals: those outside replaced subtrees, then one per replaced subtree
        outside = ~single[at]
        roots = np.flatnonzero((own_number >= 0) & single & (high >= 0))
        term_own = np.concatenate([own_number[at[outside]], own_number[roots]])
        term_held = np.concatenate([held_at[outside], low[roots]])
        term_payoff = _as_array(np.concatenate([payoff[outside], value[roots]]), "q")
        terms = [_as_array(term_own), _as_array(term_held)]
        if p == 1:
            seq_tables.reverse()
            terms.reverse()
        self.first_play = np.where(owner[by_index] == p, choice[by_index], 0)
        self.dominated = own_number[np.flatnonzero(dominated & (own_number >= 0))]
        self._expansion = (own_number, choice, parents, firsts)
        self._levels = [level[inner[level]] for level in levels]
        return ReducedTree(
            table,
            (seq_tables[0], seq_tables[1]),
            (terms[0], terms[1]),
            term_payoff,
        )

    def expand(self, plan: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The free player's realisation plan in the last tree from its plan in the reduced
        tree (any dtype, object for fractions): kept sequences keep their weight, and below
        a replaced subtree's root the weight follows the backward induction's choices."""
        numbers, choice, parents, firsts = self._expansion
        full = np.zeros(len(numbers), dtype=plan.dtype)
        kept = numbers >= 0
        full[kept] = plan[numbers[kept]]
        for level in self._levels:  # the shallowest information sets first
            full[firsts[level] + choice[level]] = full[parents[level]]
        return full


def _as_array(values: npt.NDArray[np.signedinteger], code: str = "i") -> array[int]:
    """``values`` as an ``array`` of type ``code`` (``"b"``, ``"i"``, ``"q"``: 8, 32, 64 bits)."""
    out = array(code)
    out.frombytes(values.astype(np.dtype(f"i{out.itemsize}")).tobytes())
    return out
