"""Walk an OpenSpiel game's states into nimlab's exact sequence-form ingredients.

:func:`load` loads a game string with ``pyspiel`` and refuses what cannot be solved as a
two-player zero-sum game with perfect recall; :func:`walk` visits every state depth-first into a
:class:`~nimlab.equilibrium.efg_flat.FlatEfg` (flat arrays, no object per state), which
:func:`~nimlab.equilibrium.efg_solve.solve_efg` solves and certifies exactly.

OpenSpiel gives chance probabilities and payoffs as floats: each is read as the nearest
fraction with a denominator of at most ``10**6`` (``Fraction(x).limit_denominator(10**6)``),
and the probabilities of every chance node must then sum to exactly 1, or the game is refused.
An information set is a player's ``information_state_string``; perfect recall is checked
(every node of an information set is reached by the same own actions).

``pyspiel`` is imported only when a game is loaded (the optional extra ``openspiel``).

>>> exact_float(1 / 3), exact_float(0.1)
(Fraction(1, 3), Fraction(1, 10))
"""

from __future__ import annotations

import os
import sys
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from nimlab.budget import format_bytes
from nimlab.equilibrium.efg_flat import FlatEfg, worth_table
from nimlab.equilibrium.efg_read import EfgInfoset
from nimlab.errors import InvalidPositionError, TooLargeError

__all__ = [
    "DEFAULT_MAX_NODES",
    "DENOMINATOR",
    "OpenSpielGameError",
    "exact_float",
    "load",
    "walk",
]

DENOMINATOR = 10**6
"""The largest denominator read from OpenSpiel's floats."""
DEFAULT_MAX_NODES = 3_000_000
"""The walk's default node limit (measured on Liar's Dice: about 400,000 states a second of
CPU, and under 200 bytes a state with the solve's own arrays)."""


class OpenSpielGameError(InvalidPositionError):
    """An OpenSpiel game that nimlab cannot solve (or cannot load)."""


def exact_float(x: float) -> Fraction:
    """The fraction nearest ``x`` with a denominator of at most :data:`DENOMINATOR`."""
    return Fraction(x).limit_denominator(DENOMINATOR)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 goes to the null device meanwhile."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def load(game_string: str) -> Any:
    """The ``pyspiel`` game of ``game_string``, checked to be two-player, zero-sum (or
    constant-sum), sequential, with explicit chance and information state strings.

    Raises :class:`OpenSpielGameError` otherwise (a simultaneous-move game is offered its
    turn-based form), or when ``pyspiel`` is not installed.
    """
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError as error:  # the optional extra
        raise OpenSpielGameError(
            "OpenSpiel is not installed: install nimlab's extra 'openspiel' (pip install "
            "'nimlab[openspiel]')"
        ) from error
    try:
        with _quiet_stderr():  # OpenSpiel also prints its errors there
            game = pyspiel.load_game(game_string)
    except pyspiel.SpielError as error:
        reason = str(error).split(". Available games")[0]  # not the list of every game
        raise OpenSpielGameError(f"OpenSpiel cannot load {game_string!r}: {reason}") from error
    kind = game.get_type()
    kinds = pyspiel.GameType
    if game.num_players() != 2:
        raise OpenSpielGameError(
            f"{game_string!r} has {game.num_players()} players; only two-player games can be solved"
        )
    if kind.utility not in (kinds.Utility.ZERO_SUM, kinds.Utility.CONSTANT_SUM):
        raise OpenSpielGameError(
            f"{game_string!r} is not zero-sum nor constant-sum (OpenSpiel: {kind.utility.name})"
        )
    if kind.dynamics == kinds.Dynamics.SIMULTANEOUS:
        raise OpenSpielGameError(
            f"{game_string!r} is a simultaneous-move game; solve its turn-based form "
            f"'turn_based_simultaneous_game(game={game_string})' (the same game: the second "
            "mover does not see the first one's choice)"
        )
    if kind.dynamics != kinds.Dynamics.SEQUENTIAL:
        raise OpenSpielGameError(
            f"{game_string!r} is not a sequential game (OpenSpiel: {kind.dynamics.name})"
        )
    if kind.chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC:
        raise OpenSpielGameError(
            f"{game_string!r} samples its chance outcomes without stating their probabilities"
        )
    if not kind.provides_information_state_string:
        raise OpenSpielGameError(
            f"{game_string!r} has no information state strings (perfect recall is needed)"
        )
    return game


