"""Walk an OpenSpiel game's states into nimlab's exact sequence-form ingredients.

:func:`load` loads a game string with ``pyspiel`` and refuses what cannot be solved as a
two-player zero-sum game with perfect recall; :func:`walk` visits every state depth-first into a
:class:`~nimlab.equilibrium.efg_read.ZeroSumEfg`, which
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
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from nimlab.budget import format_bytes
from nimlab.equilibrium.efg_read import EfgInfoset, EfgSequence, EfgTerminal, ZeroSumEfg
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
"""The walk's default node limit (measured: about 100,000 states a second, 1 kB each)."""


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


def walk(
    game: Any, *, max_nodes: int = DEFAULT_MAX_NODES, max_bytes: int | None = None
) -> ZeroSumEfg:
    """Every state of ``game`` (from :func:`load`) as a :class:`ZeroSumEfg`.

    Player 0 of OpenSpiel is the first player (the value is player 0's). Raises
    :class:`TooLargeError` past ``max_nodes`` states, or as soon as the memory the walk has
    taken so far, projected to ``max_nodes`` states, is over ``max_bytes`` (checked every
    :data:`_PROJECT_EVERY` states: chess's long histories fill gigabytes well before its
    millions of states are walked), and :class:`OpenSpielGameError` when
    a chance node's probabilities do not sum to 1, an information set's actions differ
    between its nodes, perfect recall fails, or the payoffs of the terminal states do not
    sum to one constant.
    """
    walker = _Walker(max_nodes, max_bytes)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        walker.visit(game.new_initial_state(), 0, 0, Fraction(1))
    finally:
        sys.setrecursionlimit(limit)
    terminals = walker.terminals
    total = terminals[0][3] + terminals[0][4]
    for *_, u1, u2, history in terminals:
        if u1 + u2 != total:
            raise OpenSpielGameError(
                f"the game is not zero-sum (nor constant-sum): the returns sum to {total} at "
                f"{terminals[0][5]!r} but to {u1 + u2} at {history!r}"
            )
    return ZeroSumEfg(
        title=str(game),
        comment="",
        players=("player 0", "player 1"),
        shift=-total,
        infosets=tuple(walker.infosets),
        sequences=(tuple(walker.sequences[0]), tuple(walker.sequences[1])),
        terminals=tuple(EfgTerminal(s1, s2, c, u1 - total) for s1, s2, c, u1, _, _ in terminals),
        nodes=walker.nodes,
    )


_PROJECT_EVERY = 20_000


def _resident_bytes() -> int:
    """This process's resident memory (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class _Walker:
    def __init__(self, max_nodes: int, max_bytes: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.max_bytes = max_bytes
        self.start_bytes = _resident_bytes()
        self.nodes = 0
        self.infosets: list[EfgInfoset] = []
        self.legal: list[list[int]] = []
        self.counts = [0, 0]
        self.index: dict[tuple[int, str], int] = {}
        self.sequences: tuple[list[EfgSequence], list[EfgSequence]] = (
            [EfgSequence(-1, -1)],
            [EfgSequence(-1, -1)],
        )
        self.terminals: list[tuple[int, int, Fraction, Fraction, Fraction, str]] = []

    def visit(self, state: Any, seq1: int, seq2: int, chance: Fraction) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise TooLargeError(
                f"the game has more than {self.max_nodes:,} states (nodes)",
                estimate=self.nodes,
                limit=self.max_nodes,
            )
        if self.max_bytes is not None and self.nodes % _PROJECT_EVERY == 0:
            self.project()
        if state.is_terminal():
            u1, u2 = (exact_float(r) for r in state.returns())
            self.terminals.append((seq1, seq2, chance, u1, u2, state.history_str()))
            return
        if state.is_chance_node():
            outcomes = [(a, exact_float(p)) for a, p in state.chance_outcomes()]
            if sum(p for _, p in outcomes) != 1 or min(p for _, p in outcomes) < 0:
                shown = " ".join(str(p) for _, p in outcomes)
                raise OpenSpielGameError(
                    f"the chance probabilities {shown} at {state.history_str()!r} (read as "
                    f"fractions with denominators up to {DENOMINATOR:,}) do not sum to 1"
                )
            for action, p in outcomes:
                if p:
                    self.visit(state.child(action), seq1, seq2, chance * p)
            return
        player = state.current_player()
        seq = (seq1, seq2)[player]
        info = self.infoset(state, player, seq)
        for a, action in enumerate(self.legal[info]):
            mine = self.infosets[info].first_sequence + a
            child = state.child(action)
            if player == 0:
                self.visit(child, mine, seq2, chance)
            else:
                self.visit(child, seq1, mine, chance)

    def project(self) -> None:
        """Refuse when the memory taken per state so far, times the node limit, is over
        the memory budget."""
        assert self.max_bytes is not None
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

    def infoset(self, state: Any, player: int, seq: int) -> int:
        name = state.information_state_string(player)
        legal = state.legal_actions(player)
        key = (player, name)
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.infosets)
            first = len(self.sequences[player])
            actions = tuple(state.action_to_string(player, a) for a in legal)
            self.counts[player] += 1
            number = self.counts[player]
            self.infosets.append(EfgInfoset(player, number, name, actions, seq, first))
            self.legal.append(legal)
            self.sequences[player].extend(EfgSequence(found, a) for a in range(len(legal)))
            return found
        info = self.infosets[found]
        if legal != self.legal[found]:
            raise OpenSpielGameError(
                f"information set {name!r} of player {player} has different legal actions at "
                f"{state.history_str()!r}"
            )
        if seq != info.parent_sequence:
            raise OpenSpielGameError(
                f"no perfect recall: information set {name!r} of player {player} is reached "
                f"at {state.history_str()!r} by other own actions than at its first node"
            )
        return found
