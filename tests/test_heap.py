"""Brain.warm_up loads what a turn needs before the first turn, and freezes the heap only where it may."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest
from helpers import turn

from graphbrain import heap
from graphbrain.brain import Brain
from graphbrain.interfaces import cli


@pytest.fixture()
def unfrozen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts and ends with nothing frozen and this process not graphbrain's own."""
    monkeypatch.setattr(heap, "_owned", False)
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_warm_up_loads_the_models_and_pipelines_and_leaves_a_process_it_does_not_own_alone(
    brain: Brain, unfrozen: None
) -> None:
    assert brain.warm_up() >= 0.0
    assert "commit_pipeline" in vars(brain)  # built now, not inside the first turn
    assert gc.get_freeze_count() == 0  # an application's heap is its own business
    # The warmed brain commits and composes, in English and Chinese, as a cold one does.
    for session, text in (("s-en", "We picked Neo4j for Project Falcon."), ("s-zh", "我们决定猎鹰项目用 Neo4j。")):
        result = brain.commit_turn(session, turn("t1", text))
        assert result.status == "committed"
        assert brain.compose_context(session, "Neo4j?").context_id


def test_warm_up_freezes_when_asked_or_when_the_process_is_graphbrains(brain: Brain, unfrozen: None) -> None:
    brain.warm_up(freeze=True)
    asked = gc.get_freeze_count()
    assert asked > 10_000  # the models' and pipelines' objects, out of the collector's passes
    gc.unfreeze()

    heap.own_process()
    assert heap.owned()
    brain.warm_up()
    assert gc.get_freeze_count() > 10_000
    gc.unfreeze()
    brain.warm_up(freeze=False)
    assert gc.get_freeze_count() == 0


def test_the_graphbrain_command_owns_its_process(monkeypatch: pytest.MonkeyPatch, unfrozen: None) -> None:
    ran: list[bool] = []
    monkeypatch.setattr("graphbrain.interfaces.cli.app.main", lambda: ran.append(heap.owned()))
    cli.run()
    assert ran == [True]
    # The console script and ``python -m graphbrain.interfaces.cli`` both start there.
    out = subprocess.run(
        [sys.executable, "-c", "from importlib.metadata import entry_points; "
         "print(entry_points(group='console_scripts')['graphbrain'].value)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert out.stdout.strip() == "graphbrain.interfaces.cli:run"
