"""Result records of ``nimlab analyze`` and ``nimlab grundy``, computed from the closed forms.

>>> from nimlab.catalogue import make_game
>>> result = analyze(make_game("silver-dollar"), "2,5,7,11")
>>> result.to_json()["winning_moves"]
[{'to': '1,5,7,11', 'move': 'coin at 2 -> 1'}, {'to': '2,5,7,10', 'move': 'coin at 11 -> 10'}]
>>> table = grundy_table(make_game("staircase"), 5)
>>> table.values, table.period, table.preperiod, table.meaning
((0, 1, 0, 1, 0, 1), 2, 0, 'one coin on step n')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

from nimlab.catalogue.base import CatalogueGame, check_limit, output_cost
from nimlab.catalogue.registry import find_game
from nimlab.cgt.game import Game
from nimlab.cgt.notation import text_length
from nimlab.cgt.render import board_svg, graph_svg
from nimlab.cgt.rulesets.hackenbush import parse_graph
from nimlab.core.game import Outcome
from nimlab.display import heap_board_svg, html_table, stalks_svg
from nimlab.errors import TooLargeError, UnknownGameError
from nimlab.exact import exact_str

__all__ = [
    "GameAnalysis",
    "GrundyTable",
    "analyze",
    "canonical_keys",
    "grundy_table",
    "partizan_keys",
]


def canonical_keys(value: Game) -> dict[str, Any]:
    """``{"canonical": nested options}``, or, when the tree would have more than
    :data:`~nimlab.cgt.game.MAX_JSON_NODES` nodes or be nested more than
    :data:`~nimlab.cgt.game.MAX_JSON_DEPTH` deep, ``{"canonical": None, "canonical_nodes": N}``.

    >>> from nimlab.cgt import number
    >>> from fractions import Fraction
    >>> canonical_keys(number(Fraction(2**40 // 3, 2**40)))  # 0.0101...01 in binary
    {'canonical': None, 'canonical_nodes': 638162746}
    """
    if not value.json_writable:
        return {"canonical": None, "canonical_nodes": value.tree_size}
    return {"canonical": value.to_json()}


def partizan_keys(value: Game) -> dict[str, Any]:
    """The keys of a partizan value: ``value`` (CGSuite's notation), ``canonical`` (nested
    options), ``left_stop``, ``right_stop``, ``mean``, ``temperature`` (exact strings) and
    ``birthday``.

    >>> from nimlab.cgt import parse_game
    >>> partizan_keys(parse_game("{2|-1/2}"))["temperature"]
    '5/4'
    """
    return {
        "value": str(value),
        **canonical_keys(value),
        "left_stop": exact_str(value.left_stop),
        "right_stop": exact_str(value.right_stop),
        "mean": exact_str(value.mean),
        "temperature": exact_str(value.temperature),
        "birthday": value.birthday,
    }


@dataclass(frozen=True)
class GameAnalysis:
    """What ``nimlab analyze`` reports: value, outcome and winning moves of one position."""

    game: str
    position: str
    grundy: int | None
    outcome: Outcome
    value: Fraction | Game | None
    winning_moves: tuple[dict[str, Any], ...]
    method: str = "closed-form"

    def to_json(self) -> dict[str, Any]:
        """The contract's keys (``value`` only for partisan games with a value), and ``method``."""
        payload: dict[str, Any] = {
            "game": self.game,
            "position": self.position,
            "grundy": self.grundy,
            "outcome": self.outcome.value,
        }
        if isinstance(self.value, Game):
            payload.update(partizan_keys(self.value))
        elif self.value is not None:
            payload["value"] = exact_str(self.value)
        payload["winning_moves"] = list(self.winning_moves)
        if isinstance(self.value, Game):
            for player, key in (("L", "winning_moves_left"), ("R", "winning_moves_right")):
                payload[key] = [m["to"] for m in self.winning_moves if m.get("player") == player]
        payload["method"] = self.method
        return payload

    def __repr__(self) -> str:
        """The call that computes this analysis, e.g. ``analyze('kayles', '7,4')``."""
        name, _, rest = self.game.partition("(")
        arguments = [repr(name), repr(self.position)]
        for item in filter(None, rest.rstrip(")").split(";")):
            key, sep, value = item.partition("=")
            if not sep:
                arguments.append("misere=True" if key == "misere" else f"code={key!r}")
            else:
                keyword = {"S": "set"}.get(key, key)
                arguments.append(f"{keyword}={int(value) if value.isdigit() else value!r}")
        return f"analyze({', '.join(arguments)})"

    def __str__(self) -> str:
        """A readable summary: the outcome in words, the value, the winning moves.

        >>> from nimlab import analyze
        >>> print(analyze("nim", "3,4,5"))
        nim at 3,4,5: N: the player to move wins; Grundy value 2; winning moves: 1,4,5
        """
        facts = [self._outcome_words()]
        if self.grundy is not None:
            facts.append(f"Grundy value {self.grundy}")
        if isinstance(self.value, Game):
            facts.append(f"value {self.value}")
        elif self.value is not None:
            facts.append(f"value {exact_str(self.value)}")
        moves = ", ".join(str(move.get("to")) or "(empty)" for move in self.winning_moves)
        facts.append(f"winning moves: {moves}" if moves else "no winning move")
        return f"{self.game} at {self.position or '(empty)'}: {'; '.join(facts)}"

    def _repr_html_(self) -> str:
        """The position drawn (heaps as counters, red-blue stalks) or written, the outcome in
        the game's own words, the Grundy value or value, and the winning moves."""
        parts = [f"<div><p><b>{escape(self.game)}</b> <code>{escape(self.position)}</code></p>"]
        board = self._board()
        if board is not None:
            parts.append(board)
        facts = [["outcome", self._outcome_words()]]
        if self.grundy is not None:
            facts.append(["Grundy value", str(self.grundy)])
        if isinstance(self.value, Game):
            facts.extend(
                [k, str(v)]
                for k, v in partizan_keys(self.value).items()
                if not k.startswith("canonical")
            )
        elif self.value is not None:
            facts.append(["value", exact_str(self.value)])
        facts.append(["method", self.method])
        parts.append(html_table([], facts))
        if self.winning_moves:
            rows = [
                [_player_words(m.get("player")), str(m["move"]), str(m["to"])]
                for m in self.winning_moves
            ]
            parts.append("<p>winning moves</p>")
            parts.append(html_table(["player", "move", "to"], rows))
        elif self.value is None:
            parts.append("<p>no winning move: every move loses</p>")
        if isinstance(self.value, Game):
            parts.append(self.value.thermograph.svg())
        parts.append("</div>")
        return "".join(parts)

    def _board(self) -> str | None:
        """Heaps as columns of counters, red-blue stalks, Domineering boards and Hackenbush
        graphs drawn, None for other notations."""
        name = self.game.partition("(")[0]
        if name == "red-blue-hackenbush":
            return stalks_svg(self.position.split(",") if self.position else [])
        if name == "domineering":
            return board_svg(self.position.split("/"))
        if name == "hackenbush":
            return graph_svg(parse_graph(self.position))
        try:
            notation = find_game(name).notation
        except UnknownGameError:  # a record built by hand: write the position
            return None
        digits = self.position.replace(",", "")
        if notation.startswith(("heaps", "two piles")) and (digits.isdigit() or not digits):
            return heap_board_svg([int(h) for h in self.position.split(",")] if digits else [])
        return None

    def _outcome_words(self) -> str:
        """Left/Right and first/second player for games with a value, P/N otherwise."""
        if self.value is not None:
            return {
                Outcome.L: "Left (Blue) wins, whoever starts",
                Outcome.R: "Right (Red) wins, whoever starts",
                Outcome.P: "the second player wins",
                Outcome.N: "the first player wins",
            }[self.outcome]
        if self.outcome is Outcome.P:
            return "P: the player to move loses"
        return "N: the player to move wins"


def _player_words(player: object) -> str:
    """``L``/``R`` of a partisan move in words; empty for impartial games."""
    return {"L": "Left (Blue)", "R": "Right (Red)"}.get(str(player), "")


def analyze(
    game: CatalogueGame[Any], text: str, *, brute_force: bool = False, outcome_only: bool = False
) -> GameAnalysis:
    """Parse ``text`` in the game's notation and analyse it by the closed form.

    With ``brute_force=True`` the game tree is searched instead (bounded by ``game.limit``),
    which is how the closed forms are checked. ``outcome_only=True`` skips the Grundy value
    (reported as None), for games where it is not a closed form (Wythoff's game):

    >>> from nimlab.catalogue import make_game
    >>> analyze(make_game("twins"), "THHTTH", brute_force=True).to_json()["winning_moves"]
    [{'to': 'THHHTT', 'move': 'found by search'}]
    """
    position = game.parse_position(text)
    if brute_force:
        game.check_brute(position)
        winners = sorted(game.brute_winning_moves(position), key=lambda m: (m[0] or "", str(m[1])))
        moves = []
        for player, option in winners:
            move: dict[str, Any] = {"to": game.format_position(option), "move": "found by search"}
            if player is not None:
                move["player"] = player
            moves.append(move)
        return GameAnalysis(
            game=game.spec,
            position=game.format_position(position),
            grundy=game.brute_grundy(position),
            outcome=game.brute_outcome(position),
            value=game.brute_value(position),
            winning_moves=tuple(moves),
            method="brute-force",
        )
    shown = game.format_position(position)
    check_limit(
        f"the analysis of {game.spec} {_abridged(shown)}",
        game.analysis_cost(position, shown),
        game.limit,
    )
    value = game.value(position)
    if isinstance(value, Game):
        # the text of a deep value repeats its shared subgames: sized before it is written
        check_limit(
            f"writing the value of {game.spec} {_abridged(shown)}"
            f" ({text_length(value):,} characters)",
            output_cost(text_length(value)),
            game.limit,
        )
    return GameAnalysis(
        game=game.spec,
        position=shown,
        grundy=None if outcome_only else _grundy(game, position),
        outcome=game.outcome(position),
        value=value,
        winning_moves=tuple(game.move_json(m) for m in game.winning_moves(position)),
        method=_method(game),
    )


def _method(game: CatalogueGame[Any]) -> str:
    """What answered: ``closed-form``, or for misère play of a game without one
    (:class:`~nimlab.catalogue.misere_play.MisereEntry`) ``misere-quotient`` or
    ``brute-force``."""
    from nimlab.catalogue.misere_play import MisereEntry

    return game.method if isinstance(game, MisereEntry) else "closed-form"


def _abridged(text: str) -> str:
    """``text``, cut to about 40 characters for a message.

    >>> _abridged("1," * 30)
    '1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,... (60 characters)'
    """
    return text if len(text) <= 40 else f"{text[:40]}... ({len(text)} characters)"


def _grundy(game: CatalogueGame[Any], position: Any) -> int | None:
    """The Grundy value; None when it is not a closed form (``game.grundy_optional``) and
    over the budget, since the outcome and the winning moves still are."""
    if not game.grundy_optional:
        return game.grundy(position)
    try:
        return game.grundy(position)
    except TooLargeError:
        return None


@dataclass(frozen=True)
class GrundyTable:
    """What ``nimlab grundy`` reports: g(0..N) and the period when it is proven."""

    game: str
    values: tuple[int | None, ...]
    period: int | None
    preperiod: int | None
    meaning: str

    def to_json(self) -> dict[str, Any]:
        """The contract's keys, plus ``meaning`` (which position n stands for)."""
        return {
            "game": self.game,
            "values": list(self.values),
            "period": self.period,
            "preperiod": self.preperiod,
            "meaning": self.meaning,
        }

    def _repr_html_(self) -> str:
        """The values indexed in rows of ten (row ``n``, column ``+k`` holds g(n + k)), with
        the proven period when there is one.

        >>> from nimlab.catalogue import make_game
        >>> page = grundy_table(make_game("kayles"), 12)._repr_html_()
        >>> "<tr><td>10</td><td>2</td><td>6</td><td>4</td></tr>" in page
        True
        """
        shown = ["" if g is None else str(g) for g in self.values]
        rows = [[str(n), *shown[n : n + 10]] for n in range(0, len(shown), 10)]
        table = html_table(["n", *(f"+{k}" for k in range(10))], rows)
        if self.period is None:
            period = "no period proven"
        else:
            period = f"period {self.period} after a preperiod of {self.preperiod}"
        return (
            f"<div><p><b>{escape(self.game)}</b>: g(n) for {escape(self.meaning)}; {period}</p>"
            f"{table}</div>"
        )


def grundy_table(game: CatalogueGame[Any], upto: int) -> GrundyTable:
    """Tabulate the game's sequence (``game.sequence_meaning``) for n = 0..upto."""
    game.sequence_position(0)  # games without a sequence refuse here, with their reason
    check_limit(f"a table of {upto + 1} values", game.sequence_cost(upto), game.limit)
    values = game.grundy_values(upto)
    found = game.periodicity(values)
    return GrundyTable(
        game=game.spec,
        values=tuple(values),
        period=found[0] if found else None,
        preperiod=found[1] if found else None,
        meaning=game.sequence_meaning or "",
    )
