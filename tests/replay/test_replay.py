"""Replays of stored requests under another config, against the real Neo4j (issue 10's "done when").

A seeded session (the bilingual demo session and seeds/docs) with three stored compose_context requests;
then: the same config replays with no difference; ``recent_turns_max`` 8 → 2 and ``evidence_max_items``
12 → 3 show exactly the expected differences; replays leave the graph as it was; replay-commits with
``confidence.user_asserted`` 0.8 → 0.85 shows confidence changes only and leaves no scratch namespace;
trace sampling at 0.0 stores no trace and at 1.0 stores every one.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from graphbrain import Brain
from graphbrain.compose.slots import render_evidence
from graphbrain.compose.tokens import get_counter
from graphbrain.config import BrainConfig
from graphbrain.contracts import ContextPackage
from graphbrain.errors import InputError
from graphbrain.replay import (
    RecentTurnsDiff,
    SlotDelta,
    TokenDiff,
    ValueChange,
    main_replay,
    main_replay_commits,
    replay_commits,
    replay_contexts,
)

ROOT = Path(__file__).resolve().parents[2]
SESSION = "demo-graphbrain"
# A memory question (both sides of evidence), a request for documents, and a Chinese time-phrase question
# (memory only: resources are not searched for it).
REQUESTS = [
    "What did we decide for the memory store?",
    "find the design doc about the vector index",
    "上周我们对检索方案做了什么决定？",
]


def _not_at_a_minute_edge() -> None:
    """Retrieval measures recency against the current minute and a replay pins the minute of the
    request; a compose started just before a minute turns could retrieve in the next one."""
    if datetime.now(UTC).second >= 55:
        time.sleep(61 - datetime.now(UTC).second)


@dataclass
class Seeded:
    brain: Brain
    context_ids: list[str]

    def stored(self, context_id: str) -> ContextPackage:
        row = self.brain.store.run(
            "compose/get_context_trace", {"context_id": context_id, "namespace": self.brain.namespace}
        )[0]
        return ContextPackage.model_validate_json(row["package"])


def seed(brain: Brain) -> Seeded:
    """The demo session (dated to end a day ago, so its age is the same whenever the test runs), the
    seed documents, and the REQUESTS composed through the public API (traces stored)."""
    data = json.loads((ROOT / "seeds" / "sessions" / "demo-graphbrain.json").read_text(encoding="utf-8"))
    last = datetime.fromisoformat(data["turns"][-1]["at"].replace("Z", "+00:00"))
    shift = datetime.now(UTC) - timedelta(days=1) - last
    for t in data["turns"]:
        at = datetime.fromisoformat(t["at"].replace("Z", "+00:00")) + shift
        brain.commit_turn(data["session_id"], dict(t, at=at.isoformat()))
    brain.ingest(ROOT / "seeds" / "docs")
    ids = []
    for message in REQUESTS:
        _not_at_a_minute_edge()
        ids.append(brain.compose_context(SESSION, message).context_id)
    return Seeded(brain, ids)


@pytest.fixture()
def seeded(brain: Brain) -> Seeded:
    comp = brain.config.policies.composition
    assert (comp.recent_turns_max, comp.evidence_max_items) == (8, 12)  # the premise of the exact diffs
    return seed(brain)


def other(brain: Brain, **dotted: Any) -> BrainConfig:
    """The brain's config with dotted keys changed (validated, like a brain.yml)."""
    data = brain.config.model_dump(mode="json")
    for key, value in dotted.items():
        node = data
        *path, last = key.split(".")
        for p in path:
            node = node[p]
        node[last] = value
    return BrainConfig.model_validate(data)


def graph_counts(brain: Brain) -> tuple[int, int]:
    nodes = brain.store.cypher("MATCH (n) RETURN count(n) AS n").rows[0]["n"]
    rels = brain.store.cypher("MATCH ()-[r]->() RETURN count(r) AS n").rows[0]["n"]
    return int(nodes), int(rels)


