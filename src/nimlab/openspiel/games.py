"""nimlab's hidden-information games as OpenSpiel games, for OpenSpiel's own algorithms.

:func:`register` registers one Python game per variant with ``pyspiel``: ``nimlab_sn``,
``nimlab_fsn``, ``nimlab_kn`` and ``nimlab_kn_empty``, each with the parameters ``heaps``
(the position, its components joined by ``;`` as in OpenSpiel's own ``nim``, e.g.
``"3;3;1"``; one component is written ``"5;"``, since OpenSpiel reads a bare number as an
integer), ``misere``, and for a catalogue game ``game`` with its options ``max`` (an integer),
``set`` (joined by ``;``) and ``code`` (an octal code with ``_`` for its point, ``0_137``:
OpenSpiel would read ``0.137`` as a number). :func:`game_string` writes the string that
``pyspiel.load_game`` accepts:

>>> game_string("sn", (3, 3, 1))
'nimlab_sn(heaps=3;3;1,misere=False)'
>>> game_string("kn-empty", (5,), misere=True)
'nimlab_kn_empty(heaps=5;,misere=True)'
>>> from nimlab.catalogue.base import GameOptions
>>> game_string("kn", "4,2", game="subtraction", options=GameOptions(max_take=2))
'nimlab_kn(heaps=4;2,misere=False,game=subtraction,max=2)'
>>> game_string("sn", "3", game="octal", options=GameOptions(code="0.137"))
'nimlab_sn(heaps=3;,misere=False,game=octal,code=0_137)'

The game is nimlab's unreduced tree (:func:`~nimlab.hidden.tree.build_tree` with
``prune_forced=False`` and ``known_wins=False``, the rules of
:func:`~nimlab.hidden.games.hidden_game`), built once per loaded game and walked with a
:class:`~nimlab.equilibrium.cursor.Cursor`: player 0 is L (who
moves first), a player's actions are those of the tree's information set (action ``a`` is the
``a``-th, named as nimlab names it), and a player's information state string is that player's
own history in the tree, its events joined by ``" | "`` (``look 1 -> 2 | 1_2 | opponent: heap
2``). The payoff is 1 to whoever makes the last move (misère: to the other player).
"""

from __future__ import annotations

from typing import Any

from nimlab.catalogue.base import GameOptions
from nimlab.catalogue.registry import parse_int_list
from nimlab.core.heaps import check_heaps
from nimlab.equilibrium.cursor import Cursor
from nimlab.errors import InvalidPositionError
from nimlab.hidden.games import HiddenGame, hidden_game
from nimlab.hidden.variants import VARIANTS

__all__ = ["game_string", "register", "short_name"]

SEPARATOR = " | "
"""Between the events of an information state string."""

_DEFAULTS: dict[str, Any] = {
    "heaps": "3;3;1",
    "misere": False,
    "game": "nim",
    "max": 0,
    "set": "",
    "code": "",
}
"""The parameters of every registered game and their defaults (``max`` 0: none)."""


def short_name(variant: str) -> str:
    """OpenSpiel's name of ``variant``'s game.

    >>> short_name("kn-empty")
    'nimlab_kn_empty'
    """
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise InvalidPositionError(f"unknown variant {variant!r}: known variants are {known}")
    return "nimlab_" + variant.replace("-", "_")


def game_string(
    variant: str,
    heaps: tuple[int, ...] | list[int] | str,
    misere: bool = False,
    *,
    game: str | None = None,
    options: GameOptions | None = None,
) -> str:
    """The ``pyspiel.load_game`` string of ``variant`` from ``heaps`` (Nim heights, or with
    ``game`` a position in that catalogue game's notation), registered by :func:`register`,
    which importing :mod:`nimlab.openspiel` runs when OpenSpiel is installed."""
    hidden = hidden_game(variant, game or "nim", options)
    states = hidden.parse(heaps if isinstance(heaps, str) else list(check_heaps(tuple(heaps))))
    parts = [hidden.component.format(state) for state in states]
    text = ";".join(parts) + (";" if len(parts) == 1 else "")
    params = [f"heaps={text}", f"misere={misere}"]
    if game is not None:
        given = options or GameOptions()
        params.append(f"game={game}")
        if given.max_take is not None:
            params.append(f"max={given.max_take}")
        if given.subtraction_set is not None:
            params.append("set=" + ";".join(map(str, given.subtraction_set)) + ";")
        if given.code is not None:
            params.append("code=" + given.code.replace(".", "_"))
    return f"{short_name(variant)}({','.join(params)})"


