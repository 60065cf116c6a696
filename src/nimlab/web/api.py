"""The JSON API under ``/api/``: analysis (same keys as the CLI's ``--json``) and play.

Every request that computes (analysis, Grundy tables, Scoring Nim, equilibria, play and its
hints) runs its job -- parsing included -- in a child process of the application's
:class:`~nimlab.web.guard.JobPool`, under the server's time and memory budgets; the handlers
themselves are ``async`` and only wait, so ``/api/health`` always answers at once. Errors are
raised as nimlab exceptions and turned into 4xx responses (503 for a budget exceeded) by
:mod:`nimlab.web.app`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request

from nimlab.budget import Budget
from nimlab.catalogue import GameOptions, analyze, find_game, make_game, registered_games
from nimlab.errors import InvalidPositionError, NimlabError, NoSuchPositionError, TooLargeError
from nimlab.exact import parse_rational
from nimlab.hidden.variants import VARIANTS
from nimlab.hidden.variants import variant as registered
from nimlab.play.allowance import ALLOWANCE_GAMES
from nimlab.play.hidden import (
    HIDDEN_EXAMPLES,
    HiddenMatch,
    MatchStore,
    Solved,
    hidden_variants,
    match_spec,
    playable,
)
from nimlab.play.impartial import (
    DEFAULT_OPTIONS,
    PLAY_LIMIT,
    PlayState,
    grundy_table_json,
    misere_playable,
    open_state,
    warm_quotients,
)
from nimlab.play.partisan import PARTISAN_GAMES, open_partisan, value_str
from nimlab.web.guard import JobPool
from nimlab.web.models import (
    MAX_EXPONENT,
    MAX_GRUNDY_UPTO,
    AnalyzeRequest,
    ComputerRequest,
    GameRequest,
    GrundyRequest,
    HiddenActRequest,
    HiddenStartRequest,
    MoveRequest,
    OptionsIn,
    PartisanComputerRequest,
    PartisanMoveRequest,
    PartisanRequest,
    ScoringPlayRequest,
    ScoringRequest,
    SolveRequest,
    position_text,
)
from nimlab.web.responses import ALWAYS, COMPUTING, HIDDEN_NEW, MATCH

__all__ = [
    "ANALYSIS_LIMIT",
    "MAX_EXPONENT",
    "MAX_GRUNDY_UPTO",
    "SCORING_MAX_CELLS",
    "SOLVE_MAX_NODES",
    "router",
    "warm_up",
]

#: Bound on non-closed-form work of one analysis request (the catalogue's ``--limit``).
ANALYSIS_LIMIT = 200_000
#: Scoring Nim work bound (reachable positions x values of N), well below the CLI's default.
SCORING_MAX_CELLS = 2_000_000

#: Largest game tree ``/api/solve`` builds (nodes), well below the CLI's default.
SOLVE_MAX_NODES = 500_000

_EXPONENT = re.compile(r"[eE]\s*([+-]?[0-9]+)")

#: Every operation declares the error statuses it can answer (:mod:`nimlab.web.responses`).
router = APIRouter(prefix="/api", responses=ALWAYS)
#: The id of a game in progress (``secrets.token_urlsafe``).
Token = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
_matches = MatchStore()


async def _run(request: Request, job: Callable[..., Any], *args: Any, what: str) -> Any:
    """``job(*args)`` in a child process of the application's pool (killed if the client
    goes away)."""
    pool: JobPool = request.app.state.jobs
    return await pool.run(job, *args, what=what, gone=request.is_disconnected)


@router.get("/health")
async def health() -> dict[str, bool]:
    """``{"ok": true}`` while the server runs (on the event loop: never waits for a thread)."""
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
    """The catalogue: name, rules, notation, example, options, whether it can be played, and
    the hidden-information variants it can be played in (with its default options); and the
    registry of those variants."""
    rows = [
        {
            "name": cls.name,
            "summary": cls.summary,
            "notation": cls.notation,
            "example": cls.example,
            "options": sorted(flag.removeprefix("--") for flag in cls.option_flags),
            "impartial": cls.impartial,
            "playable": cls.impartial or cls.name in PARTISAN_GAMES | ALLOWANCE_GAMES,
            "misere_play": misere_playable(cls),
            "partisan": cls.name in PARTISAN_GAMES,
            "grundy_sequence": cls.sequence_meaning,
            "defaults": _defaults(cls.name),
            "hidden": hidden_variants(cls.name, DEFAULT_OPTIONS.get(cls.name)),
            "hidden_example": HIDDEN_EXAMPLES.get(cls.name),
        }
        for cls in registered_games()
    ]
    variants = [{"name": v.name, "title": v.title, "summary": v.summary} for v in VARIANTS.values()]
    return {"games": rows, "variants": variants}


def _analyze_json(request: AnalyzeRequest) -> dict[str, Any]:
    text = position_text(request.position)
    game = make_game(request.game, request.options.to_game_options(limit=ANALYSIS_LIMIT))
    return analyze(game, text).to_json()


@router.post("/analyze", responses=COMPUTING)
async def analyze_position(body: AnalyzeRequest, request: Request) -> dict[str, Any]:
    """The keys of ``nimlab analyze GAME POSITION --json``."""
    result: dict[str, Any] = await _run(
        request, _analyze_json, body, what=f"the analysis of {body.game}"
    )
    return result


def _grundy_json(request: GrundyRequest) -> dict[str, Any]:
    options = request.options.to_game_options(limit=ANALYSIS_LIMIT)
    return grundy_table_json(request.game, options, request.upto)


@router.post("/grundy", responses=COMPUTING)
async def grundy(body: GrundyRequest, request: Request) -> dict[str, Any]:
    """The keys of ``nimlab grundy GAME --upto N --json`` (``upto`` at most 10000)."""
    if body.upto > MAX_GRUNDY_UPTO:
        raise TooLargeError(
            f"upto {body.upto} is over the playground's limit {MAX_GRUNDY_UPTO}"
            " (use 'nimlab grundy' for longer tables)",
            estimate=body.upto,
            limit=MAX_GRUNDY_UPTO,
        )
    what = f"the Grundy table of {body.game} up to {body.upto}"
    result: dict[str, Any] = await _run(request, _grundy_json, body, what=what)
    return result


def _from_store(task: Any) -> dict[str, Any] | None:
    """The stored result of a task (this nimlab version, any method the task accepts),
    marked ``"cached": true`` (and ``from_store``, its older name, kept for one release);
    None when there is no usable store (``$NIMLAB_STORE`` or the default path: a missing,
    damaged or foreign file is ignored, never written) or no such result."""
    from nimlab.store import ResultStore, current_version, resolve_store_path

    try:
        with ResultStore(resolve_store_path(None), create=False) as store:
            hit = store.get(task.spec, task.accepts, current_version())
    except NimlabError:
        return None
    return None if hit is None else {**hit.payload, "cached": True, "from_store": True}


def _check_bonus(value: str | int | None) -> None:
    """Refuse a bonus N written with a huge exponent (``1e999999999``) before parsing it."""
    found = _EXPONENT.search(value) if isinstance(value, str) else None
    if found is not None and abs(int(found.group(1))) > MAX_EXPONENT:
        raise TooLargeError(
            f"the exponent of N = {value} is over the playground's limit {MAX_EXPONENT}",
            limit=MAX_EXPONENT,
        )


def _bonus(value: str | int | None) -> Fraction | None:
    if value is None:
        return None
    return Fraction(value) if isinstance(value, int) else parse_rational(value)


def _scoring_heaps(position: str | list[int]) -> tuple[int, ...]:
    from nimlab.core.heaps import parse_heaps

    return parse_heaps(position_text(position), allow_empty=True)


def _scoring_json(request: ScoringRequest) -> dict[str, Any]:
    """The keys of ``nimlab scoring H... [--N X] --json``."""
    from nimlab.scoring.analysis import analyze_scoring

    heaps = _scoring_heaps(request.position)
    try:
        result = analyze_scoring(heaps, _bonus(request.N), max_cells=SCORING_MAX_CELLS)
    except TooLargeError:
        from nimlab.specs import scoring_task

        stored = (
            None if request.N is not None or not any(heaps) else _from_store(scoring_task(heaps))
        )
        if stored is None:
            raise
        from nimlab.sweeps.scoring import in_input_order

        return in_input_order(stored, heaps)
    return {**result.to_json(), "cached": False}


@router.post("/scoring", responses=COMPUTING)
async def scoring(body: ScoringRequest, request: Request) -> dict[str, Any]:
    """The keys of ``nimlab scoring H... [--N X] --json``."""
    _check_bonus(body.N)
    result: dict[str, Any] = await _run(
        request, _scoring_json, body, what="this Scoring Nim analysis"
    )
    return result


def _scoring_play_json(request: ScoringPlayRequest) -> dict[str, Any]:
    """Scoring Nim at one bonus N: f_N, and every move with its gain and whether it is optimal
    (:class:`nimlab.play.scoring.ScoringMatch`)."""
    from nimlab.play.scoring import ScoringMatch

    bonus = _bonus(request.N)
    if bonus is None:
        raise InvalidPositionError("Scoring Nim play needs the bonus N")
    heaps = _scoring_heaps(request.position)
    return ScoringMatch.start(heaps, bonus, max_cells=SCORING_MAX_CELLS).to_json()


@router.post("/scoring/play", responses=COMPUTING)
async def scoring_play(body: ScoringPlayRequest, request: Request) -> dict[str, Any]:
    """Scoring Nim at one bonus N: f_N, and every move with its gain and whether it is optimal.

    The gain of a move is what the mover scores minus what the opponent nets from then on,
    ``taken - f_N(after)`` (the bonus of the last counter is in ``f_N(empty) = -N``); optimal
    moves gain exactly f_N. Each option says itself in ``words`` and has the ``feedback`` a
    player who makes it is told.
    """
    _check_bonus(body.N)
    result: dict[str, Any] = await _run(
        request, _scoring_play_json, body, what="this Scoring Nim position"
    )
    return result


def _state(request: GameRequest) -> PlayState:
    return open_state(
        request.game,
        position_text(request.position),
        request.options.to_game_options(limit=PLAY_LIMIT),
        misere=request.misere,
    )


def _play_state_json(request: GameRequest) -> dict[str, Any]:
    """The position to play: its legal moves (None when too many to list), whether play is over."""
    return _state(request).to_json()


def _play_move_json(request: MoveRequest) -> dict[str, Any]:
    """Check a typed move (``heap amount`` or the position after it) and return the new state."""
    state = _state(request)
    after = state.parse_move(request.move)
    return {
        "move": {"to": after.text, "by": "you"},
        "state": after.to_json(),
        "feedback": state.feedback(after),
    }


def _play_computer_json(request: ComputerRequest) -> dict[str, Any]:
    """The computer's reply: a winning move if there is one, else a random legal move."""
    state = _state(request)
    rng = random.Random(request.seed) if request.seed is not None else random.Random()
    move = state.computer_move(rng)
    played: dict[str, Any] = {"to": move.state.text, "label": move.label, "winning": move.winning}
    if move.source is not None:
        played["source"] = move.source
    return {"move": played, "state": move.state.to_json()}