# ============================================================================ contexts
def test_same_config_replays_with_no_difference(seeded: Seeded) -> None:
    brain = seeded.brain
    before = graph_counts(brain)
    for baseline in ("fresh", "stored"):
        report = replay_contexts(brain, brain.config, session_id=SESSION, baseline=baseline)
        assert [r.context_id for r in report.requests] == seeded.context_ids
        assert report.totals.requests == 3 and report.totals.changed == 0 and report.totals.errors == 0
        assert not report.changed
        for r in report.requests:
            assert not r.changed and r.error is None and r.drift == []
            assert r.evidence.empty() and r.tokens.empty() and r.ignored_fields.empty()
            assert r.recent_turns is not None and r.recent_turns.empty()
            assert r.plans is not None and r.plans.empty()
        assert "no difference" in report.text()
    assert graph_counts(brain) == before


def test_recent_turns_max_8_to_2_drops_exactly_the_older_rounds(seeded: Seeded) -> None:
    brain = seeded.brain
    before = graph_counts(brain)
    report = replay_contexts(brain, other(brain, **{"policies.composition.recent_turns_max": 2}), session_id=SESSION)
    counter = get_counter(brain.config.policies.composition.tokenizer)
    assert report.totals.changed == 3 and report.totals.recent_turns_changed == 3
    used_delta = 0
    for r in report.requests:
        base = seeded.stored(r.context_id)  # the stored package is the fresh baseline (no drift)
        assert r.drift == []
        rounds = list(dict.fromkeys(t.turn_id for t in base.recent_turns))
        assert len(rounds) == 7  # the demo session has 7 turns: all in the window of 8
        kept = [t for t in base.recent_turns if t.turn_id in rounds[-2:]]
        assert r.recent_turns == RecentTurnsDiff(
            removed=[f"{t.turn_id}:{t.role}" for t in base.recent_turns if t.turn_id not in rounds[-2:]],
            added=[],
            old_count=len(base.recent_turns),
            new_count=len(kept),
        )
        old = base.constraints.token_budget.by_slot["recent_turns"]
        new = sum(counter.count(t.content) for t in kept)
        used = base.constraints.token_budget.used_estimate
        assert r.tokens == TokenDiff(
            by_slot=[SlotDelta(slot="recent_turns", old=old, new=new, delta=new - old)],
            used_estimate=ValueChange(old=used, new=used + new - old),
        )
        used_delta += new - old
        # Nothing else moves: the same evidence, plans and ignored fields.
        assert r.evidence.empty() and r.plans is not None and r.plans.empty() and r.ignored_fields.empty()
    assert report.totals.tokens_used_delta == used_delta < 0
    assert graph_counts(brain) == before


def _ratio_keep(base: ContextPackage, n: int) -> list[str]:
    """Which of the baseline's evidence the composer keeps with ``evidence_max_items = n``: the best
    ``round(n × share)`` memory items (half up) and the best resource items for the rest, a short side
    leaving its places to the other (seed §4.4's 40/60 ratio, the share the baseline applied)."""
    share = base.constraints.diversity["memory_share_effective"]
    memory = [e.id for e in base.evidence if e.source == "memory"]
    resource = [e.id for e in base.evidence if e.source == "resource"]
    want_mem = min(n, math.floor(n * share + 0.5))
    take_mem, take_res = min(want_mem, len(memory)), min(n - want_mem, len(resource))
    spare = n - take_mem - take_res
    extra = min(spare, len(memory) - take_mem)
    take_mem, take_res = take_mem + extra, take_res + min(spare - extra, len(resource) - take_res)
    keep = set(memory[:take_mem] + resource[:take_res])
    return [e.id for e in base.evidence if e.id in keep]