def walk(game: Any, *, max_nodes: int = DEFAULT_MAX_NODES, max_bytes: int | None = None) -> FlatEfg:
    """Every state of ``game`` (from :func:`load`) as a :class:`FlatEfg` (flat arrays).

    Player 0 of OpenSpiel is the first player (the value is player 0's). Raises
    :class:`TooLargeError` past ``max_nodes`` states, or as soon as the memory the walk has
    taken so far, projected to ``max_nodes`` states, is over ``max_bytes`` (checked every
    :data:`_PROJECT_EVERY` states: chess's long histories fill gigabytes well before its
    millions of states are walked), and :class:`OpenSpielGameError` when
    a chance node's probabilities do not sum to 1, an information set's actions differ
    between its nodes, perfect recall fails, or the payoffs of the terminal states do not
    sum to one constant.

    Each state costs a handful of calls into OpenSpiel and appends to flat arrays: floats
    are read as fractions once per distinct value (chance probabilities, reach
    probabilities and returns are few), and a history string is asked for only to name a
    state in an error.

    >>> tree = walk(load("kuhn_poker"))
    >>> tree.nodes, len(tree.infosets), tree.sequence_counts, tree.payoff_scale
    (58, 12, (13, 13), 6)
    """
    walker = _Walker(max_nodes, max_bytes)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        walker.visit(game.new_initial_state())
    finally:
        sys.setrecursionlimit(limit)
    return walker.flat(str(game))


_PROJECT_EVERY = 20_000