def _play_hint_json(request: GameRequest) -> dict[str, Any]:
    """Every option coloured P/N with its Grundy value, and the explanation of the winning move."""
    return _state(request).hint()


def _partisan_state_json(request: PartisanRequest) -> dict[str, Any]:
    """A partizan position: the moves of the player to move (``B``/``L`` or ``R``), end of play."""
    return open_partisan(request.game, request.position, request.player).to_json()


def _partisan_move_json(request: PartisanMoveRequest) -> dict[str, Any]:
    """Check the player's move (``stalk edge``, ``row col``, ``edge k`` or the position after
    it); the new state and words on the move."""
    state = open_partisan(request.game, request.position, request.player)
    after = state.parse_move(request.move)
    return {
        "move": {"to": after.text, "by": "you"},
        "state": after.to_json(),
        "feedback": state.feedback(after),
    }


def _partisan_computer_json(request: PartisanComputerRequest) -> dict[str, Any]:
    """The computer's move for ``player``: optimal by the exact value."""
    state = open_partisan(request.game, request.position, request.player)
    rng = random.Random(request.seed) if request.seed is not None else random.Random()
    move, after = state.computer_move(rng)
    value = value_str(move.value)
    words = f"{move.label}, leaving {value}"
    payload: dict[str, Any] = {
        "to": move.to,
        "label": move.label,
        "value": value,
        "winning": move.winning,
        "words": words,
    }
    if move.typed:
        payload["typed"] = move.typed
    return {"move": payload, "state": after.to_json()}