def test_evidence_max_items_12_to_3_drops_exactly_the_capped_items(seeded: Seeded) -> None:
    brain = seeded.brain
    before = graph_counts(brain)
    report = replay_contexts(brain, other(brain, **{"policies.composition.evidence_max_items": 3}), session_id=SESSION)
    counter = get_counter(brain.config.policies.composition.tokenizer)
    assert report.totals.changed == 3
    for r in report.requests:
        base = seeded.stored(r.context_id)
        assert len(base.evidence) > 3 and r.drift == []
        assert {w["reason"] for w in base.debug.why_selected} == {"score"}  # no coverage swap in play
        keep = _ratio_keep(base, 3)
        top3 = [e.id for e in base.evidence[:3]]
        # Dropped: exactly the baseline's items beyond the kept three, in baseline order, each with the
        # candidate's reason — "diversity:ratio" when it would have made the top 3 without the ratio.
        assert [(d.id, d.old_rank, d.old_score) for d in r.evidence.dropped] == [
            (e.id, i + 1, e.score) for i, e in enumerate(base.evidence) if e.id not in keep
        ]
        assert [d.reason for d in r.evidence.dropped] == [
            "diversity:ratio" if d.id in top3 else "cap:evidence_max_items" for d in r.evidence.dropped
        ]
        assert r.evidence.added == [] and r.evidence.reordered == [] and r.evidence.rescored == []
        # Tokens: the evidence slot shrinks to the three kept items, relabelled E1–E3; trimmed grows by as much.
        kept = [e for e in base.evidence if e.id in keep]
        relabelled = [e.model_copy(update={"label": f"E{i + 1}"}) for i, e in enumerate(kept)]
        tb = base.constraints.token_budget
        old, new = tb.by_slot["evidence"], counter.count("Evidence:\n" + render_evidence(relabelled))
        assert r.tokens == TokenDiff(
            by_slot=[SlotDelta(slot="evidence", old=old, new=new, delta=new - old)],
            used_estimate=ValueChange(old=tb.used_estimate, new=tb.used_estimate + new - old),
            trimmed=ValueChange(old=tb.trimmed, new=tb.trimmed - (new - old)),
        )
        assert r.recent_turns is not None and r.recent_turns.empty()
        assert r.plans is not None and r.plans.empty() and r.ignored_fields.empty()
    # The memory question has evidence from both sides: 40/60 of 3 keeps 1 memory + 2 resource items.
    mixed = seeded.stored(seeded.context_ids[0])
    assert [e.source for e in mixed.evidence if e.id in _ratio_keep(mixed, 3)].count("memory") == 1
    assert graph_counts(brain) == before


def test_plan_changes_are_reported(seeded: Seeded) -> None:
    brain = seeded.brain
    cfg = other(brain, **{"policies.retrieval.enable_resource_retrieval": "never"})
    report = replay_contexts(brain, cfg, context_id=seeded.context_ids[1])
    (r,) = report.requests
    assert r.plans is not None
    assert r.plans.resources_searched == ValueChange(old=True, new=False)
    (side,) = [s for s in r.plans.sides if s.side == "resource"]
    assert side.change == "removed" and side.queries_removed and side.queries_removed[0].mode == "hybrid"
    assert r.evidence.dropped and all(d.source == "resource" for d in r.evidence.dropped if d.reason == "not retrieved")
    assert "resource plan removed" in r.text()


def test_stored_baseline_from_the_trace_when_packages_are_not_kept(brain_factory: Any) -> None:
    brain = brain_factory(
        **{"policies.observability.store_contexts": False, "policies.observability.store_plans": False}
    )
    seeded = seed(brain)
    row = brain.store.run(
        "compose/get_context_trace", {"context_id": seeded.context_ids[0], "namespace": brain.namespace}
    )
    assert row[0]["package"] is None and row[0]["plans"] is None
    same = replay_contexts(brain, brain.config, context_id=seeded.context_ids[0], baseline="stored")
    (r,) = same.requests
    assert not r.changed and r.recent_turns is None and r.plans is None
    assert any("store_contexts" in n for n in r.notes) and any("store_plans" in n for n in r.notes)
    fewer = replay_contexts(
        brain,
        other(brain, **{"policies.composition.evidence_max_items": 3}),
        context_id=seeded.context_ids[0],
        baseline="stored",
    )
    assert len(fewer.requests[0].evidence.dropped) == 9  # compared on the trace's evidence list


