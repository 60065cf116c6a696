"""Every pruning and reduction is harmless: values agree with and without it; beliefs are sound."""

from __future__ import annotations

import pytest

from nimlab.hidden.components import NimHeap
from nimlab.hidden.solve import solve_tree
from nimlab.hidden.transforms import Schrodinger, kriegspiel_empty
from nimlab.hidden.tree import build_tree
from nimlab.hidden.variants import variant_rules

SMALL = [(2, 1), (2, 2), (3, 1), (3, 2), (2, 2, 1), (3, 2, 1), (3, 3, 1)]


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("variant", ["sn", "fsn", "kn", "kn-empty"])
@pytest.mark.parametrize("heaps", SMALL[:5], ids=str)
def test_forced_play_pruning_keeps_values(
    variant: str, heaps: tuple[int, ...], misere: bool
) -> None:
    full = solve_tree(build_tree(variant, heaps, misere=misere, prune_forced=False))
    pruned = solve_tree(build_tree(variant, heaps, misere=misere))
    assert full.exact and pruned.exact
    assert full.value == pruned.value
    assert pruned.nodes <= full.nodes


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("heaps", [(3, 3, 1), (4, 2, 1), (3, 2, 2), (4, 3, 1), (3, 3, 2)], ids=str)
def test_small_heap_endgame_cut_keeps_values(heaps: tuple[int, ...], misere: bool) -> None:
    full = solve_tree(build_tree("sn", heaps, misere=misere, prune_forced=False))
    pruned = solve_tree(build_tree("sn", heaps, misere=misere))
    assert full.exact and pruned.exact
    assert full.value == pruned.value
    assert pruned.nodes < full.nodes


@pytest.mark.parametrize("heaps", SMALL, ids=str)
def test_merging_looks_at_known_heaps_keeps_values(heaps: tuple[int, ...]) -> None:
    unreduced = solve_tree(build_tree(Schrodinger(NimHeap(), merge_known_looks=False), heaps))
    reduced = solve_tree(build_tree("sn", heaps))
    assert unreduced.exact and reduced.exact
    assert unreduced.value == reduced.value


@pytest.mark.parametrize("variant", ["sn", "fsn", "kn", "kn-empty"])
@pytest.mark.parametrize("heaps", [(3, 2, 1), (3, 3)], ids=str)
def test_beliefs_contain_exactly_the_states_of_their_nodes(
    variant: str, heaps: tuple[int, ...]
) -> None:
    tree = build_tree(variant, heaps, record_nodes=True, prune_forced=False)
    states: dict[int, set[tuple[int, ...]]] = {}
    for node in tree.recorded:
        if node.infoset >= 0:
            states.setdefault(node.infoset, set()).add(node.state)
    rules = variant_rules(variant)
    for index, info in enumerate(tree.infosets):
        assert states[index] <= info.belief
        if variant != "kn-empty":  # kn-empty: a superset, see KriegspielEmpty.replies
            assert states[index] == info.belief
        assert info.actions == rules.actions(
            frozenset(states[index]), info.pending, info.player
        ) or (variant == "kn-empty")


def test_perfect_recall_each_sequence_has_one_infoset() -> None:
    tree = build_tree("sn", (3, 3, 1))
    for player in (0, 1):
        owners = tree.seq_infoset[player]
        assert owners[0] == -1
        for info_index, info in enumerate(tree.infosets):
            if info.player == player:
                assert list(owners[info.first_seq : info.first_seq + len(info.actions)]) == [
                    info_index
                ] * len(info.actions)


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("variant", ["sn", "fsn"])
@pytest.mark.parametrize(
    "heaps", [(2, 1), (3, 3), (3, 2, 1), (3, 3, 1), (2, 2, 2), (4, 2, 1)], ids=str
)
def test_first_heap_decomposition_keeps_values(
    variant: str, heaps: tuple[int, ...], misere: bool
) -> None:
    from nimlab.hidden.solve import solve

    whole = solve(variant, heaps, misere=misere, decompose=False)
    split = solve(variant, heaps, misere=misere)
    assert whole.exact and split.exact
    assert whole.value == split.value
    assert split.nodes <= whole.nodes + len(heaps)  # each part has its own root


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("heaps", [(2, 1), (2, 2), (3, 2), (3, 3), (2, 1, 1)], ids=str)
def test_kn_empty_request_bound_keeps_values(heaps: tuple[int, ...], misere: bool) -> None:
    unreduced = kriegspiel_empty(NimHeap(), request_bound=max(heaps) + 1)
    full = solve_tree(build_tree(unreduced, heaps, misere=misere))
    reduced = solve_tree(build_tree("kn-empty", heaps, misere=misere))
    assert full.exact and reduced.exact
    assert full.value == reduced.value
    assert full.nodes > reduced.nodes


KNOWN_WIN_CASES = [
    (variant, heaps)
    for variant in ("sn", "fsn", "kn", "kn-empty")
    for heaps in [*SMALL, (4, 2, 1), (3, 2, 2), (4, 3, 1), (4, 4, 1)]
    if variant in ("sn", "fsn") or sum(heaps) <= 7  # larger Kriegspiel trees: too slow here
]


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize(("variant", "heaps"), KNOWN_WIN_CASES, ids=str)
def test_known_win_cut_keeps_values(variant: str, heaps: tuple[int, ...], misere: bool) -> None:
    without = solve_tree(build_tree(variant, heaps, misere=misere, known_wins=False))
    cut = solve_tree(build_tree(variant, heaps, misere=misere))
    assert without.exact and cut.exact
    assert without.value == cut.value
    assert cut.nodes <= without.nodes


@pytest.mark.parametrize("heaps", [(3, 3, 1), (4, 3, 1), (4, 4, 1)], ids=str)
def test_known_win_cut_shrinks_schrodinger_trees(heaps: tuple[int, ...]) -> None:
    without = build_tree("sn", heaps, known_wins=False)
    cut = build_tree("sn", heaps)
    assert cut.nodes < without.nodes and cut.infoset_count < without.infoset_count