def _partisan_hint_json(request: PartisanRequest) -> dict[str, Any]:
    """The exact value, every move with the value it leaves (winning or not), the explanation."""
    return open_partisan(request.game, request.position, request.player).to_json(evaluate=True)


@router.post("/play/state", responses=COMPUTING)
async def play_state(body: GameRequest, request: Request) -> dict[str, Any]:
    """The position to play: its legal moves (None when too many to list), whether play is over."""
    result: dict[str, Any] = await _run(request, _play_state_json, body, what="this position")
    return result


@router.post("/play/move", responses=COMPUTING)
async def play_move(body: MoveRequest, request: Request) -> dict[str, Any]:
    """Check a typed move (``heap amount`` or the position after it) and return the new state."""
    result: dict[str, Any] = await _run(request, _play_move_json, body, what="this move")
    return result


@router.post("/play/computer", responses=COMPUTING)
async def play_computer(body: ComputerRequest, request: Request) -> dict[str, Any]:
    """The computer's reply: a winning move if there is one, else a random legal move."""
    result: dict[str, Any] = await _run(
        request, _play_computer_json, body, what="the computer's move"
    )
    return result


@router.post("/play/hint", responses=COMPUTING)
async def play_hint(body: GameRequest, request: Request) -> dict[str, Any]:
    """Every option coloured P/N with its Grundy value, and the explanation of the winning move."""
    result: dict[str, Any] = await _run(request, _play_hint_json, body, what="this hint")
    return result


