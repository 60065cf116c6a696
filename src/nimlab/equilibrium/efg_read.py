"""Read Gambit ``.efg`` files (version 2) exactly and check them for two-player zero-sum solving.

:func:`parse_efg` reads the whole format into an :class:`EfgTree` (any number of players, any
payoffs); :func:`to_zero_sum` checks that the game is two-player, zero-sum (or constant-sum,
then shifted) with perfect recall and valid chance probabilities, and returns its sequence-form
ingredients, a :class:`ZeroSumEfg`. Every number is a :class:`~fractions.Fraction`.

Matching pennies, with player 2 not seeing player 1's coin:

>>> game = to_zero_sum(parse_efg('''EFG 2 R "Matching pennies" { "Even" "Odd" } ""
... p "" 1 1 "Even's coin" { "H" "T" } 0
... p "" 2 1 "Odd's coin" { "h" "t" } 0
... t "" 1 "Even wins" { 1, -1 }
... t "" 2 "Odd wins" { -1, 1 }
... p "" 2 1 0
... t "" 2
... t "" 1
... '''))
>>> game.nodes, [(i.player, i.name, i.actions) for i in game.infosets]
(7, [(0, "Even's coin", ('H', 'T')), (1, "Odd's coin", ('h', 't'))])
>>> [len(s) for s in game.sequences], game.shift
([3, 3], Fraction(0, 1))
>>> [(t.seq1, t.seq2, str(t.chance), str(t.payoff)) for t in game.terminals]
[(1, 1, '1', '1'), (1, 2, '1', '-1'), (2, 1, '1', '-1'), (2, 2, '1', '1')]

Player 1's sequence-form payoff matrix is ``A[t.seq1, t.seq2] += t.chance * t.payoff``; the
value of the game as written is the value of that matrix game minus ``shift``.
"""

from __future__ import annotations

import os
import re
import stat
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple, NoReturn

from nimlab.errors import InvalidPositionError
from nimlab.exact import MAX_DIGITS, NumberTooLongError, parse_rational

__all__ = [
    "EfgFormatError",
    "EfgInfoset",
    "EfgNode",
    "EfgNotSolvableError",
    "EfgOutcome",
    "EfgSequence",
    "EfgTerminal",
    "EfgTree",
    "ZeroSumEfg",
    "parse_efg",
    "read_efg",
    "to_zero_sum",
]


