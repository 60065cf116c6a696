"""A history's children: the table answers as a dict does, before and after it turns compact."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nimlab.hidden.children import (
    COMPACT_FROM,
    COMPACT_ONCE_LOADED,
    SIGNAL_BITS,
    ChildTable,
    opponent_label,
    own_label,
)

_LABELS = st.one_of(
    st.builds(
        own_label, st.integers(0, (1 << SIGNAL_BITS) - 2), st.integers(0, (1 << SIGNAL_BITS) - 1)
    ),
    st.builds(opponent_label, st.integers(0, (1 << SIGNAL_BITS) - 1)),
)


@given(
    keys=st.lists(st.tuples(st.integers(0, 2**31 - 1), _LABELS), max_size=300),
    probes=st.lists(st.tuples(st.integers(0, 2**31 - 1), _LABELS), max_size=50),
    compact_from=st.integers(1, 40),
)
@settings(max_examples=60, deadline=None)
def test_a_table_answers_as_a_dict(
    keys: list[tuple[int, int]], probes: list[tuple[int, int]], compact_from: int
) -> None:
    """Children put in any order are found again, through every growth of the arrays; keys
    never put (including near misses on one part of a key) are not found."""
    table, model = ChildTable(compact_from=compact_from), {}
    for kid, key in enumerate(dict.fromkeys(keys)):
        assert table.get(*key) == -1
        table.put(*key, kid)
        model[key] = kid
    assert len(table) == len(model)
    assert (table.small is None) == (len(model) >= compact_from)
    near = [(hist + 1, label) for hist, label in model] + [(h, lab ^ 1) for h, lab in model]
    for key in list(model) + probes + near:
        assert table.get(*key) == model.get(key, -1)


def test_labels_of_own_actions_and_announcements_differ() -> None:
    """An own action's label is never an announcement's, whatever the signal."""
    assert own_label(0, 0) > opponent_label((1 << SIGNAL_BITS) - 1)


def test_a_table_turns_compact_early_once_the_arrays_code_is_loaded() -> None:
    """After some table has imported the compiled code, another moves to flat arrays at
    COMPACT_ONCE_LOADED children rather than COMPACT_FROM, and still finds every child."""
    import nimlab.hidden.child_kernels  # noqa: F401 - as a first large table does

    table = ChildTable()
    for hist in range(COMPACT_ONCE_LOADED - 1):
        table.put(hist, own_label(0, 1), hist + 1)
    assert table.small is not None
    table.put(COMPACT_ONCE_LOADED, opponent_label(2), 0)
    assert table.small is None and COMPACT_ONCE_LOADED < COMPACT_FROM
    assert [table.get(h, own_label(0, 1)) for h in (0, 7, COMPACT_ONCE_LOADED - 2)] == [
        1,
        8,
        COMPACT_ONCE_LOADED - 1,
    ]
    assert table.get(COMPACT_ONCE_LOADED, opponent_label(2)) == 0
