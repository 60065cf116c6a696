"""nimlab's hidden-information Nim variants as OpenSpiel games, for OpenSpiel's own algorithms.

:func:`register` registers one Python game per variant with ``pyspiel``: ``nimlab_sn``,
``nimlab_fsn``, ``nimlab_kn`` and ``nimlab_kn_empty``, each with the parameters ``heaps``
(heights joined by ``;`` as in OpenSpiel's own ``nim``, e.g. ``"3;3;1"``; one heap is written
``"5;"``, since OpenSpiel reads a bare number as an integer) and ``misere``.
:func:`game_string` writes the string that ``pyspiel.load_game`` accepts:

>>> game_string("sn", (3, 3, 1))
'nimlab_sn(heaps=3;3;1,misere=False)'
>>> game_string("kn-empty", (5,), misere=True)
'nimlab_kn_empty(heaps=5;,misere=True)'

The game is nimlab's unreduced tree (:func:`~nimlab.extensive.tree.build_tree` with
``prune_forced=False`` and ``known_wins=False``, the rules of
:func:`~nimlab.extensive.variants.variant_rules`), built once per loaded game: player 0 is L (who
moves first), a player's actions are those of the tree's information set (action ``a`` is the
``a``-th, named as nimlab names it), and a player's information state string is that player's
own history in the tree, its events joined by ``" | "`` (``look 1 -> 2 | 1_2 | opponent: heap
2``). The payoff is 1 to whoever takes the last chip (misère: to the other player).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from nimlab.core.heaps import check_heaps
from nimlab.errors import InvalidPositionError
from nimlab.extensive.protocol import Rules
from nimlab.extensive.tree import GameTree
from nimlab.extensive.variants import VARIANTS

__all__ = ["game_string", "parse_heaps", "register", "short_name"]

SEPARATOR = " | "
"""Between the events of an information state string."""


def short_name(variant: str) -> str:
    """OpenSpiel's name of ``variant``'s game.

    >>> short_name("kn-empty")
    'nimlab_kn_empty'
    """
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise InvalidPositionError(f"unknown variant {variant!r}: known variants are {known}")
    return "nimlab_" + variant.replace("-", "_")


def game_string(variant: str, heaps: tuple[int, ...] | list[int], misere: bool = False) -> str:
    """The ``pyspiel.load_game`` string of ``variant`` from ``heaps`` (registered by
    :func:`register`, which importing :mod:`nimlab.openspiel` runs when OpenSpiel is
    installed)."""
    position = check_heaps(tuple(heaps))
    heaps_text = ";".join(map(str, position)) + (";" if len(position) == 1 else "")
    return f"{short_name(variant)}(heaps={heaps_text},misere={misere})"


def parse_heaps(text: str) -> tuple[int, ...]:
    """The heaps of the ``heaps`` parameter.

    >>> parse_heaps("3;3;1"), parse_heaps("5;")
    ((3, 3, 1), (5,))
    """
    try:
        return check_heaps(tuple(int(part) for part in text.removesuffix(";").split(";")))
    except ValueError as error:
        raise InvalidPositionError(
            f"heaps {text!r}: give heights joined by ';', e.g. '3;3;1' (one heap: '5;')"
        ) from error


_REGISTERED: set[str] = set()
_Key = tuple[str, tuple[int, ...], bool]


class _Position(NamedTuple):
    """A loaded game's tree: its rules, the recorded nodes and each node's children."""

    rules: Rules
    tree: GameTree
    children: dict[tuple[int, int], int]


_TREES: dict[_Key, _Position] = {}
"""Every loaded game's tree, by variant, heaps and misère flag."""


def register() -> None:
    """Register every variant's game with ``pyspiel`` (once; needs OpenSpiel)."""
    for variant in VARIANTS:
        if variant not in _REGISTERED:
            _register(variant)
            _REGISTERED.add(variant)


