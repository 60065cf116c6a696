"""The JSON API under ``/api/``: analysis (same keys as the CLI's ``--json``) and play.

Handlers are plain ``def`` functions (FastAPI runs them in its thread pool); they parse, call
the library and return its result records' JSON. Errors are raised as nimlab exceptions and
turned into 4xx responses by :mod:`nimlab.web.app`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, HTTPException

from nimlab.catalogue import analyze, make_game, registered_games
from nimlab.errors import InvalidPositionError, NimlabError, NoSuchPositionError, TooLargeError
from nimlab.exact import exact_str, parse_rational
from nimlab.web.allowance import ALLOWANCE_GAMES
from nimlab.web.engine import (
    DEFAULT_OPTIONS,
    PLAY_LIMIT,
    PlayState,
    check_play_text,
    grundy_table_json,
    open_state,
)
from nimlab.web.hidden import VARIANT_NAMES, HiddenMatch, MatchStore
from nimlab.web.models import (
    AnalyzeRequest,
    ComputerRequest,
    GameRequest,
    GrundyRequest,
    HiddenActRequest,
    HiddenStartRequest,
    MoveRequest,
    PartisanComputerRequest,
    PartisanMoveRequest,
    PartisanRequest,
    ScoringRequest,
    SolveRequest,
    position_text,
)
from nimlab.web.partisan import PARTISAN_GAMES, open_partisan

__all__ = [
    "ANALYSIS_LIMIT",
    "GUARD_SECONDS",
    "MAX_GRUNDY_UPTO",
    "SCORING_MAX_CELLS",
    "SOLVE_MAX_NODES",
    "router",
]

#: Bound on non-closed-form work of one analysis request (the catalogue's ``--limit``).
ANALYSIS_LIMIT = 200_000
#: Time allowed to a Grundy table (computed in a child process, killed beyond it).
GUARD_SECONDS = 5.0
#: Largest ``upto`` of ``/api/grundy``.
MAX_GRUNDY_UPTO = 10_000
#: Scoring Nim work bound (reachable positions x values of N), well below the CLI's default.
SCORING_MAX_CELLS = 2_000_000

#: Largest game tree ``/api/solve`` builds (nodes), well below the CLI's default.
SOLVE_MAX_NODES = 500_000

router = APIRouter(prefix="/api")
_matches = MatchStore()


@router.get("/health")
def health() -> dict[str, bool]:
    """``{"ok": true}`` while the server runs."""
    return {"ok": True}


def _defaults(name: str) -> dict[str, str]:
    """The options a game is played with by default, in the request's notation."""
    options = DEFAULT_OPTIONS.get(name)
    if options is None:
        return {}
    given: dict[str, str] = {}
    if options.subtraction_set is not None:
        given["set"] = ",".join(map(str, options.subtraction_set))
    if options.code is not None:
        given["code"] = options.code
    if options.additions is not None:
        given["additions"] = str(options.additions)
    if options.cap is not None:
        given["cap"] = str(options.cap)
    if options.skips is not None:
        given["skips"] = ",".join(map(str, options.skips))
    return given


@router.get("/games")
def games() -> dict[str, Any]:
    """The catalogue: name, rules, notation, example, options, and whether it can be played."""
    rows = [
        {
            "name": cls.name,
            "summary": cls.summary,
            "notation": cls.notation,
            "example": cls.example,
            "options": sorted(flag.removeprefix("--") for flag in cls.option_flags),
            "impartial": cls.impartial,
            "playable": cls.impartial or cls.name in PARTISAN_GAMES | ALLOWANCE_GAMES,
            "partisan": cls.name in PARTISAN_GAMES,
            "grundy_sequence": cls.sequence_meaning,
            "defaults": _defaults(cls.name),
        }
        for cls in registered_games()
    ]
    return {"games": rows}


@router.post("/analyze")
def analyze_position(request: AnalyzeRequest) -> dict[str, Any]:
    """The keys of ``nimlab analyze GAME POSITION --json``."""
    text = position_text(request.position)
    game = make_game(request.game, request.options.to_game_options(limit=ANALYSIS_LIMIT))
    return analyze(game, text).to_json()


@router.post("/grundy")
def grundy(request: GrundyRequest) -> dict[str, Any]:
    """The keys of ``nimlab grundy GAME --upto N --json`` (``upto`` at most 10000)."""
    if request.upto > MAX_GRUNDY_UPTO:
        raise TooLargeError(
            f"upto {request.upto} is over the playground's limit {MAX_GRUNDY_UPTO}"
            " (use 'nimlab grundy' for longer tables)",
            estimate=request.upto,
            limit=MAX_GRUNDY_UPTO,
        )
    from nimlab.web.guard import run_guarded

    options = request.options.to_game_options(limit=ANALYSIS_LIMIT)
    make_game(request.game, options)  # bad names and options are refused here, at once
    what = f"the Grundy table of {request.game} up to {request.upto}"
    return run_guarded(
        grundy_table_json, request.game, options, request.upto, seconds=GUARD_SECONDS, what=what
    )