@router.post("/partisan/state", responses=COMPUTING)
async def partisan_state(body: PartisanRequest, request: Request) -> dict[str, Any]:
    """Red-blue Hackenbush: the moves of the player to move (``B`` or ``R``), end of play."""
    result: dict[str, Any] = await _run(request, _partisan_state_json, body, what="this position")
    return result


@router.post("/partisan/move", responses=COMPUTING)
async def partisan_move(body: PartisanMoveRequest, request: Request) -> dict[str, Any]:
    """Check the player's move (``stalk edge`` or the position after it); the new state."""
    result: dict[str, Any] = await _run(request, _partisan_move_json, body, what="this move")
    return result


@router.post("/partisan/computer", responses=COMPUTING)
async def partisan_computer(body: PartisanComputerRequest, request: Request) -> dict[str, Any]:
    """The computer's move for ``player``: optimal by the exact value."""
    result: dict[str, Any] = await _run(
        request, _partisan_computer_json, body, what="the computer's move"
    )
    return result


@router.post("/partisan/hint", responses=COMPUTING)
async def partisan_hint(body: PartisanRequest, request: Request) -> dict[str, Any]:
    """The exact value, every move with the value it leaves (winning or not), the explanation."""
    result: dict[str, Any] = await _run(request, _partisan_hint_json, body, what="this hint")
    return result


