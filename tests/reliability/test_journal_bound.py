"""storage.journal_max_mb: the journal stays within its bound. Written turns are pruned to make room;
when turns still waiting for the database fill it alone, commit_turn refuses the next one with a clear
JournalFull — nothing of it kept, every acknowledged turn kept — and once the database answers again
the backlog is replayed in order and the refused turn is accepted.

Against the real database (Neo4j and embedded); "the database away" is its ping answering no, which is
what a commit checks first while the graph is known to be unreachable (test_journal_unreachable).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphbrain.interfaces.http.errors import map_graphbrain_error
from graphbrain.journal import Journal, JournalFull

BOUND_MB = 0.125


def _turn(n: int) -> dict[str, Any]:
    # ~3 KB of events each: the bound holds a handful of them beside its reserve.
    text = f"TODO: port module number {n} before Friday. " + "Notes on the port. " * 150
    return {"turn_id": f"t{n}", "messages": [{"role": "user", "content": text}]}


def _graph_turns(brain: Any) -> list[str]:
    rows = brain.store.run("bench/chaos_turns", {"namespace": brain.config.namespace, "sessions": ["s"]})
    return [str(r["turn_id"]) for r in rows]


def test_a_full_journal_refuses_the_next_turn_and_replays_the_rest(
    brain_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    brain = brain_factory(**{"storage.journal": True, "storage.journal_max_mb": BOUND_MB})
    assert brain.config.storage.journal_max_mb == BOUND_MB
    # A journal of the test's own (the embedded test database shares its data dir across tests), bounded
    # as Brain.journal is from the config.
    journal = Journal.in_data_dir(tmp_path, target=brain.store.target, max_mb=brain.config.storage.journal_max_mb)
    brain.__dict__["journal"] = journal
    bound = int(BOUND_MB * 1024 * 1024)

    # 1. The database up: written turns are pruned as the bound nears; no commit fails for it.
    n = 0
    for n in range(1, 13):
        assert brain.commit_turn("s", _turn(n)).status == "committed"
        assert journal.size_bytes() <= bound
    assert journal.status()["done"] < 12  # some were pruned
    written = [f"t{i}" for i in range(1, 13)]

    # 2. The database away: turns are accepted pending until pending ones fill the bound.
    monkeypatch.setattr(brain.store, "ping", lambda: False)
    journal.target_unreachable = True
    pending: list[str] = []
    with pytest.raises(JournalFull, match=r"journal_max_mb: 0.125.*not accepted.*kept") as refused_err:
        for n in range(13, 200):
            result = brain.commit_turn("s", _turn(n))
            assert result.status == "pending"
            pending.append(f"t{n}")
    refused = f"t{n}"
    assert len(pending) >= 3, "the bound should hold a few pending turns"
    assert journal.size_bytes() <= bound
    assert map_graphbrain_error(refused_err.value) == (507, "journal_full")
    # Nothing half-written: the refused turn is neither journaled nor in the graph; every acknowledged
    # turn is, in order (the written ones in the graph, the pending ones in the journal).
    assert journal.find(brain.config.namespace, "s", refused) is None
    assert [e.turn_id for e in journal.pending()] == pending
    assert _graph_turns(brain) == written
    # Sent again while still full: refused again, the same way.
    with pytest.raises(JournalFull):
        brain.commit_turn("s", _turn(n))

    # 3. The database back: the backlog is written in order, which frees the room; the refused turn is
    # accepted and committed after it.
    monkeypatch.undo()
    replayed = brain.replay_journal()
    assert [r.turn_id for r in replayed] == pending and all(r.status == "committed" for r in replayed)
    assert journal.status()["pending"] == 0
    assert brain.commit_turn("s", _turn(n)).status == "committed"
    assert _graph_turns(brain) == [*written, *pending, refused]

    # The bound holds across a reopen (another process) too.
    journal.close()
    reopened = Journal.in_data_dir(tmp_path, target=brain.store.target, max_mb=BOUND_MB)
    assert reopened.pending() == [] and reopened.size_bytes() <= bound
    reopened.close()
    brain.__dict__.pop("journal")


def test_no_bound_when_null(tmp_path: Path) -> None:
    journal = Journal.in_data_dir(tmp_path, target="test", max_mb=None)
    for i in range(50):
        journal.append("ns", "s", f"t{i}", {"messages": [{"role": "user", "content": "x" * 4000}]})
    assert len(journal.pending()) == 50
    journal.close()