def _register(variant: str) -> None:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    from nimlab.extensive.tree import DEFAULT_MAX_NODES, build_tree
    from nimlab.extensive.variants import variant_rules

    kind = pyspiel.GameType(
        short_name=short_name(variant),
        long_name=f"nimlab {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"heaps": "3;3;1", "misere": False},
    )

    class Game(pyspiel.Game):  # type: ignore[misc,unused-ignore]  # pyspiel is untyped
        """One position of the variant: the unreduced tree, built once."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            given = {"heaps": "3;3;1", "misere": False, **(params or {})}
            heaps = parse_heaps(str(given["heaps"]))
            self.key = (variant, heaps, bool(given["misere"]))
            tree = build_tree(
                variant,
                heaps,
                misere=self.key[2],
                max_nodes=DEFAULT_MAX_NODES,
                record_nodes=True,
                prune_forced=False,
                known_wins=False,
            )
            children = {(node.parent, node.action): i for i, node in enumerate(tree.recorded)}
            _TREES[self.key] = _Position(variant_rules(variant), tree, children)
            depth = [0] * len(tree.recorded)
            for i, node in enumerate(tree.recorded):
                if node.parent >= 0:
                    depth[i] = depth[node.parent] + 1
            info = pyspiel.GameInfo(
                num_distinct_actions=max(len(i.actions) for i in tree.infosets),
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=max(depth),
            )
            super().__init__(kind, info, given)

        def new_initial_state(self) -> State:
            """The root: L to move, nobody has seen anything."""
            return State(self, self.key, 0, ((), ()))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            """The information state strings (the only observation provided)."""
            return Observer()

    class State(pyspiel.State):  # type: ignore[misc,unused-ignore]
        """A node of the tree and both players' histories (their events so far); the tree is
        found by its key, so that OpenSpiel's copies of a state (``copy.deepcopy``) stay small."""

        def __init__(
            self, game: Game, key: _Key, node: int, events: tuple[tuple[str, ...], ...]
        ) -> None:
            super().__init__(game)
            self.key = key
            self.node = node
            self.events = events

        @property
        def game(self) -> _Position:
            return _TREES[self.key]

        def current_player(self) -> int:
            node = self.game.tree.recorded[self.node]
            return int(pyspiel.PlayerId.TERMINAL) if node.infoset < 0 else node.player

        def _actions(self) -> tuple[Any, ...]:
            node = self.game.tree.recorded[self.node]
            return self.game.tree.infosets[node.infoset].actions

        def _legal_actions(self, player: int) -> list[int]:
            return list(range(len(self._actions())))

        def _apply_action(self, action: int) -> None:
            node = self.game.tree.recorded[self.node]
            act = self._actions()[action]
            step = self.game.rules.step(node.state, act, node.player)
            events = list(self.events)
            events[node.player] += (f"{act}" + (f" -> {step.own}" if step.own else ""),)
            if step.done:
                other = 1 - node.player
                events[other] += (f"opponent: {step.opp}" if step.opp else "opponent moved",)
            self.events = tuple(events)
            self.node = self.game.children[self.node, action]

        def _action_to_string(self, player: int, action: int) -> str:
            return str(self._actions()[action])

        def is_terminal(self) -> bool:
            return bool(self.game.tree.recorded[self.node].infoset < 0)

        def returns(self) -> list[float]:
            payoff = float(self.game.tree.recorded[self.node].payoff)
            return [payoff, -payoff]

        def __str__(self) -> str:
            node = self.game.tree.recorded[self.node]
            return f"heaps {node.state}, " + "; ".join(SEPARATOR.join(e) for e in self.events)

    class Observer:
        """Gives a player's own history as a string; no tensor."""

        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: State, player: int) -> None:
            """Nothing to fill: there is no tensor."""

        def string_from(self, state: State, player: int) -> str:
            """``player``'s events so far."""
            return SEPARATOR.join(state.events[player])

    pyspiel.register_game(kind, Game)
