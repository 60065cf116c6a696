"""Imperfect-information play against the equilibrium: rules, hidden state, and the computer."""

from __future__ import annotations

import itertools
import random

import pytest

from nimlab.errors import NoSuchPositionError, PlaygroundFullError
from nimlab.play.hidden import HiddenMatch, MatchStore


def _random_game(
    variant: str, heaps: tuple[int, ...], seed: int, *, human_first: bool
) -> HiddenMatch:
    rng = random.Random(seed)
    match = HiddenMatch.start(variant, heaps, human_first=human_first, seed=seed)
    while not match.over:
        view = match.view()
        assert "history" not in view and "final" not in view
        match.act(rng.choice(view["actions"])["index"])
    return match


@pytest.mark.parametrize(
    ("variant", "heaps"),
    [("sn", (3, 2, 1)), ("fsn", (2, 2, 1)), ("kn", (2, 2)), ("kn-empty", (2, 1, 1))],
)
def test_random_games_end_and_replay_the_rules(variant: str, heaps: tuple[int, ...]) -> None:
    for seed in range(4):
        match = _random_game(variant, heaps, seed, human_first=seed % 2 == 0)
        view = match.view()
        history = view["history"]
        assert history[0]["before"] == list(heaps)
        for earlier, later in itertools.pairwise(history):
            assert earlier["after"] == later["before"]
        assert history[-1]["after"] == [0] * len(heaps) == view["final"]
        last = history[-1]["player"]
        assert view["winner"] == last  # normal play: taking the last chip wins


def test_the_equilibrium_wins_a_won_game() -> None:
    # Schrödinger Nim from (2,1): the first player wins (value 1), whatever the second does.
    for seed in range(8):
        match = _random_game("sn", (2, 1), seed, human_first=False)
        assert match.view()["winner"] == "computer"
        assert match.view()["value_for_L"] == "1"


def test_misere_and_the_hint() -> None:
    match = HiddenMatch.start("sn", (2, 2), misere=True, seed=1)
    hint = match.hint()
    assert {a["label"] for a in hint["actions"]} == {"1_1", "1_2", "2_1", "2_2"}
    match.act("1_1")
    assert match.view()["seen"][0] == "1_1"


def test_kriegspiel_tells_the_opponent_only_that_a_move_was_made() -> None:
    match = HiddenMatch.start("kn", (2, 1), seed=0)
    match.act("try 1_2")
    assert match.view()["seen"][0] == "try 1_2 -> done"
    assert match.at.events(1)[0] == "opponent: moved"  # the computer's view of our move
    for event in match.view()["seen"][1:]:
        assert event.startswith("try") or event.startswith("opponent: moved")


def test_store_is_bounded_and_fair() -> None:
    """A game in progress is never dropped for a stranger's new game: a full store refuses
    the newcomer, drops finished games first, then the least recently used idle ones."""
    store = MatchStore(capacity=2)
    tokens = [store.add(HiddenMatch.start("sn", (1, 1))) for _ in range(2)]
    with pytest.raises(PlaygroundFullError, match="2 games in progress"):
        store.add(HiddenMatch.start("sn", (1, 1)))
    assert all(store.use(token, lambda match: match.variant) == "sn" for token in tokens)
    # a finished game makes room for a new one
    store.use(tokens[0], lambda match: _play_out(match))
    third = store.add(HiddenMatch.start("sn", (1, 1)))
    with pytest.raises(NoSuchPositionError, match="no game"):
        store.use(tokens[0], lambda match: match.variant)
    assert store.use(third, lambda match: match.over) is False
    # distinct solved games are bounded too: a fifth game waits while four are in progress
    games = MatchStore(games=4)
    for heaps in ((1, 1), (2, 1), (2, 2), (3, 1)):
        games.add(HiddenMatch.start("sn", heaps))
    with pytest.raises(PlaygroundFullError):
        games.add(HiddenMatch.start("sn", (3, 2)))
    # an idle game gives way, the least recently used first
    idle = MatchStore(capacity=2, idle_seconds=0)
    first, second = (idle.add(HiddenMatch.start("sn", (1, 1))) for _ in range(2))
    idle.use(first, lambda match: match.variant)  # first is now the more recently used
    idle.add(HiddenMatch.start("sn", (1, 1)))
    assert idle.use(first, lambda match: match.variant) == "sn"
    with pytest.raises(NoSuchPositionError):
        idle.use(second, lambda match: match.variant)


def _play_out(match: HiddenMatch) -> None:
    while not match.over:
        match.act(0)


def test_a_catalogue_game_is_played_on_its_own_components() -> None:
    match = HiddenMatch.start("sn", "3,2", game="kayles", seed=2)
    view = match.view()
    assert (view["game"], view["position"], view["start"]) == ("kayles", "3,2", ["3", "2"])
    assert view["name"] == "Schrödinger kayles"
    # at the start the mover knows every row: moves are in the rows' own terms, numbered from 1
    assert "row 1: remove 2 at 1" in [a["label"] for a in view["actions"]]
    second = HiddenMatch.start("sn", "3,2", game="kayles", human_first=False, seed=2)
    seen = second.view()["seen"]
    assert len(seen) == 1 and seen[0].startswith("opponent: ")
    # the row the computer moved in is unknown now: several pictures are possible, and look
    unknown = [k for k, states in enumerate(second.view()["possible"]) if len(states) > 1]
    assert len(unknown) == 1
    look = f"look {unknown[0] + 1}"
    assert look in [a["label"] for a in second.view()["actions"]]
    second.act(look)
    assert second.view()["seen"][1].startswith(f"{look} -> ")


def test_kriegspiel_hackenbush_reveals_the_stalks_at_the_end() -> None:
    rng = random.Random(5)
    match = HiddenMatch.start("kn", "BR,RB", game="red-blue-hackenbush", seed=5)
    while not match.over:
        match.act(rng.choice(match.view()["actions"])["index"])
    view = match.view()
    assert view["start"] == ["BR", "RB"] and view["history"][0]["before"] == ["BR", "RB"]
    assert view["winner"] in ("you", "computer")


def test_a_match_follows_the_tree_not_the_rules() -> None:
    # the match stands on a node of the solved tree; its view is that node's
    match = HiddenMatch.start("fsn", (2, 2), seed=3)
    root = match.game.root
    assert match.at.node == root.node and match.view()["seen"] == []
    match.act(0)
    assert match.at.parent is not None
    assert match.at.moves()[0].action == root.actions[0]


def test_every_game_with_components_has_a_playable_example() -> None:
    from nimlab.hidden.components import COMPONENT_GAMES
    from nimlab.play.hidden import HIDDEN_EXAMPLES, hidden_variants, playable
    from nimlab.play.impartial import DEFAULT_OPTIONS

    assert set(HIDDEN_EXAMPLES) == set(COMPONENT_GAMES)
    for game, example in HIDDEN_EXAMPLES.items():
        options = DEFAULT_OPTIONS.get(game)
        variants = hidden_variants(game, options)
        assert variants, game
        for variant in variants:
            assert playable(variant, example, game=game, options=options).exact