class EfgFormatError(InvalidPositionError):
    """The text is not a valid ``.efg`` file; the message starts with the line and column."""

    def __init__(self, message: str, *, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column


class EfgNotSolvableError(InvalidPositionError):
    """A valid ``.efg`` game that is not two-player zero-sum with perfect recall."""


# ---------------------------------------------------------------------------------------------
# Tokens

_NUMBER = re.compile(r"[+-]?(?:\d+/\d+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_TOKEN = re.compile(r'\s*(?:([{},])|"([^"\\]*(?:\\.[^"\\]*)*)"|([^\s{},"]+)|(")|$)', re.DOTALL)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


class _Token(NamedTuple):
    kind: str  # "{", "}", ",", "number", "text", "word" or "end"
    text: str
    pos: int  # offset in the text


def _unescape(body: str) -> str:
    r"""``\"`` is a quote and ``\\`` a backslash; any other backslash is kept as written."""
    if "\\" not in body:
        return body
    return _ESCAPE.sub(lambda m: m.group(1) if m.group(1) in '"\\' else m.group(0), body)


def _tokens(text: str) -> list[_Token]:
    out: list[_Token] = []
    number = _NUMBER.fullmatch
    for match in _TOKEN.finditer(text):
        punct, string, word, open_quote = match.groups()
        if punct:
            out.append(_Token(punct, punct, match.start(1)))
        elif string is not None:
            out.append(_Token("text", _unescape(string), match.start(2) - 1))
        elif word:
            out.append(_Token("number" if number(word) else "word", word, match.start(3)))
        elif open_quote:
            out.append(_Token("unclosed", "", match.start(4)))
            break
        else:
            out.append(_Token("end", "", len(text)))
            break
    return out


class _Lines:
    """Line and column (both from 1) of an offset in the text."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, pos: int) -> int:
        return bisect_right(self.starts, pos)

    def column(self, pos: int) -> int:
        return pos - self.starts[self.line(pos) - 1] + 1


def _shown(token: _Token) -> str:
    if token.kind == "end":
        return "the end of the file"
    if token.kind == "text":
        return f"the string {_quote(token.text)}"
    return repr(token.text)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------------------------
# The tree as written


@dataclass(frozen=True)
class EfgOutcome:
    """An outcome: its name and one payoff per player."""

    name: str
    payoffs: tuple[Fraction, ...]


@dataclass(frozen=True)
class EfgNode:
    """One node, in the file's (depth-first, preorder) order.

    ``kind`` is ``"c"`` (chance), ``"p"`` (personal) or ``"t"`` (terminal); ``player`` is 0 for
    chance, 1.. for the players, -1 at a terminal node; ``infoset`` is the information set number
    (0 at a terminal node); ``outcome`` the outcome number (0 = none); ``parent`` the index of the
    parent node (-1 at the root), ``action`` the index of the action that leads here and
    ``line`` the line of the file where the node is written.
    """

    kind: str
    label: str
    player: int
    infoset: int
    outcome: int
    parent: int
    action: int
    line: int


@dataclass(frozen=True)
class EfgTree:
    """A whole ``.efg`` file.

    ``infosets`` maps ``(player, number)`` (player 0 = chance) to ``(name, actions,
    probabilities)``, the probabilities being empty for a personal information set.
    """

    title: str
    comment: str
    players: tuple[str, ...]
    nodes: tuple[EfgNode, ...]
    infosets: dict[tuple[int, int], tuple[str, tuple[str, ...], tuple[Fraction, ...]]]
    outcomes: dict[int, EfgOutcome]

    def history(self, index: int) -> str:
        """The actions from the root to node ``index``, e.g. ``'Red / Raise'`` (``'root'``)."""
        steps: list[str] = []
        while self.nodes[index].parent >= 0:
            node = self.nodes[index]
            parent = self.nodes[node.parent]
            actions = self.infosets[parent.player, parent.infoset][1]
            steps.append(actions[node.action])
            index = node.parent
        return " / ".join(reversed(steps)) if steps else "root"


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.lines = _Lines(text)
        self.at = 0
        self.fractions: dict[str, Fraction] = {}
        self.players: tuple[str, ...] = ()
        self.nodes: list[EfgNode] = []
        self.infosets: dict[tuple[int, int], tuple[str, tuple[str, ...], tuple[Fraction, ...]]] = {}
        self.infoset_lines: dict[tuple[int, int], int] = {}
        self.outcomes: dict[int, EfgOutcome] = {}
        self.outcome_lines: dict[int, int] = {}

    def peek(self) -> _Token:
        return self.tokens[self.at]

    def take(self, kind: str, expected: str) -> _Token:
        token = self.tokens[self.at]
        if token.kind != kind:
            self.fail(f"expected {expected}, found {_shown(token)}", token)
        self.at += 1
        return token

    def fail(self, message: str, token: _Token) -> NoReturn:
        if token.kind == "unclosed":
            message = "the quoted string opened here never ends"
        line, column = self.lines.line(token.pos), self.lines.column(token.pos)
        raise EfgFormatError(message, line=line, column=column)

    def number(self, expected: str) -> Fraction:
        token = self.take("number", expected)
        value = self.fractions.get(token.text)
        if value is None:
            shown = token.text if len(token.text) <= 30 else f"{token.text[:24]}..."
            try:
                value = self.fractions[token.text] = parse_rational(token.text)
            except NumberTooLongError:  # 1e999999999 would take minutes and gigabytes
                self.fail(f"the number {shown} has more than {MAX_DIGITS} digits", token)
            except InvalidPositionError:
                self.fail(f"{shown} divides by zero", token)
            if abs(value) >= _LARGEST:  # the LP runs on floats first
                self.fail(f"the number {shown} is too large: at most 1e300 in size", token)
        return value

    def integer(self, expected: str, low: int, high: int | None = None) -> int:
        token = self.take("number", expected)
        if not token.text.isdigit() or len(token.text) > 18:  # no sign, point, exponent...
            self.fail(f"expected {expected}, found {_shown(token)}", token)
        value = int(token.text)
        if value < low or (high is not None and value > high):
            self.fail(f"expected {expected}, found {_shown(token)}", token)
        return value

    def parse(self) -> EfgTree:
        start = self.peek()
        if self.take("word", "'EFG'").text != "EFG":
            self.fail(f"expected 'EFG' (a Gambit extensive game), found {_shown(start)}", start)
        token = self.peek()
        if self.take("number", "the version 2").text != "2":
            self.fail(f"only EFG version 2 is read, found {_shown(token)}", token)
        token = self.take("word", "the number type R or D")
        if token.text not in ("R", "D"):
            self.fail(f"expected the number type R or D, found {_shown(token)}", token)
        title = self.take("text", "the quoted title").text
        self.take("{", "'{' before the player names")
        names: list[str] = []
        while self.peek().kind == "text":
            names.append(self.take("text", "a player name").text)
        self.take("}", "a quoted player name or '}'")
        self.players = tuple(names)
        comment = self.take("text", "").text if self.peek().kind == "text" else ""
        self.tree()
        self.take("end", "the end of the file (the tree is complete)")
        return EfgTree(
            title, comment, self.players, tuple(self.nodes), self.infosets, self.outcomes
        )

    def tree(self) -> None:
        # Iterative preorder: each stack entry is [parent index, next action, number of actions].
        stack: list[list[int]] = []
        parent, action = -1, 0
        while True:
            node = self.node(parent, action)
            if node.kind != "t":
                actions = len(self.infosets[node.player, node.infoset][1])
                stack.append([len(self.nodes) - 1, 0, actions])
            while stack and stack[-1][1] == stack[-1][2]:
                stack.pop()
            if not stack:
                return
            parent, action = stack[-1][0], stack[-1][1]
            stack[-1][1] += 1

    def node(self, parent: int, action: int) -> EfgNode:
        token = self.peek()
        kind = self.take("word", "a node type c, p or t").text
        if kind not in ("c", "p", "t"):
            self.fail(f"expected a node type c, p or t, found {_shown(token)}", token)
        label = self.take("text", "the quoted node name").text
        player, number = -1, 0
        if kind != "t":
            count = len(self.players)
            player = 0 if kind == "c" else self.integer(f"a player number 1..{count}", 1, count)
            number = self.integer("an information set number", 0)
            self.infoset(kind, player, number)
        outcome = self.outcome()
        line = self.lines.line(token.pos)
        node = EfgNode(kind, label, player, number, outcome, parent, action, line)
        self.nodes.append(node)
        return node

    def infoset(self, kind: str, player: int, number: int) -> None:
        key = (player, number)
        who = "chance" if player == 0 else f"player {player}"
        token = self.peek()
        if token.kind != "text":
            if key not in self.infosets:
                self.fail(
                    f"information set {number} of {who} is used before its actions are given",
                    token,
                )
            return
        name = self.take("text", "").text
        self.take("{", "'{' before the actions")
        actions: list[str] = []
        probabilities: list[Fraction] = []
        while True:
            actions.append(self.take("text", "a quoted action name").text)
            if kind == "c":
                probabilities.append(self.number("the action's probability"))
            if self.peek().kind == "}":
                break
        self.take("}", "'}'")
        written = (name, tuple(actions), tuple(probabilities))
        if key not in self.infosets:
            self.infosets[key] = written
            self.infoset_lines[key] = self.lines.line(token.pos)
        elif self.infosets[key] != written:
            self.fail(
                f"information set {number} of {who} differs from its definition "
                f"at line {self.infoset_lines[key]} (name, actions or probabilities)",
                token,
            )

    def outcome(self) -> int:
        number = self.integer("an outcome number (0 = none)", 0)
        token = self.peek()
        if token.kind != "text":
            if number and number not in self.outcomes:
                self.fail(f"outcome {number} is used before its payoffs are given", token)
            return number
        if number == 0:
            self.fail("outcome 0 means no outcome and takes no name or payoffs", token)
        name = self.take("text", "").text
        self.take("{", "'{' before the payoffs")
        payoffs: list[Fraction] = []
        for player in range(1, len(self.players) + 1):
            payoffs.append(self.number(f"the payoff of player {player}"))
            if self.peek().kind == ",":
                self.at += 1
        self.take("}", f"'}}' after {len(self.players)} payoffs")
        written = EfgOutcome(name, tuple(payoffs))
        if number not in self.outcomes:
            self.outcomes[number] = written
            self.outcome_lines[number] = self.lines.line(token.pos)
        elif self.outcomes[number] != written:
            self.fail(
                f"outcome {number} differs from its definition at line "
                f"{self.outcome_lines[number]} (name or payoffs)",
                token,
            )
        return number


def parse_efg(text: str) -> EfgTree:
    """Read the text of an ``.efg`` file (version 2, number type ``R`` or ``D``).

    Numbers are integers, decimals (``0.25``, ``.5``, ``1e-3``) or ratios ``p/q``, all read
    exactly. An information set's actions (with a chance set's probabilities), and an outcome's
    payoffs, may be omitted after their first appearance; repeated, they must be the same (as
    numbers: ``1/2`` repeats ``0.5``). In quoted strings ``\\"`` is a quote and ``\\\\`` a
    backslash. Unlike Gambit, text after the last node is an error rather than ignored.

    >>> tree = parse_efg('EFG 2 R "a \\\\"b\\\\"" { "X" "Y" "Z" } t "" 1 "o" { 1/3 .5 -2e1 }')
    >>> tree.title, tree.players, tree.outcomes[1].payoffs
    ('a "b"', ('X', 'Y', 'Z'), (Fraction(1, 3), Fraction(1, 2), Fraction(-20, 1)))
    >>> try:
    ...     parse_efg('EFG 2 R "" { "X" } p "" 1 1 "" { "a" } 0 q')
    ... except EfgFormatError as error:
    ...     print(error)
    line 1, column 42: expected a node type c, p or t, found 'q'
    """
    return _Parser(text).parse()


# ---------------------------------------------------------------------------------------------
# Two-player zero-sum sequence-form ingredients


class EfgInfoset(NamedTuple):
    """A player's information set.

    ``player`` is 0 for Gambit's player 1 and 1 for player 2. Its sequences are
    ``first_sequence + a`` for action ``a``; ``parent_sequence`` is the player's sequence that
    leads to it (0 = the empty sequence), always smaller than ``first_sequence``.
    """

    player: int
    number: int
    name: str
    actions: tuple[str, ...]
    parent_sequence: int
    first_sequence: int


class EfgSequence(NamedTuple):
    """Action ``action`` of ``infosets[infoset]``; ``(-1, -1)`` is the empty sequence."""

    infoset: int
    action: int


class EfgTerminal(NamedTuple):
    """A terminal node: both players' sequences, the chance probability and player 1's payoff."""

    seq1: int
    seq2: int
    chance: Fraction
    payoff: Fraction


@dataclass(frozen=True)
class ZeroSumEfg:
    """A two-player zero-sum game with perfect recall in sequence-form ingredients.

    ``infosets`` are in order of first appearance in the file; ``sequences[p][s]`` says which
    action sequence ``s`` of player ``p`` is; ``terminals`` are in file order, with player 1's
    payoff already shifted by ``shift`` (added to every payoff of player 1 so that the payoffs
    of each terminal node sum to 0; 0 for a zero-sum game). ``nodes`` counts every node.
    """

    title: str
    comment: str
    players: tuple[str, str]
    shift: Fraction
    infosets: tuple[EfgInfoset, ...]
    sequences: tuple[tuple[EfgSequence, ...], tuple[EfgSequence, ...]]
    terminals: tuple[EfgTerminal, ...]
    nodes: int


def _describe(tree: EfgTree, index: int) -> str:
    node = tree.nodes[index]
    label = f" {_quote(node.label)}" if node.label else ""
    return f"the node{label} at line {node.line} (history: {tree.history(index)})"


def _own(
    infosets: list[EfgInfoset], sequences: list[EfgSequence], sequence: int, player: int
) -> str:
    steps: list[str] = []
    while sequence:
        info = infosets[sequences[sequence].infoset]
        action = _quote(info.actions[sequences[sequence].action])
        steps.append(f"{action} at information set {info.number}")
        sequence = info.parent_sequence
    if not steps:
        return f"player {player + 1} has not moved"
    return f"player {player + 1} played " + ", then ".join(reversed(steps))


def to_zero_sum(tree: EfgTree) -> ZeroSumEfg:
    """Check ``tree`` and return its sequence-form ingredients.

    Refuses (:class:`EfgNotSolvableError`) a game that does not have exactly two players, whose
    chance probabilities are negative or do not sum to 1, that lacks perfect recall (naming the
    information set and two of its nodes reached by different own moves), or whose payoffs do
    not sum to one constant at every terminal node. Payoffs of outcomes at non-terminal nodes
    are added to those of every terminal node below (Gambit's semantics).
    """
    if len(tree.players) != 2:
        names = ", ".join(_quote(name) for name in tree.players)
        raise EfgNotSolvableError(
            f"the game has {len(tree.players)} players ({names}); only two-player games can be "
            "solved"
        )
    for (player, number), (name, _, probabilities) in tree.infosets.items():
        if player == 0 and (min(probabilities) < 0 or sum(probabilities) != 1):
            shown = " ".join(str(p) for p in probabilities)
            raise EfgNotSolvableError(
                f"chance information set {number} {_quote(name)}: the probabilities {shown} "
                f"must be non-negative and sum to 1 (they sum to {sum(probabilities)})"
            )
    infosets: list[EfgInfoset] = []
    index_of: dict[tuple[int, int], int] = {}
    first_node: dict[tuple[int, int], int] = {}
    sequences: tuple[list[EfgSequence], list[EfgSequence]] = (
        [EfgSequence(-1, -1)],
        [EfgSequence(-1, -1)],
    )
    # per node: (sequence of player 1, sequence of player 2, chance probability, payoffs)
    state: list[tuple[int, int, Fraction, Fraction, Fraction]] = []
    terminals: list[tuple[int, int, Fraction, Fraction, Fraction, int]] = []
    for index, node in enumerate(tree.nodes):
        if node.parent < 0:
            seq = [0, 0]
            chance, u1, u2 = Fraction(1), Fraction(0), Fraction(0)
        else:
            parent = tree.nodes[node.parent]
            s1, s2, chance, u1, u2 = state[node.parent]
            seq = [s1, s2]
            if parent.player == 0:
                chance *= tree.infosets[0, parent.infoset][2][node.action]
            else:
                mover = parent.player - 1
                seq[mover] = infosets[index_of[parent.player, parent.infoset]].first_sequence
                seq[mover] += node.action
        if node.outcome:
            u1 += tree.outcomes[node.outcome].payoffs[0]
            u2 += tree.outcomes[node.outcome].payoffs[1]
        state.append((seq[0], seq[1], chance, u1, u2))
        if node.kind == "t":
            terminals.append((seq[0], seq[1], chance, u1, u2, index))
            continue
        key = (node.player, node.infoset)
        if node.player == 0:
            continue
        mover = node.player - 1
        if key not in index_of:
            name, actions, _ = tree.infosets[key]
            index_of[key] = len(infosets)
            first_node[key] = index
            first = len(sequences[mover])
            infosets.append(EfgInfoset(mover, node.infoset, name, actions, seq[mover], first))
            sequences[mover].extend(EfgSequence(index_of[key], a) for a in range(len(actions)))
        info = infosets[index_of[key]]
        if seq[mover] != info.parent_sequence:
            other = first_node[key]
            raise EfgNotSolvableError(
                f"no perfect recall: information set {node.infoset} {_quote(info.name)} of "
                f"player {node.player} ({_quote(tree.players[mover])}) holds "
                f"{_describe(tree, other)}, where "
                f"{_own(infosets, sequences[mover], info.parent_sequence, mover)}, and "
                f"{_describe(tree, index)}, where "
                f"{_own(infosets, sequences[mover], seq[mover], mover)}"
            )
    total = terminals[0][3] + terminals[0][4]
    for *_, u1, u2, index in terminals:
        if u1 + u2 != total:
            first = terminals[0][5]
            raise EfgNotSolvableError(
                f"the game is not zero-sum (nor constant-sum): the payoffs sum to {total} at "
                f"{_describe(tree, first)} but to {u1 + u2} at {_describe(tree, index)}"
            )
    return ZeroSumEfg(
        title=tree.title,
        comment=tree.comment,
        players=(tree.players[0], tree.players[1]),
        shift=-total,
        infosets=tuple(infosets),
        sequences=(tuple(sequences[0]), tuple(sequences[1])),
        terminals=tuple(EfgTerminal(s1, s2, c, u1 - total) for s1, s2, c, u1, _, _ in terminals),
        nodes=len(tree.nodes),
    )


def read_efg(path: Path, *, max_bytes: int | None = None) -> ZeroSumEfg:
    """Read and check the ``.efg`` file at ``path`` (UTF-8, else Latin-1) for zero-sum solving;
    only a regular file of at most ``max_bytes`` bytes is read, and only if it starts as a
    ``.efg`` file does (a device like ``/dev/zero`` or a huge file is refused before it is read
    whole)."""
    data = _read_bounded(path, max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return to_zero_sum(parse_efg(text))


_LARGEST = Fraction(10**300)


def _read_bounded(path: Path, max_bytes: int | None) -> bytes:
    """The bytes of the regular file ``path``, refused when over ``max_bytes`` or when its
    first bytes are not ``EFG``."""
    with path.open("rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise InvalidPositionError(f"{str(path)!r} is not a regular file: give a .efg file")
        head = handle.read(64)
        if not head.lstrip().startswith(b"EFG"):
            raise InvalidPositionError(
                f"{str(path)!r} is not a Gambit .efg file (it does not start with 'EFG')"
            )
        rest = handle.read(-1 if max_bytes is None else max(0, max_bytes - len(head)) + 1)
    data = head + rest
    if max_bytes is not None and len(data) > max_bytes:
        raise InvalidPositionError(f"{str(path)!r} is longer than {max_bytes:,} bytes")
    return data