def _hidden(params: dict[str, Any]) -> tuple[HiddenGame, tuple[Any, ...], bool]:
    """The game, position and play convention that a loaded game's parameters name."""
    game = str(params.get("game") or "nim")
    text = str(params["heaps"]).removesuffix(";").replace(";", ",")
    given = GameOptions(
        max_take=int(params["max"]) or None if "max" in params else None,
        subtraction_set=parse_int_list(
            str(params["set"]).removesuffix(";").replace(";", ","), "set"
        )
        if params.get("set")
        else None,
        code=str(params["code"]).replace("_", ".") if params.get("code") else None,
    )
    hidden = hidden_game(params["variant"], game, given)
    return hidden, hidden.parse(text), bool(params["misere"])


_REGISTERED: set[str] = set()


_TREES: dict[str, Cursor] = {}
"""Every loaded game's tree (at its root), by its spec (``kn[kayles](3,2)``)."""


def register() -> None:
    """Register every variant's game with ``pyspiel`` (once; needs OpenSpiel)."""
    for variant in VARIANTS:
        if variant not in _REGISTERED:
            _register(variant)
            _REGISTERED.add(variant)


def _register(variant: str) -> None:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found,unused-ignore]

    from nimlab.hidden.tree import DEFAULT_MAX_NODES, build_tree

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
        parameter_specification={**_DEFAULTS},
    )

    class Game(pyspiel.Game):  # type: ignore[misc,unused-ignore]  # pyspiel is untyped
        """One position of the variant: the unreduced tree, built once."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            given = {**_DEFAULTS, **(params or {})}
            hidden, states, misere = _hidden({**given, "variant": variant})
            self.key = hidden.spec(states, misere)
            tree = build_tree(
                hidden.rules,
                states,
                misere=misere,
                max_nodes=DEFAULT_MAX_NODES,
                record_nodes=True,
                prune_forced=False,
                known_wins=False,
            )
            _TREES[self.key] = Cursor.root(tree)
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
            return State(self, self.key, 0)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            """The information state strings (the only observation provided)."""
            return Observer()

    class State(pyspiel.State):  # type: ignore[misc,unused-ignore]
        """A node of the tree, found by the game's key and the node's number, so that
        OpenSpiel's copies of a state (``copy.deepcopy``) stay small."""

        def __init__(self, game: Game, key: str, node: int) -> None:
            super().__init__(game)
            self.key = key
            self.node = node

        @property
        def cursor(self) -> Cursor:
            root = _TREES[self.key]
            return Cursor(root.tree, self.node, root.children, root.peers)

        def current_player(self) -> int:
            at = self.cursor
            return int(pyspiel.PlayerId.TERMINAL) if at.terminal else at.player

        def _legal_actions(self, player: int) -> list[int]:
            return list(range(len(self.cursor.actions)))

        def _apply_action(self, action: int) -> None:
            self.node = self.cursor.child(action).node

        def _action_to_string(self, player: int, action: int) -> str:
            return str(self.cursor.actions[action])

        def is_terminal(self) -> bool:
            return self.cursor.terminal

        def returns(self) -> list[float]:
            payoff = float(self.cursor.payoff)
            return [payoff, -payoff]

        def __str__(self) -> str:
            at = self.cursor
            events = "; ".join(SEPARATOR.join(at.events(p)) for p in (0, 1))
            return f"state {at.state}, {events}"

    class Observer:
        """Gives a player's own history as a string; no tensor."""

        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: State, player: int) -> None:
            """Nothing to fill: there is no tensor."""

        def string_from(self, state: State, player: int) -> str:
            """``player``'s events so far."""
            return SEPARATOR.join(state.cursor.events(player))

    pyspiel.register_game(kind, Game)
