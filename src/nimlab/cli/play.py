"""Command ``play``: play a game against the computer in the terminal.

Catalogue games (Poker Nim and Skip Nim with their allowances), the partizan games red-blue
Hackenbush stalks, Domineering and Hackenbush on a graph (choose Left or Right with
``--side``), Scoring Nim (``scoring``) and the imperfect-information
variants (``sn``, ``fsn``, ``kn``, ``kn-empty``, against the equilibrium strategy) can be played.

Moves are typed as ``heap amount`` (heaps numbered from 1, counters taken) or as the position
after the move in the game's notation (Poker Nim also ``add heap amount``, Skip Nim ``skip``,
Hackenbush stalks ``stalk edge``, graphs ``edge k``, Domineering ``row col``); ``hint``,
``undo`` and ``quit`` do what they say. The computer plays a winning move whenever there is
one (an optimal move in Scoring Nim and the partizan games), else a random one; in the
imperfect-information variants it samples its moves from an exact equilibrium.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable, Hashable
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar

import typer
from rich.table import Table
from rich.text import Text

from nimlab.cli.app import HEAP_ARGS, VARIANT_NAMES, app, console
from nimlab.errors import InvalidPositionError, NimlabError
from nimlab.exact import exact_str, parse_rational

if TYPE_CHECKING:  # the games are imported when a game starts (nimlab --help stays fast)
    from nimlab.catalogue import GameOptions
    from nimlab.play.impartial import PlayState
    from nimlab.play.partisan import PartisanState

__all__ = ["play"]

PLAY_POKER_CAP = 20
"""``nimlab.play.impartial.PLAY_POKER_CAP``, copied for the help text (a test checks they
agree)."""

_ECHO_CHARS = 200

_HELP = (
    "Type 'heap amount' (e.g. '1 2': heap 1, take 2) or the position after your move;"
    " 'hint', 'undo', 'quit'."
)


def _read(prompt: str) -> str | None:
    """One line from standard input (None at end of input)."""
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        console.print()
        return None
    if not sys.stdin.isatty():  # echo piped input so that the transcript reads well
        echo = line.rstrip("\n")
        if len(echo) > _ECHO_CHARS:  # a pasted megabyte would take seconds to lay out
            echo = f"{echo[:_ECHO_CHARS]}... ({len(echo):,} characters)"
        console.print(echo, markup=False, highlight=False)
    return line.strip()


def _show_heaps(heaps: tuple[int, ...], part: str = "heap") -> None:
    for index, size in enumerate(heaps):
        counters = "●" * size if size <= 60 else f"{'●' * 60}…"
        number = index if part == "step" else index + 1  # steps are places, 0 the floor
        console.print(f"  {part} {number:>2} [yellow]{counters}[/] ({size})")


def _show(state: PlayState) -> None:
    from nimlab.play.allowance import AllowanceGame

    heaps = state.position
    game = state.game
    if isinstance(game, AllowanceGame):
        allowances = game.allowances_json(heaps)
        _show_heaps(tuple(getattr(heaps, "heaps", ())))
        cap = "" if allowances["cap"] is None else f"; heaps at most {allowances['cap']}"
        console.print(
            f"  {allowances['kind']} left: you {allowances['mover']},"
            f" the computer {allowances['other']}{cap}"
        )
    elif isinstance(heaps, tuple) and all(isinstance(h, int) for h in heaps):
        _show_heaps(heaps, "step" if game.name == "staircase" else "heap")
    else:
        console.print(f"  position: [bold]{state.text or '(empty)'}[/]")


def _hint(state: PlayState) -> None:
    hint = state.hint()
    analysis = hint["analysis"]
    if hint["misere"]:
        _misere_hint(state, hint)
        return
    console.print(state.game.explain(state.position))
    verdict = "N: you (the player to move) can win" if analysis["outcome"] == "N" else "P: you lose"
    grundy = "" if analysis["grundy"] is None else f"Grundy value {analysis['grundy']}; "
    console.print(Text(grundy + verdict, style="bold"))
    if hint["nim"] is not None:
        console.print(hint["nim"]["text"])
    if hint["options"] is None:
        console.print(f"[dim]{hint['options_note']}[/]")
        return
    table = Table("move", "to", "outcome", "Grundy", box=None, header_style="bold")
    for option in hint["options"]:
        style = "green" if option["outcome"] == "P" else "red"
        grundy_value = "" if option["grundy"] is None else str(option["grundy"])
        table.add_row(
            option["label"], option["to"] or "(empty)", option["outcome"], grundy_value, style=style
        )
    console.print(table)
    console.print("[dim]green: moves to P-positions (they win); red: moves to N-positions[/]")


def _misere_hint(state: PlayState, hint: dict[str, Any]) -> None:
    """A misère hint in the playground's words (:meth:`PlayState.hint`'s explanation: who
    wins, and whether the misère quotient or a search says so; misère Nim by its rule); each
    move marked by whether it wins for you, without Grundy values (they do not add up here)."""
    wins = hint["analysis"]["outcome"] == "N"
    verdict = "You can win." if wins else "You lose if the computer plays perfectly."
    if hint["nim"] is not None:  # misère Nim: the heaps in binary, the rule and its move
        console.print(state.game.explain(state.position))
        console.print(Text(f"{verdict} The answer comes {hint['source']}.", style="bold"))
        console.print(hint["nim"]["text"])
    else:
        console.print(Text(verdict, style="bold"))
        console.print(hint["explanation"], markup=False, highlight=False)
    if hint["options"] is None:
        console.print(f"[dim]{hint['options_note']}[/]")
        return
    table = Table("move", "leaves", "for you", box=None, header_style="bold")
    for option in hint["options"]:
        good = option["outcome"] == "P"  # the computer, to move next, loses
        table.add_row(
            option["label"],
            option["to"] or "(empty)",
            "wins" if good else "loses",
            style="green" if good else "red",
        )
    console.print(table)
    console.print(
        "[dim]green: the move wins (the computer, moving next, loses against perfect play);"
        " red: the computer can then win[/]"
    )


def _finish(state: PlayState, last: str) -> None:
    mover_wins = state.winner_at_end == "mover"
    you_win = (last == "you") != mover_wins
    rule = "the player unable to move wins" if mover_wins else "the player unable to move loses"
    verdict = "[bold green]You win![/]" if you_win else "[bold red]The computer wins.[/]"
    console.print(f"No moves left ({rule}). {verdict}")


def _help(state: PlayState) -> str:
    from nimlab.play.allowance import AllowanceGame

    game = state.game
    if isinstance(game, AllowanceGame):
        extra = "'skip' (pass)" if game.kind == "skips" else "'add heap amount' (e.g. 'add 1 2')"
        return _HELP.replace("take 2)", f"take 2), {extra}")
    return _HELP


class _Playable(Protocol):
    """A state the person can move from by typing (impartial or partisan)."""

    @property
    def text(self) -> str: ...

    def parse_move(self, text: str) -> Self: ...


S = TypeVar("S", bound=_Playable)


def _your_turn(
    state: S, history: list[S], hint: Callable[[S], None], help_text: str
) -> tuple[S, bool] | None:
    """One prompt: ``None`` when you quit, else the state and whether you moved (``hint``,
    ``undo`` and ``help`` leave the turn to you; ``history`` holds the states before your
    moves)."""
    line = _read("your move> ")
    if line is None or line.lower() in ("quit", "q", "exit"):
        console.print("bye")
        return None
    command = line.lower()
    try:
        if command in ("hint", "h", "?"):
            hint(state)
        elif command in ("undo", "u"):
            if history:
                console.print("undone")
                return history.pop(), False
            console.print("nothing to undo")
        elif command in ("help", ""):
            console.print(help_text)
        else:
            after = state.parse_move(line)
            history.append(state)
            console.print(f"you: → {after.text or '(empty)'}")
            return after, True
    except NimlabError as error:
        console.print(f"[red]{error}[/]")
    return state, False


def _play_game(state: PlayState, *, computer_first: bool, rng: random.Random) -> None:
    console.print(f"[bold]{state.game.spec}[/]: {state.game.summary}")
    console.print(f"[dim]{_help(state)}[/]")
    history: list[PlayState] = []  # the states before each of your moves
    to_move = "computer" if computer_first else "you"
    while True:
        if state.over:
            _finish(state, "computer" if to_move == "you" else "you")
            return
        if to_move == "computer":
            reply = state.computer_move(rng)
            console.print(f"computer: {reply.label}  → {reply.state.text or '(empty)'}")
            state, to_move = reply.state, "you"
            continue
        _show(state)
        turn = _your_turn(state, history, _hint, _help(state))
        if turn is None:
            return
        if turn[1]:
            feedback = state.feedback(turn[0])
            console.print(Text(feedback["text"], style=_FEEDBACK_STYLE[feedback["kind"]]))
        state, moved = turn
        if moved:
            to_move = "computer"


#: ``--side``: B or L plays Left (Blue, vertical in Domineering), R plays Right.
_SIDE_LETTERS = {"B": "L", "L": "L", "R": "R"}
#: How the words on a move are coloured, by their kind (kept the win, gave it away, no win).
_FEEDBACK_STYLE = {"kept": "green", "gave-away": "yellow", "lost-already": "dim"}
_EDGE_STYLE = {"B": "blue", "R": "red", "G": "green"}


def _show_partisan(state: PartisanState) -> None:
    """The stalks, the board (rows and columns from 1) or the numbered edges."""
    if state.game.name == "domineering":
        rows = state.text.split("/")
        console.print("     " + " ".join(f"{c:>1}" for c in range(1, len(rows[0]) + 1)))
        for r, row in enumerate(rows, start=1):
            console.print(f"  {r:>2} " + " ".join(row), markup=False, highlight=False)
        return
    if state.game.name == "hackenbush":
        if not state.position:
            console.print("  (no edges left)")
        for k, (u, v, c) in enumerate(state.position, start=1):
            console.print(f"  edge {k:>2}: [{_EDGE_STYLE[c]}]{u}-{v}:{c}[/]")
        return
    if not state.position:
        console.print("  (no edges left)")
    for index, stalk in enumerate(state.position):
        edges = " ".join(
            f"[{'blue' if c == 'B' else 'red'}]{e}:{c}[/]" for e, c in enumerate(stalk, start=1)
        )
        console.print(f"  stalk {index + 1:>2} ground {edges}")


def _partisan_hint(state: PartisanState) -> None:
    from nimlab.play.partisan import value_str

    console.print(state.game.explain(state.position))
    value = state.value
    you = state.words.names[state.side]
    wins = any(o.winning for o in state.options())
    verdict = "you win against any defence" if wins else "you lose against perfect play"
    console.print(
        Text(
            f"value {value_str(value)} (positive favours {state.words.names['L']}): {you} to"
            f" move; {verdict}"
        )
    )
    table = Table("move", "type", "value left", "wins?", box=None, header_style="bold")
    for option in state.options():
        table.add_row(
            option.label,
            option.typed or option.to or "(empty)",
            value_str(option.value),
            "yes" if option.winning else "no",
            style="green" if option.winning else "red",
        )
    console.print(table)


def _partisan_help(state: PartisanState) -> str:
    if state.game.name == "domineering":
        how = (
            "Type 'row col' of your domino's top cell (Left) or left cell (Right), e.g. '1 2',"
            " or the board after your move"
        )
    elif state.game.name == "hackenbush":
        how = "Type 'edge k' (e.g. 'edge 2') or the graph after your move"
    else:
        how = (
            "Type 'stalk edge' (e.g. '1 2': stalk 1, edge 2 from the ground) or the position"
            " after your move"
        )
    return f"{how}; 'hint', 'undo', 'quit'."


def _play_partisan(state: PartisanState, *, you: str, rng: random.Random) -> None:
    """A partizan game: ``state.side`` starts, you play ``you`` (``L`` or ``R``)."""
    from nimlab.play.partisan import leaves_words

    names = state.words.names
    console.print(f"[bold]{state.game.spec}[/]: {state.game.summary}")
    console.print(
        f"You play [bold]{state.words.sides[you]}[/]: {state.words.rule[you]}; whoever cannot"
        " move loses."
    )
    help_text = _partisan_help(state)
    console.print(f"[dim]{help_text}[/]")
    history: list[PartisanState] = []
    while True:
        if state.over:
            loser = "you" if state.side == you else "computer"
            verdict = (
                "[bold red]The computer wins.[/]" if loser == "you" else "[bold green]You win![/]"
            )
            nothing = (
                "no empty pair of cells left"
                if state.words.noun == "placement"
                else ("no edge left to cut")
            )
            console.print(f"{names[state.side]} has {nothing}. {verdict}")
            return
        if state.side != you:
            move, after = state.computer_move(rng)
            console.print(
                f"computer ({names[state.side]}): {move.label}  → {after.text or '(empty)'}",
                markup=False,
                highlight=False,
            )
            console.print(Text(f"It {leaves_words(move.value, state.words)}."))
            state = after
            continue
        _show_partisan(state)
        turn = _your_turn(state, history, _partisan_hint, help_text)
        if turn is None:
            return
        if turn[1]:
            feedback = state.feedback(turn[0])
            console.print(Text(feedback["text"], style=_FEEDBACK_STYLE[feedback["kind"]]))
        state = turn[0]


def _play_scoring(
    heaps: tuple[int, ...], bonus: Fraction, *, computer_first: bool, rng: random.Random
) -> None:
    from nimlab.play.scoring import ScoringMatch

    match = ScoringMatch.start(heaps, bonus)
    you = 1 if computer_first else 0
    names = {you: "you", 1 - you: "computer"}
    history: list[tuple[tuple[int, ...], list[Fraction]]] = []
    console.print(f"[bold]Scoring Nim[/] with bonus N = {exact_str(bonus)}: each counter scores 1,")
    console.print("the last counter also scores N. " + _HELP)

    def take(after: tuple[int, ...] | str) -> None:
        who, before = names[match.to_move], sum(match.heaps)
        options = {o.to: o for o in match.options()} if match.to_move == you else {}
        gained = match.play(after)
        taken = before - sum(match.heaps)
        console.print(f"{who}: takes {taken} → {_fmt(match.heaps)}  (+{exact_str(gained)})")
        if match.heaps in options:
            option = options[match.heaps]
            console.print(Text(option.feedback, style="green" if option.optimal else "yellow"))

    while not match.over:
        if match.to_move != you:
            take(match.computer_move(rng))
            continue
        _show_heaps(match.heaps)
        value = exact_str(match.value)
        console.print(
            f"  you {exact_str(match.scores[you])}, computer {exact_str(match.scores[1 - you])};"
            f" f_N here = {value}"
        )
        line = _read("your move> ")
        if line is None or line.lower() in ("quit", "q", "exit"):
            console.print("bye")
            return
        command = line.lower()
        if command in ("hint", "h", "?"):
            best = "  ".join(map(_fmt, match.optimal()))
            console.print(f"optimal moves (f_N = {value}): {best}")
        elif command in ("undo", "u"):
            if history:
                match.heaps, match.scores = history.pop()
                console.print("undone")
            else:
                console.print("nothing to undo")
        else:
            saved = (match.heaps, list(match.scores))
            try:
                take(line)
            except NimlabError as error:
                console.print(f"[red]{error}[/]")
                continue
            history.append(saved)
    diff = match.scores[you] - match.scores[1 - you]
    verdict = "You win!" if diff > 0 else "The computer wins." if diff < 0 else "A draw."
    console.print(
        f"Game over: you {exact_str(match.scores[you])}, computer"
        f" {exact_str(match.scores[1 - you])}. [bold]{verdict}[/]"
    )


def _play_hidden(
    variant: str,
    text: str,
    *,
    game: str | None,
    options: GameOptions,
    computer_first: bool,
    seed: int | None,
) -> None:
    from nimlab.play.hidden import HiddenMatch

    match = HiddenMatch.start(
        variant,
        text,
        game=game,
        options=options,
        misere=options.misere,
        human_first=not computer_first,
        seed=seed,
    )
    view = match.view()
    console.print(f"[bold]{view['name']}[/] from {view['position']}; you are {view['you']}.")
    unit = "heap" if game is None else "component"
    console.print(
        f"[dim]Type an action as listed ({unit}s numbered from 1): 'look j' inspects {unit} j,"
        " 'try ...' asks the umpire; also 'hint' and 'quit'.[/]"
    )
    shown = 0
    while not match.over:
        view = match.view()
        for event in view["seen"][shown:]:
            console.print(f"  {event}")
        shown = len(view["seen"])
        labels = [a["label"] for a in view["actions"]]
        console.print(f"you know: [bold]{view['knowledge']}[/]   actions: {'  '.join(labels)}")
        line = _read("your action> ")
        if line is None or line.lower() in ("quit", "q", "exit"):
            console.print("bye")
            return
        if line.lower() in ("hint", "h", "?"):
            hint = match.hint()
            played = [
                f"{a['label']} {a['probability']}"
                for a in hint["actions"]
                if a["probability"] != "0"
            ]
            value = hint["game_value_for_you"]
            console.print(f"equilibrium here: {', '.join(played)} (game value for you {value})")
            continue
        if line.lower() in ("undo", "u"):
            console.print("no undo in games of imperfect information")
            continue
        try:
            match.act(line)
        except NimlabError as error:
            console.print(f"[red]{error}[/]")
    view = match.view()
    for event in view["seen"][shown:]:
        console.print(f"  {event}")
    columns = ("#", "who", "true position", "you knew", "computer knew", "action", "saw")
    table = Table(*columns, "after", "told", box=None, header_style="bold")
    for number, row in enumerate(view["history"], start=1):
        table.add_row(
            str(number),
            row["player"],
            _fmt(tuple(row["before"])),
            Text(row["you_knew"]),  # not markup: "[≤2, 1]"
            Text(row["computer_knew"]),
            row["action"],
            row["saw"],
            _fmt(tuple(row["after"])),
            row["told_opponent"],
        )
    console.print("The replay: the true position before each move, and what each player knew:")
    console.print(table)
    verdict = (
        "[bold green]You win![/]" if view["winner"] == "you" else "[bold red]The computer wins.[/]"
    )
    console.print(f"Game over. {verdict} (game value for L: {view['value_for_L']})")


def _play_defaults(name: str, text: str, options: GameOptions) -> GameOptions:
    """Poker Nim: one addition each and a cap of at least the largest heap, unless given;
    Skip Nim: one skip each, unless given."""
    if name == "poker-nim":
        largest = max((int(t) for t in re.findall(r"[0-9]+", text.split(";")[0])), default=0)
        return replace(
            options,
            additions=1 if options.additions is None else options.additions,
            cap=max(PLAY_POKER_CAP, largest) if options.cap is None else options.cap,
        )
    if name == "skip-nim" and options.skips is None:
        return replace(options, skips=(1, 1))
    return options


def _example_call(name: str) -> str:
    """A complete ``nimlab play`` command for ``name``, to show with a usage error.

    >>> _example_call("wythoff"), _example_call("kn")
    ("e.g. 'nimlab play wythoff 3,5'", "e.g. 'nimlab play kn 3,2,1'")
    """
    if name in ("scoring", "scoring-nim"):
        return "e.g. 'nimlab play scoring 5,4,2 --N 3'"
    if name in VARIANT_NAMES:
        return f"e.g. 'nimlab play {name} 3,2,1'"
    from nimlab.catalogue import find_game

    return f"e.g. 'nimlab play {name} {find_game(name).example}'"


def _fmt(heaps: Hashable) -> str:
    return ",".join(map(str, heaps)) if isinstance(heaps, tuple) else str(heaps)


@app.command("play", context_settings=HEAP_ARGS)
def play(
    game: str = typer.Argument(
        ..., help="A catalogue game (nim, wythoff, ...), 'scoring', or sn, fsn, kn, kn-empty."
    ),
    position: list[str] = typer.Argument(
        None, help="The starting position in the game's notation, e.g. 3,4,5.", show_default=False
    ),
    misere: bool = typer.Option(
        False,
        "--misere",
        help="The last player to move loses (nim by its rule, octal games by their misère"
        " quotient, other impartial games by search).",
    ),
    subtraction_set: str | None = typer.Option(None, "--set", help="subtraction: e.g. 1,3,4."),
    max_take: int | None = typer.Option(None, "--max", help="subtraction: take 1..K."),
    code: str | None = typer.Option(None, "--code", help="octal: the code, e.g. 0.07."),
    additions: int | None = typer.Option(
        None, "--additions", help="poker-nim: additions per player (default 1)."
    ),
    cap: int | None = typer.Option(
        None, "--cap", help=f"poker-nim: the largest heap (default max({PLAY_POKER_CAP}, heaps))."
    ),
    skips: str | None = typer.Option(
        None, "--skips", help="skip-nim: A,B skips of the first and second player (default 1,1)."
    ),
    side: str = typer.Option(
        "B",
        "--side",
        help="partizan games (red-blue-hackenbush, hackenbush, domineering): play Left"
        " (B or L: Blue, vertical dominoes) or Right (R: Red, horizontal dominoes).",
    ),
    bonus: str | None = typer.Option(None, "--N", help="scoring: the bonus N (e.g. 3, -1/2)."),
    hidden_game: str | None = typer.Option(
        None,
        "--game",
        help="sn, fsn, kn, kn-empty: play the variant on this catalogue game's components"
        " (e.g. kayles, subtraction with --max 2); default nim.",
    ),
    computer_first: bool = typer.Option(False, "--computer-first", help="Let the computer start."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the computer's random choices."),
) -> None:
    """Play a game against the computer in the terminal (hints, undo)."""
    from nimlab.catalogue import GameOptions, find_game
    from nimlab.catalogue.registry import parse_int_list, parse_skips
    from nimlab.play.impartial import open_state
    from nimlab.play.partisan import PARTISAN_GAMES, open_partisan

    text = ",".join(position or [])
    rng = random.Random(seed)
    name = game.strip().lower()
    if not text.strip():
        raise InvalidPositionError(f"play needs a starting position: {_example_call(name)}")
    if name in ("scoring", "scoring-nim"):
        from nimlab.core.heaps import parse_heaps

        n = parse_rational(bonus) if bonus is not None else Fraction(0)
        _play_scoring(parse_heaps(text), n, computer_first=computer_first, rng=rng)
        return
    if name not in VARIANT_NAMES and find_game(name).name in PARTISAN_GAMES:
        you = _SIDE_LETTERS.get(side.strip().upper()[:1])
        if you is None:
            raise InvalidPositionError(
                f"invalid --side {side!r}: B or L (Blue, Left), R (Red, Right)"
            )
        starter = you if not computer_first else ("R" if you == "L" else "L")
        _play_partisan(open_partisan(name, text, starter), you=you, rng=rng)
        return
    if max_take is not None and max_take < 1:
        raise InvalidPositionError(f"invalid --max {max_take}: it must be at least 1")
    for flag, value in (("--additions", additions), ("--cap", cap)):
        if value is not None and value < 0:
            raise InvalidPositionError(f"invalid {flag} {value}: it must be at least 0")
    options = GameOptions(
        misere=misere,
        subtraction_set=parse_int_list(subtraction_set, "--set", minimum=1)
        if subtraction_set
        else None,
        max_take=max_take,
        code=code,
        additions=additions,
        cap=cap,
        skips=parse_skips(skips) if skips is not None else None,
    )
    if name in VARIANT_NAMES:
        _play_hidden(
            name,
            text,
            game=hidden_game,
            options=options,
            computer_first=computer_first,
            seed=seed,
        )
        return
    if hidden_game is not None:
        raise InvalidPositionError(
            f"--game goes with a hidden-information variant ({', '.join(VARIANT_NAMES)}),"
            f" not {game!r}"
        )
    options = _play_defaults(find_game(name).name, text, options)
    state = open_state(game, text, options)
    _play_game(state, computer_first=computer_first, rng=rng)