def warm_up() -> None:
    """Run each kind of job once on a tiny input, here: the modules and solvers they load
    lazily are then loaded in every child, which starts as a copy of this process.

    >>> warm_up()
    """
    budget = Budget(10.0, 1 << 30)
    _solve_json("sn", [1], False, False, budget)
    _scoring_json(ScoringRequest(position=[1], N=1))
    _scoring_play_json(ScoringPlayRequest(position=[1], N=1))
    _analyze_json(AnalyzeRequest(game="nim", position=[1]))
    _play_hint_json(GameRequest(game="nim", position=[1]))
    warm_quotients()  # misère play of Kayles, Dawson's Kayles, Grundy's game: quotients at hand
    playable("sn", (1,), False)


def _variant_heaps(variant: str, position: str | list[int]) -> tuple[int, ...]:
    from nimlab.core.heaps import parse_heaps

    registered(variant)
    return parse_heaps(position_text(position))


def _check_solve(variant: str, heaps: tuple[int, ...], misere: bool, budget: Budget) -> None:
    """Refuse at once, from the estimate of the method that will run, a game over the
    playground's node limit or the server's budgets."""
    from nimlab.hidden.budget import check_solve_budget, estimate_solve

    estimate = estimate_solve(variant, heaps, misere=misere, method="lp")
    if estimate.nodes > SOLVE_MAX_NODES:
        raise TooLargeError(
            f"{variant}{list(heaps)} has about {estimate.nodes:,} nodes",
            estimate=estimate.nodes,
            limit=SOLVE_MAX_NODES,
        )
    check_solve_budget(estimate, budget, "the server's budgets (nimlab serve --job-seconds)")


def _solve_json(
    variant: str, position: str | list[int], misere: bool, strategy: bool, budget: Budget
) -> dict[str, Any]:
    from nimlab.hidden.solve import solve

    heaps = _variant_heaps(variant, position)
    try:
        _check_solve(variant, heaps, misere, budget)
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
        from nimlab.specs import solve_task

        stored = None if strategy else _from_store(solve_task(variant, heaps, misere=misere))
        if stored is not None:
            return stored
        raise TooLargeError(
            f"{error} (the playground stops at {SOLVE_MAX_NODES:,} nodes; larger games"
            " with 'nimlab solve' or from the store)",
            estimate=error.estimate,
            limit=SOLVE_MAX_NODES,
        ) from error
    return {**result.to_json(), "cached": False}


def _solve_game_json(
    variant: str, game: str, position: str | list[int], body: SolveRequest, budget: Budget
) -> dict[str, Any]:
    """``variant`` on the components of catalogue game ``game`` (Nim's heaps: the Nim path),
    refused at once (413) by its estimate over the playground's node limit or budgets."""
    from nimlab.hidden.budget import check_solve_budget
    from nimlab.hidden.games import estimate_hidden, hidden_game, solve_hidden

    options = body.options.to_game_options(limit=ANALYSIS_LIMIT)
    misere = body.misere or options.misere
    if find_game(game).name == "nim":
        make_game(game, options)  # refuses options that do not apply to Nim (400)
        return _solve_json(variant, position, misere, body.strategy, budget)
    hidden = hidden_game(variant, game, options)
    text = position_text(position)
    states = hidden.parse(text)
    estimate = estimate_hidden(hidden, states, misere=misere)
    try:
        if estimate.nodes > SOLVE_MAX_NODES:
            raise TooLargeError(
                f"{hidden.spec(states, misere)} has about {estimate.nodes:,} nodes",
                estimate=estimate.nodes,
                limit=SOLVE_MAX_NODES,
            )
        check_solve_budget(estimate, budget, "the server's budgets (nimlab serve --job-seconds)")
        result = solve_hidden(
            variant,
            game,
            text,
            options=options,
            misere=misere,
            strategies=body.strategy,
            budget=None,  # checked above
            max_nodes=SOLVE_MAX_NODES,
            estimate=estimate,
        )
    except TooLargeError as error:
        from nimlab.specs import solve_task

        task = solve_task(variant, text, misere=misere, game=game, options=options)
        stored = None if body.strategy else _from_store(task)
        if stored is not None:  # the key is the multiset: show the position as given
            return {**stored, "position": hidden.component.format_position(states)}
        raise TooLargeError(
            f"{error} (the playground stops at {SOLVE_MAX_NODES:,} nodes; larger games"
            " with 'nimlab solve' or from the store)",
            estimate=error.estimate,
            limit=SOLVE_MAX_NODES,
        ) from error
    return {**result.to_json(), "cached": False}