def _from_store(task: Any) -> dict[str, Any] | None:
    """The stored result of a sweep task (this nimlab version), marked ``from_store``; None
    when there is no store (``$NIMLAB_STORE`` or the default path) or no such result."""
    import sqlite3

    from nimlab.store import ResultStore, current_version, resolve_store_path

    try:
        with ResultStore(resolve_store_path(None), create=False) as store:
            hit = store.get(task.spec, task.method, current_version())
    except (NimlabError, sqlite3.Error):
        return None
    return None if hit is None else {**hit.payload, "from_store": True}


def _bonus(value: str | int | None) -> Fraction | None:
    if value is None:
        return None
    return Fraction(value) if isinstance(value, int) else parse_rational(value)


def _scoring_heaps(position: str | list[int]) -> tuple[int, ...]:
    from nimlab.core.heaps import parse_heaps

    return parse_heaps(position_text(position), allow_empty=True)


@router.post("/scoring")
def scoring(request: ScoringRequest) -> dict[str, Any]:
    """The keys of ``nimlab scoring H... [--N X] --json``."""
    from nimlab.scoring.analysis import analyze_scoring

    heaps = _scoring_heaps(request.position)
    try:
        result = analyze_scoring(heaps, _bonus(request.N), max_cells=SCORING_MAX_CELLS)
    except TooLargeError:
        from nimlab.sweeps.tasks import scoring_task

        stored = (
            None if request.N is not None or not any(heaps) else _from_store(scoring_task(heaps))
        )
        if stored is None:
            raise
        from nimlab.store.scoring import in_input_order

        return in_input_order(stored, heaps)
    return result.to_json()


@router.post("/scoring/play")
def scoring_play(request: ScoringRequest) -> dict[str, Any]:
    """Scoring Nim at one bonus N: f_N, and every move with its gain and whether it is optimal.

    The gain of a move is what the mover scores minus what the opponent nets from then on:
    ``taken (+ N if it empties the table) - f_N(after)``; optimal moves gain exactly f_N.
    """
    from nimlab.scoring.payoff import solve_payoffs
    from nimlab.scoring.play import moves

    bonus = _bonus(request.N)
    if bonus is None:
        raise InvalidPositionError("Scoring Nim play needs the bonus N")
    heaps = _scoring_heaps(request.position)
    check_play_text(",".join(map(str, heaps)))
    solution = solve_payoffs(heaps, max_cells=SCORING_MAX_CELLS)
    value = solution.function(heaps)(bonus)
    options = []
    for taken, after in moves(heaps):
        gain = taken - solution.function(after)(bonus)
        options.append(
            {
                "to": list(after),
                "taken": taken,
                "bonus": not any(after),
                "gain": exact_str(gain),
                "optimal": gain == value,
            }
        )
    return {
        "position": list(heaps),
        "N": exact_str(bonus),
        "f_N": exact_str(value),
        "options": options,
        "over": not any(heaps),
    }


def _state(request: GameRequest) -> PlayState:
    return open_state(
        request.game,
        position_text(request.position),
        request.options.to_game_options(limit=PLAY_LIMIT),
    )


@router.post("/play/state")
def play_state(request: GameRequest) -> dict[str, Any]:
    """The position to play: its legal moves (None when too many to list), whether play is over."""
    return _state(request).to_json()


@router.post("/play/move")
def play_move(request: MoveRequest) -> dict[str, Any]:
    """Check a typed move (``heap amount`` or the position after it) and return the new state."""
    state = _state(request)
    after = state.parse_move(request.move)
    return {"move": {"to": after.text, "by": "you"}, "state": after.to_json()}


@router.post("/play/computer")
def play_computer(request: ComputerRequest) -> dict[str, Any]:
    """The computer's reply: a winning move if there is one, else a random legal move."""
    state = _state(request)
    rng = random.Random(request.seed) if request.seed is not None else random.Random()
    move = state.computer_move(rng)
    return {
        "move": {"to": move.state.text, "label": move.label, "winning": move.winning},
        "state": move.state.to_json(),
    }


@router.post("/play/hint")
def play_hint(request: GameRequest) -> dict[str, Any]:
    """Every option coloured P/N with its Grundy value, and the explanation of the winning move."""
    return _state(request).hint()


