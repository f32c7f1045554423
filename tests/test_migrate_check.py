"""migrate's semantic check across engines: equal, or equal but for one near tie at the cut of a list."""

from __future__ import annotations

import pytest

from graphbrain.store.migrate import PlanCheck


@pytest.mark.parametrize(
    ("source", "dest", "same"),
    [
        (["a", "b", "c"], ["a", "b", "c", "d"], True),  # one more at the end of one list
        (["a", "b", "x"], ["a", "b", "y"], True),  # a near tie swapped at the cut
        (["a", "b", "c"], ["a", "d", "b", "c"], False),  # the extra item is not at the cut
        (["a", "b", "c"], ["a", "b", "c", "d", "e"], False),  # two more
        (["a", "x", "y"], ["a", "b", "c"], False),
        ([], ["a"], False),  # nothing in common is no near tie
    ],
)
def test_a_semantic_plan_may_differ_only_by_a_near_tie_at_the_cut(
    source: list[str], dest: list[str], same: bool
) -> None:
    assert PlanCheck("t", "semantic", source, dest).same_but_the_cut is same