@router.post("/solve", responses=COMPUTING)
async def solve_variant(body: SolveRequest, request: Request) -> dict[str, Any]:
    """The keys of ``nimlab solve VARIANT H... [--misere] [--strategy] --json``; with
    ``game``, those of ``nimlab solve VARIANT --game GAME POSITION [options] --json``."""
    pool: JobPool = request.app.state.jobs
    budget = Budget(pool.limits.seconds, pool.job_bytes())
    what = f"the equilibrium of {body.variant}"
    if body.game is not None:
        game_args = (body.variant, body.game, body.position, body, budget)
        found: dict[str, Any] = await _run(request, _solve_game_json, *game_args, what=what)
        return found
    if body.options != OptionsIn():
        raise InvalidPositionError('options go with a game: give "game" too (Nim takes none)')
    args = (body.variant, body.position, body.misere, body.strategy, budget)
    result: dict[str, Any] = await _run(request, _solve_json, *args, what=what)
    return result


def _use(token: str, job: Callable[[HiddenMatch], Any]) -> Any:
    if len(token) > 64:
        raise HTTPException(404, detail="no such game")
    try:
        return _matches.use(token, job)
    except NoSuchPositionError as error:
        raise HTTPException(404, detail=str(error)) from error


@router.post("/hidden/new", responses=HIDDEN_NEW)
async def hidden_new(body: HiddenStartRequest, request: Request) -> dict[str, Any]:
    """Start a hidden-information game (a variant of Nim, or with ``game`` of a catalogue
    game's components) against the equilibrium: the game is solved in a child process, the
    match is kept here."""
    options = body.options.to_game_options(limit=ANALYSIS_LIMIT)
    misere = body.misere or options.misere
    text = position_text(body.position)
    game = None if body.game is None else find_game(body.game).name
    spec = match_spec(body.variant, text, misere, game=game, options=options)
    what = f"the equilibrium of {spec}"
    solved_game = _matches.game(spec)
    if solved_game is None:
        pool: JobPool = request.app.state.jobs
        refuse = request.app.state.refuse_by_estimate
        budget = Budget(pool.limits.seconds, pool.job_bytes()) if refuse else None
        args = (body.variant, text, misere, game, options, budget)
        solved_game = await _run(request, _playable, *args, what=what)
    match = HiddenMatch.start(
        body.variant,
        text,
        misere=misere,
        human_first=body.first == "you",
        seed=body.seed,
        solved_game=solved_game,
    )
    token = _matches.add(match)
    return {"id": token, **match.view()}


def _playable(
    variant: str,
    text: str,
    misere: bool,
    game: str | None,
    options: GameOptions,
    budget: Budget | None,
) -> Solved:
    return playable(variant, text, misere, game=game, options=options, budget=budget)


@router.get("/hidden/{token}", responses=MATCH)
def hidden_view(token: Token) -> dict[str, Any]:
    """What the player may see of a game in progress (everything once it is over)."""
    view: dict[str, Any] = _use(token, lambda match: match.view())
    return {"id": token, **view}


@router.post("/hidden/{token}/act", responses=MATCH)
def hidden_act(token: Token, request: HiddenActRequest) -> dict[str, Any]:
    """Play an action (index or label); the computer answers from its equilibrium strategy."""

    def job(match: HiddenMatch) -> dict[str, Any]:
        match.act(request.action)
        return match.view()

    view: dict[str, Any] = _use(token, job)
    return {"id": token, **view}


@router.get("/hidden/{token}/hint", responses=MATCH)
def hidden_hint(token: Token) -> dict[str, Any]:
    """The equilibrium's probabilities of the player's own actions here."""
    hint: dict[str, Any] = _use(token, lambda match: match.hint())
    return hint