def test_selectors_and_bad_input(seeded: Seeded) -> None:
    brain = seeded.brain
    first, second, third = seeded.context_ids
    assert [r.context_id for r in replay_contexts(brain, brain.config, last=1).requests] == [third]
    assert [r.context_id for r in replay_contexts(brain, brain.config, context_id=first).requests] == [first]
    since = brain.store.run("compose/get_context_trace", {"context_id": second, "namespace": brain.namespace})[0][
        "created_at"
    ]
    assert [r.context_id for r in replay_contexts(brain, brain.config, since=since).requests] == [second, third]
    assert [r.context_id for r in replay_contexts(brain, brain.config, since=since.isoformat(), last=1).requests] == [
        third
    ]
    empty = replay_contexts(brain, brain.config, session_id="no-such-session")
    assert empty.requests == [] and empty.notes
    with pytest.raises(InputError, match="context_id"):
        replay_contexts(brain, brain.config, context_id=first, session_id=SESSION)
    with pytest.raises(InputError, match="no stored context"):
        replay_contexts(brain, brain.config, context_id="ctx_nope")
    with pytest.raises(InputError, match="last"):
        replay_contexts(brain, brain.config, last=0)
    with pytest.raises(InputError, match="since"):
        replay_contexts(brain, brain.config, since="last tuesday")
    with pytest.raises(InputError, match="baseline"):
        replay_contexts(brain, brain.config, baseline="yesterday")  # type: ignore[arg-type]


# ============================================================================ commits
def _scratch_nodes(brain: Brain) -> int:
    rows = brain.store.cypher(
        "MATCH (n) WHERE n.namespace STARTS WITH $prefix RETURN count(n) AS n",
        {"prefix": brain.namespace + "__replay_"},
    ).rows
    return int(rows[0]["n"])


def test_replay_commits_confidence_change_only_and_no_scratch_left(seeded: Seeded) -> None:
    brain = seeded.brain
    before = graph_counts(brain)
    stored = brain.store.cypher(
        "MATCH (m:Memory {namespace: $ns, source_session_id: $s}) RETURN m.type AS type, m.key AS key, "
        "m.source_turn_id AS turn, m.confidence AS confidence",
        {"ns": brain.namespace, "s": SESSION},
    ).rows
    asserted = sorted((r["type"], r["key"], r["turn"]) for r in stored if r["confidence"] == 0.8)
    assert asserted and len(asserted) < len(stored)  # tool-derived items (0.9) are not user-asserted

    same = replay_commits(brain, brain.config, session_id=SESSION)
    assert not same.changed and same.changes == [] and same.turns_replayed == 7
    assert same.stored_items == same.replayed_items == len(stored) and same.scratch_removed

    report = replay_commits(
        brain, other(brain, **{"policies.retention.confidence.user_asserted": 0.85}), session_id=SESSION
    )
    assert report.changed and report.scratch_removed
    assert report.totals.added == report.totals.removed == 0
    assert report.totals.status_changed == report.totals.version_changed == 0
    assert report.totals.changed == report.totals.confidence_changed == len(asserted)
    assert sorted((c.type, c.key, c.source_turn_id) for c in report.changes) == asserted
    for c in report.changes:
        assert c.change == "changed" and c.fields == ["confidence"]
        assert c.stored is not None and c.replayed is not None
        assert (c.stored.confidence, c.replayed.confidence) == (0.8, 0.85)
        assert (c.stored.status, c.stored.version) == (c.replayed.status, c.replayed.version)
    assert "confidence 0.8" in report.text() and "deleted" in report.text()

    assert _scratch_nodes(brain) == 0
    assert graph_counts(brain) == before