@router.post("/partisan/state")
def partisan_state(request: PartisanRequest) -> dict[str, Any]:
    """Red-blue Hackenbush: the moves of the player to move (``B`` or ``R``), end of play."""
    return open_partisan(request.game, request.position, request.player).to_json()


@router.post("/partisan/move")
def partisan_move(request: PartisanMoveRequest) -> dict[str, Any]:
    """Check the player's move (``stalk edge`` or the position after it); the new state."""
    after = open_partisan(request.game, request.position, request.player).parse_move(request.move)
    return {"move": {"to": after.text, "by": "you"}, "state": after.to_json()}


@router.post("/partisan/computer")
def partisan_computer(request: PartisanComputerRequest) -> dict[str, Any]:
    """The computer's move for ``player``: optimal by the exact value."""
    state = open_partisan(request.game, request.position, request.player)
    rng = random.Random(request.seed) if request.seed is not None else random.Random()
    move, after = state.computer_move(rng)
    value = exact_str(move.value)
    return {
        "move": {"to": move.to, "label": move.label, "value": value, "winning": move.winning},
        "state": after.to_json(),
    }


@router.post("/partisan/hint")
def partisan_hint(request: PartisanRequest) -> dict[str, Any]:
    """The exact value, every move with the value it leaves (winning or not), the explanation."""
    return open_partisan(request.game, request.position, request.player).to_json(evaluate=True)


def _variant_heaps(variant: str, position: str | list[int]) -> tuple[int, ...]:
    from nimlab.core.heaps import parse_heaps

    if variant not in VARIANT_NAMES:
        known = ", ".join(VARIANT_NAMES)
        raise InvalidPositionError(f"unknown variant {variant!r}: known variants are {known}")
    return parse_heaps(position_text(position))


@lru_cache(maxsize=64)
def _solve_json(
    variant: str, heaps: tuple[int, ...], misere: bool, strategy: bool
) -> dict[str, Any]:
    from nimlab.extensive.solve import solve

    try:
        # The whole LP, whose size guard refuses a large game before any work; restricted
        # games (the CLI's choice for large games) would run rounds until a tree is too big.
        result = solve(
            variant,
            heaps,
            misere=misere,
            strategies=strategy,
            max_nodes=SOLVE_MAX_NODES,
            method="lp",
        )
    except TooLargeError as error:
        from nimlab.sweeps.tasks import solve_task

        stored = None if strategy else _from_store(solve_task(variant, heaps, misere=misere))
        if stored is not None:
            return stored
        raise TooLargeError(
            f"{error} (the playground stops at {SOLVE_MAX_NODES:,} nodes; larger games"
            " with 'nimlab solve' or from the store)",
            estimate=error.estimate,
            limit=SOLVE_MAX_NODES,
        ) from error
    return result.to_json()


@router.post("/solve")
def solve_variant(request: SolveRequest) -> dict[str, Any]:
    """The keys of ``nimlab solve VARIANT H... [--misere] [--strategy] --json``."""
    heaps = _variant_heaps(request.variant, request.position)
    return dict(_solve_json(request.variant, heaps, request.misere, request.strategy))


def _use(token: str, job: Callable[[HiddenMatch], Any]) -> Any:
    if len(token) > 64:
        raise HTTPException(404, detail="no such game")
    try:
        return _matches.use(token, job)
    except NoSuchPositionError as error:
        raise HTTPException(404, detail=str(error)) from error


@router.post("/hidden/new")
def hidden_new(request: HiddenStartRequest) -> dict[str, Any]:
    """Start Schrödinger / Fuzzy Schrödinger / Kriegspiel Nim against the equilibrium."""
    heaps = _variant_heaps(request.variant, request.position)
    match = HiddenMatch.start(
        request.variant,
        heaps,
        misere=request.misere,
        human_first=request.first == "you",
        seed=request.seed,
    )
    token = _matches.add(match)
    return {"id": token, **match.view()}


@router.get("/hidden/{token}")
def hidden_view(token: str) -> dict[str, Any]:
    """What the player may see of a game in progress (everything once it is over)."""
    view: dict[str, Any] = _use(token, lambda match: match.view())
    return {"id": token, **view}


@router.post("/hidden/{token}/act")
def hidden_act(token: str, request: HiddenActRequest) -> dict[str, Any]:
    """Play an action (index or label); the computer answers from its equilibrium strategy."""

    def job(match: HiddenMatch) -> dict[str, Any]:
        match.act(request.action)
        return match.view()

    view: dict[str, Any] = _use(token, job)
    return {"id": token, **view}


@router.get("/hidden/{token}/hint")
def hidden_hint(token: str) -> dict[str, Any]:
    """The equilibrium's probabilities of the player's own actions here."""
    hint: dict[str, Any] = _use(token, lambda match: match.hint())
    return hint