def _resident_bytes() -> int:
    """This process's resident memory (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _Walker:
    """The walk's state: flat terminal columns, information sets by string, and tables of
    the distinct chance reaches and returns (each read exactly once)."""

    def __init__(self, max_nodes: int, max_bytes: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.max_bytes = max_bytes
        self.start_bytes = _resident_bytes()
        self.nodes = 0
        self.next_check = min(max_nodes, _PROJECT_EVERY) if max_bytes is not None else max_nodes
        self.infosets: list[EfgInfoset] = []
        self.legal: list[list[int]] = []
        self.parents: list[int] = []
        self.firsts: list[int] = []
        self.counts = [0, 0]
        self.sequences = [1, 1]
        self.index: tuple[dict[str, int], dict[str, int]] = ({}, {})
        # terminal columns: own sequences, chance reach and returns (by their table index)
        self.term: tuple[array[int], ...] = tuple(array("i") for _ in range(4))
        self.reaches: list[Fraction] = [Fraction(1)]
        self.reach_index: dict[tuple[int, float], int] = {}
        self.chance_tables: dict[tuple[float, ...], list[Fraction]] = {}
        self.returns: list[tuple[Fraction, Fraction]] = []
        self.returns_index: dict[tuple[float, ...], int] = {}
        self.first_history = ""

    def visit(self, root: Any) -> None:
        """Walk every state below ``root`` depth-first (a closure over local names and
        OpenSpiel's unbound methods: this loop runs once per state). A terminal child is
        recorded where it is made, without a call of its own; the nodes are counted as
        they are made, a node's children at once."""
        t1, t2, tc, tu = (t.append for t in self.term)
        returns_index, new_returns = self.returns_index, self.new_returns
        chance_tables, reach_index, reaches = self.chance_tables, self.reach_index, self.reaches
        index, legals, parents, firsts = self.index, self.legal, self.parents, self.firsts
        kind = type(root)  # OpenSpiel's methods, looked up once rather than once a call
        child, current, returns = kind.child, kind.current_player, kind.returns
        info_string, legal_actions = kind.information_state_string, kind.legal_actions
        terminal, chance = -4, -1  # pyspiel.PlayerId.TERMINAL and CHANCE
        nodes, next_check = self.nodes + 1, self.next_check

        def count(more: int) -> None:
            nonlocal nodes, next_check
            nodes += more
            if nodes > next_check:
                self.nodes = nodes
                self.check()
                next_check = self.next_check

        def end(state: Any, seq1: int, seq2: int, reach: int) -> None:
            key = tuple(returns(state))
            found = returns_index.get(key)
            t1(seq1)
            t2(seq2)
            tc(reach)
            tu(new_returns(state, key) if found is None else found)

        def visit(state: Any, player: int, seq1: int, seq2: int, reach: int) -> None:
            if player == chance:
                outcomes = state.chance_outcomes()
                probabilities = tuple(p for _, p in outcomes)
                exact = chance_tables.get(probabilities)
                if exact is None:
                    exact = self.chance_table(state, probabilities)
                count(sum(1 for q in exact if q))
                for (action, p), q in zip(outcomes, exact, strict=True):
                    if q:
                        key = (reach, p)
                        after = reach_index.get(key)
                        if after is None:
                            after = reach_index[key] = len(reaches)
                            reaches.append(reaches[reach] * q)
                        node = child(state, action)
                        mover = current(node)
                        if mover == terminal:
                            end(node, seq1, seq2, after)
                        else:
                            visit(node, mover, seq1, seq2, after)
                return
            if player < 0:
                raise OpenSpielGameError(
                    f"OpenSpiel names player {player} to move at {state.history_str()!r}"
                )
            seq = seq2 if player else seq1
            name = info_string(state, player)
            legal = legal_actions(state)
            info = index[player].get(name)
            if info is None:
                info = self.new_infoset(state, player, name, legal, seq)
            elif legal != legals[info] or seq != parents[info]:
                self.refuse(state, player, name, legal)
            first = firsts[info]
            count(len(legal))
            for action in legal:
                node = child(state, action)
                mover = current(node)
                if mover == terminal:
                    key = tuple(returns(node))
                    found = returns_index.get(key)
                    if found is None:
                        found = new_returns(node, key)
                    if player:
                        t1(seq1)
                        t2(first)
                    else:
                        t1(first)
                        t2(seq2)
                    tc(reach)
                    tu(found)
                elif player:
                    visit(node, mover, seq1, first, reach)
                else:
                    visit(node, mover, first, seq2, reach)
                first += 1

        self.nodes = nodes
        if nodes > next_check:
            self.check()
        mover = current(root)
        if mover == terminal:
            end(root, 0, 0, 0)
        else:
            visit(root, mover, 0, 0, 0)
        self.nodes = nodes

    def check(self) -> None:
        """Past the node limit: refuse; else project the memory taken so far."""
        if self.nodes > self.max_nodes:
            raise TooLargeError(
                f"the game has more than {self.max_nodes:,} states (nodes)",
                estimate=self.nodes,
                limit=self.max_nodes,
            )
        self.project()
        self.next_check = min(self.max_nodes, self.nodes + _PROJECT_EVERY)

    def new_returns(self, state: Any, returns: tuple[float, ...]) -> int:
        """The index of a terminal's returns not seen before, read exactly and checked to
        sum to the constant of the first terminal."""
        u1, u2 = (exact_float(r) for r in returns)
        if not self.returns:
            self.first_history = state.history_str()
        elif u1 + u2 != sum(self.returns[0]):
            raise OpenSpielGameError(
                f"the game is not zero-sum (nor constant-sum): the returns sum to "
                f"{sum(self.returns[0])} at {self.first_history!r} but to {u1 + u2} at "
                f"{state.history_str()!r}"
            )
        found = self.returns_index[returns] = len(self.returns)
        self.returns.append((u1, u2))
        return found

    def chance_table(self, state: Any, probabilities: tuple[float, ...]) -> list[Fraction]:
        """A chance node's probabilities not seen before, read exactly and checked."""
        exact = [exact_float(p) for p in probabilities]
        if sum(exact) != 1 or min(exact) < 0:
            shown = " ".join(str(p) for p in exact)
            raise OpenSpielGameError(
                f"the chance probabilities {shown} at {state.history_str()!r} (read as "
                f"fractions with denominators up to {DENOMINATOR:,}) do not sum to 1"
            )
        self.chance_tables[probabilities] = exact
        return exact

    def project(self) -> None:
        """Refuse when the memory taken per state so far, times the node limit, is over
        the memory budget."""
        if self.max_bytes is None:
            return
        now = _resident_bytes()
        grown = max(0, now - self.start_bytes)
        projected = self.start_bytes + grown / self.nodes * self.max_nodes
        if projected > self.max_bytes:
            raise TooLargeError(
                f"after {self.nodes:,} states the walk holds {format_bytes(now)}; at this rate"
                f" the node limit of {self.max_nodes:,} states needs about"
                f" {format_bytes(projected)}, over the memory budget of"
                f" {format_bytes(self.max_bytes)}",
                estimate=int(projected),
                limit=self.max_bytes,
            )

    def new_infoset(self, state: Any, player: int, name: str, legal: list[int], seq: int) -> int:
        """Number a new information set of ``player`` and its sequences."""
        found = self.index[player][name] = len(self.infosets)
        first = self.sequences[player]
        actions = tuple(state.action_to_string(player, a) for a in legal)
        self.counts[player] += 1
        self.infosets.append(EfgInfoset(player, self.counts[player], name, actions, seq, first))
        self.legal.append(legal)
        self.parents.append(seq)
        self.firsts.append(first)
        self.sequences[player] += len(legal)
        return found

    def refuse(self, state: Any, player: int, name: str, legal: list[int]) -> None:
        """An information set met again with other legal actions or other own actions."""
        if legal != self.legal[self.index[player][name]]:
            raise OpenSpielGameError(
                f"information set {name!r} of player {player} has different legal actions at "
                f"{state.history_str()!r}"
            )
        raise OpenSpielGameError(
            f"no perfect recall: information set {name!r} of player {player} is reached "
            f"at {state.history_str()!r} by other own actions than at its first node"
        )

    def flat(self, title: str) -> FlatEfg:
        """The walked game: each terminal worth its chance reach times player 0's payoff,
        shifted to zero-sum, over one integer scale (terminals worth 0 left out)."""
        import numpy as np

        total = sum(self.returns[0], Fraction(0)) if self.returns else Fraction(0)
        seq1, seq2, reach, returns = (np.frombuffer(t, dtype=np.int32) for t in self.term)
        width = max(len(self.returns), 1)
        pair = reach.astype(np.int64) * width + returns
        pairs, where = np.unique(pair, return_inverse=True)  # the (reach, returns) that occur
        worth, scale = worth_table(
            [(self.reaches[p // width], self.returns[p % width][0] - total) for p in pairs.tolist()]
        )
        if all(-(2**63) <= w < 2**63 for w in worth):
            every = np.asarray(worth, dtype=np.int64)[where]
            keep = np.flatnonzero(every)
            payoff: array[int] | list[int] = array("q", every[keep].tobytes())
        else:
            keep = np.flatnonzero(np.array([w != 0 for w in worth], dtype=np.bool_)[where])
            payoff = [worth[k] for k in where[keep].tolist()]
        return FlatEfg(
            title=title,
            players=("player 0", "player 1"),
            shift=-total,
            infosets=tuple(self.infosets),
            sequence_counts=(self.sequences[0], self.sequences[1]),
            term_seq=(array("i", seq1[keep].tobytes()), array("i", seq2[keep].tobytes())),
            term_payoff=payoff,
            payoff_scale=scale,
            nodes=self.nodes,
        )