def test_replay_commits_rebuilds_tool_calls_refs_and_explicit_items(brain: Brain) -> None:
    turns: list[dict[str, Any]] = [
        {
            "turn_id": "x1",
            "at": "2026-11-10T09:00:00+00:00",
            "metadata": {"project": "graphbrain"},
            "messages": [
                {"message_id": "x1-u", "role": "user", "content": "TODO: write the schema for acme/graphbrain."},
                {
                    "message_id": "x1-a",
                    "role": "assistant",
                    "content": "Looking up the index docs.",
                    "tool_calls": [{"id": "c1", "name": "web_search", "args": {"q": "neo4j vector index"}}],
                },
                {"message_id": "x1-t", "role": "tool", "tool_call_id": "c1", "status": "ok", "content": "2 hits"},
            ],
            "refs": [{"type": "url", "uri": "https://neo4j.com/docs/", "title": "Neo4j docs"}],
        },
        {
            "turn_id": "x2",
            "at": "2026-11-10T10:00:00+00:00",
            "messages": [{"message_id": "x2-u", "role": "user", "content": "ok"}],
            "items": [
                {
                    "type": "tasks",
                    "key": "task:graphbrain:schema",
                    "source": "tool",
                    "value": {"title": "Create the schema", "status": "doing"},
                }
            ],
        },
        {
            "turn_id": "x3",
            "at": "2026-11-11T10:00:00+00:00",
            "messages": [
                {"message_id": "x3-u", "role": "user", "content": "我们决定用 Neo4j 5.26。以后都按中文回复我。"}
            ],
        },
    ]
    for t in turns:
        brain.commit_turn("s-x", t)
    report = replay_commits(brain, brain.config, session_id="s-x")
    assert report.turns_replayed == 3 and report.reconstructed_items == 1
    assert not report.changed and report.stored_items == report.replayed_items > 3
    assert report.scratch_removed and _scratch_nodes(brain) == 0
    assert any("explicit item" in n for n in report.notes)


def test_replay_commits_unknown_session(brain: Brain) -> None:
    with pytest.raises(InputError, match="no stored turns"):
        replay_commits(brain, brain.config, session_id="nobody")


# ============================================================================ CLI entry points
def test_cli_entry_points(seeded: Seeded, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    brain = seeded.brain
    base, changed = tmp_path / "brain.yml", tmp_path / "other.yml"

    def as_file(cfg: Any) -> str:
        # A dump masks the password (a SecretStr); a config file must carry the real one.
        data = cfg.model_dump(mode="json")
        data["storage"]["neo4j"]["password"] = cfg.storage.neo4j.password.get_secret_value()
        return yaml.safe_dump(data, allow_unicode=True)

    base.write_text(as_file(brain.config), encoding="utf-8")
    changed.write_text(as_file(other(brain, **{"policies.composition.recent_turns_max": 2})), encoding="utf-8")

    assert main_replay(str(base), str(changed), session=SESSION, as_json=True) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"]["requests"] == 3 and out["totals"]["recent_turns_changed"] == 3
    assert main_replay(str(base), str(changed), last=1) == 0
    text = capsys.readouterr().out
    assert "recent turns:" in text and text.rstrip().splitlines()[-1].startswith("total: 1 of 1 changed")

    assert main_replay_commits(str(base), str(base), SESSION, as_json=True) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["changed"] is False and out["scratch_removed"] is True
    assert _scratch_nodes(brain) == 0


# ============================================================================ trace sampling
def _context_traces(brain: Brain) -> int:
    return int(
        brain.store.cypher(
            "MATCH (c:ContextTrace {namespace: $ns}) RETURN count(c) AS n", {"ns": brain.namespace}
        ).rows[0]["n"]
    )


def _commit_traces(brain: Brain) -> int:
    return int(
        brain.store.cypher("MATCH (c:CommitTrace {namespace: $ns}) RETURN count(c) AS n", {"ns": brain.namespace}).rows[
            0
        ]["n"]
    )


def test_trace_sampling_zero_stores_none_and_one_stores_all(brain_factory: Any) -> None:
    for rate, expected in ((0.0, 0), (1.0, 5)):
        brain = brain_factory(**{"policies.observability.trace_sample": rate})
        brain.commit_turn("s1", {"turn_id": "t1", "messages": [{"role": "user", "content": "We decided to use RRF."}]})
        for i in range(5):
            brain.compose_context("s1", f"what did we decide? ({i})")
        assert _context_traces(brain) == expected


def test_commit_traces_honour_the_trace_switch_and_sampling(brain_factory: Any) -> None:
    off = brain_factory(**{"policies.observability.trace": False})
    none = brain_factory(**{"policies.observability.trace_sample": 0.0})
    for b in (off, none):
        b.commit_turn("s1", {"turn_id": "t1", "messages": [{"role": "user", "content": "We decided to use RRF."}]})
        assert _commit_traces(b) == 0
