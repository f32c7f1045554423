"""Slot composition under the token budget: caps, diversity, the ratio, coverage, the trimming order, and
the limit never exceeded (pure: no database)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graphbrain.compose.budget import TOOL_OUTPUT_MAX_TOKENS, TRIM_PHASES, compose_slots
from graphbrain.compose.slots import SLOT_ORDER, ComposedSlots, EvidenceDraft, measure_package, render_evidence
from graphbrain.compose.tokens import EstimateCounter, TokenCounter, get_counter
from graphbrain.config import CompositionConfig, CompositionDiversityConfig
from graphbrain.contracts import Block, ChatTurn, ContextPackage, Mode

COUNTER = EstimateCounter()
EN_TEXT = (
    "the executor fuses ranked lists with reciprocal rank fusion then reranks the head and applies "
    "diversity caps so that one document cannot crowd out the rest of the evidence vector index graph "
    "memory turn session decision task preference budget token snippet"
)
EN_WORDS = tuple(EN_TEXT.split())
ZH_CHARS = "执行器用倒数排名融合合并多个列表然后重排并应用多样性约束向量索引图谱记忆会话决策任务偏好预算"


def text(rng: random.Random, n: int, lang: str | None = None) -> str:
    lang = lang or rng.choice(["en", "zh", "mixed"])
    if lang == "en":
        return " ".join(rng.choice(EN_WORDS) for _ in range(n))
    if lang == "zh":
        return "".join(rng.choice(ZH_CHARS) for _ in range(n))
    return " ".join(rng.choice(EN_WORDS) if i % 2 else rng.choice(ZH_CHARS) * 3 for i in range(n))


def block(kind: str, body: str) -> Block:
    return Block(type=kind, text=body)


def draft(
    i: int | str,
    score: float,
    *,
    source: str = "resource",
    doc: str | None = None,
    uri: str | None = None,
    snippet: str | None = None,
    covers: bool = False,
    expansion: bool = False,
) -> EvidenceDraft:
    eid = str(i)
    if source == "memory":
        uri = uri or f"graphbrain://memory/{eid}"
    return EvidenceDraft(
        id=eid,
        source=source,  # type: ignore[arg-type]
        snippet=snippet if snippet is not None else f"snippet of evidence {eid} about the vector index",
        score=score,
        source_uri=uri or f"file:///docs/{doc or eid}.md",
        mode=Mode.hybrid if source == "resource" else Mode.exact,
        title=f"Title {eid}",
        document_id=(doc or f"doc-{eid}") if source == "resource" else None,
        covers_core=covers,
        expansion_only=expansion,
    )


def history(n_rounds: int, *, words: int = 12, rng: random.Random | None = None) -> list[ChatTurn]:
    rng = rng or random.Random(0)
    out: list[ChatTurn] = []
    for r in range(n_rounds):
        out.append(ChatTurn(role="user", content=f"u{r}: " + text(rng, words), turn_id=f"t{r}"))
        out.append(ChatTurn(role="assistant", content=f"a{r}: " + text(rng, words), turn_id=f"t{r}"))
    return out


def package(slots: ComposedSlots) -> ContextPackage:
    return ContextPackage(
        context_id="ctx-1",
        session_id="s1",
        namespace="default",
        created_at=datetime(2026, 2, 18, tzinfo=UTC),
        **slots.slots(),
    )


def sent_tokens(slots: ComposedSlots, counter: TokenCounter = COUNTER) -> int:
    """What the model is really sent: the contents of package.to_messages(), counted one by one."""
    return sum(counter.count(m["content"]) for m in package(slots).to_messages())


# ====================================================================================== slot order
def test_slot_order_and_the_counted_form_matches_the_package() -> None:
    out = compose_slots(
        system_blocks=[block("core_profile", "The user is Ada."), block("preferences", "Prefers short answers.")],
        developer_blocks=[block("format", "Answer in Markdown.")],
        working_summary="Goals: ship v0.1.\nDecisions: Neo4j.",
        recent_turns=history(2),
        evidence=[draft("r1", 0.9, covers=True), draft("m1", 0.8, source="memory")],
        user_message="How does the vector index work?",
        cfg=CompositionConfig(),
        counter=COUNTER,
    )
    pkg = package(out)
    fields = [f for f in ContextPackage.model_fields if f in SLOT_ORDER]
    assert tuple(fields) == SLOT_ORDER  # the package keeps the fixed order of seed §4.1
    assert list(out.constraints.token_budget.by_slot) == list(SLOT_ORDER)
    roles = [m["role"] for m in pkg.to_messages()]
    assert roles == ["system", "developer", "system", "user", "assistant", "user", "assistant", "system", "user"]
    assert [e.label for e in out.evidence] == ["E1", "E2"]
    assert render_evidence(out.evidence) == pkg.render_evidence()
    assert measure_package(pkg, COUNTER) == out.constraints.token_budget.by_slot
    assert out.constraints.token_budget.used_estimate == sent_tokens(out)
    assert out.constraints.token_budget.counter == "estimate"
    assert out.dropped == [] and out.constraints.token_budget.trimmed == 0
    assert out.why_selected[0] == {
        "id": "r1",
        "label": "E1",
        "source": "resource",
        "score": 0.9,
        "reason": "score",
        "covers_core": True,
        "expansion_only": False,
    }


# ======================================================================================= per-slot caps
def test_system_blocks_cap_trims_from_the_end_and_truncates_the_last_that_partly_fits() -> None:
    rng = random.Random(1)
    blocks = [block(k, text(rng, 120, "en")) for k in ("core_profile", "preferences", "goals", "tasks", "decisions")]
    cfg = CompositionConfig(system_blocks_max_tokens=300)
    out = compose_slots(system_blocks=blocks, user_message="hi", cfg=cfg, counter=COUNTER)
    assert out.constraints.token_budget.by_slot["system_blocks"] <= 300
    assert [b.type for b in out.system_blocks] == ["core_profile", "preferences"]
    assert out.system_blocks[0].text == blocks[0].text
    assert out.system_blocks[1].text.endswith("…") and out.system_blocks[1].text != blocks[1].text
    assert [t["index"] for t in out.constraints.truncation if t["slot"] == "system_blocks"] == [1]
    gone = [(d["index"], d["type"], d["reason"]) for d in out.dropped if d["slot"] == "system_blocks"]
    assert gone == [(2, "goals", "budget:system_blocks"), (3, "tasks", "budget:system_blocks"),
                    (4, "decisions", "budget:system_blocks")]  # fmt: skip


def test_summary_cap_truncates() -> None:
    summary = text(random.Random(2), 900, "zh")
    out = compose_slots(working_summary=summary, user_message="继续", cfg=CompositionConfig(), counter=COUNTER)
    assert COUNTER.count(out.working_summary) <= 600 < COUNTER.count(summary)
    assert summary.startswith(out.working_summary.rstrip("…"))
    (t,) = [t for t in out.constraints.truncation if t["slot"] == "working_summary"]
    assert t["reason"] == "budget:working_summary" and t["to_tokens"] <= 600


def test_recent_turns_max_keeps_the_newest_rounds_of_a_500_turn_history() -> None:
    turns = history(250)  # 500 messages, 250 rounds
    out = compose_slots(recent_turns=turns, user_message="continue", cfg=CompositionConfig(), counter=COUNTER)
    assert out.recent_turns == turns[-16:]  # 8 rounds of user + assistant
    capped = [d for d in out.dropped if d["reason"] == "cap:recent_turns_max"]
    assert len(capped) == 484 and capped[0]["index"] == 0 and capped[-1]["index"] == 483
    assert all(d["slot"] == "recent_turns" and d["tokens"] > 0 for d in capped)
    # without turn ids each message is a round of its own
    flat = [ChatTurn(role=t.role, content=t.content) for t in turns]
    out = compose_slots(recent_turns=flat, user_message="continue", cfg=CompositionConfig(), counter=COUNTER)
    assert out.recent_turns == flat[-8:]
    none = compose_slots(
        recent_turns=turns, user_message="x", cfg=CompositionConfig(recent_turns_max=0), counter=COUNTER
    )
    assert none.recent_turns == []


def test_long_tool_output_in_recent_turns_is_shortened() -> None:
    dump = '{"rows": [' + ", ".join(f'{{"id": {i}, "name": "row {i}"}}' for i in range(400)) + "]}"
    turns = [
        ChatTurn(role="user", content="list the rows", turn_id="t1"),
        ChatTurn(role="tool", content=dump, turn_id="t1"),
        ChatTurn(role="assistant", content="Here they are.", turn_id="t1"),
    ]
    out = compose_slots(recent_turns=turns, user_message="and now?", cfg=CompositionConfig(), counter=COUNTER)
    tool = out.recent_turns[1]
    assert COUNTER.count(tool.content) <= TOOL_OUTPUT_MAX_TOKENS < COUNTER.count(dump)
    assert "tool output shortened" in tool.content
    assert out.recent_turns[0] == turns[0] and out.recent_turns[2] == turns[2]
    assert any(t["reason"] == "cap:tool_output" and t["index"] == 1 for t in out.constraints.truncation)


def test_snippets_are_cut_to_max_snippet_chars() -> None:
    huge = "vector index " * 2000
    out = compose_slots(
        evidence=[draft("r1", 0.9, snippet=huge)],
        user_message="vector index?",
        cfg=CompositionConfig(max_snippet_chars=300),
        counter=COUNTER,
    )
    assert len(out.evidence[0].snippet) <= 300
    assert any(t["reason"] == "cap:max_snippet_chars" for t in out.constraints.truncation)


# ========================================================================================= diversity
def test_diversity_caps_by_document_and_by_source_uri() -> None:
    same_doc = [draft(f"d{i}", 0.9 - i / 100, doc="big", uri=f"file:///docs/big.md#s{i}") for i in range(6)]
    same_uri = [draft(f"u{i}", 0.8 - i / 100, uri="https://example.com/page") for i in range(5)]
    others = [draft(f"o{i}", 0.5 - i / 100) for i in range(6)]
    out = compose_slots(
        evidence=[*same_doc, *same_uri, *others], user_message="q", cfg=CompositionConfig(), counter=COUNTER
    )
    assert sum(1 for e in out.evidence if e.id.startswith("d")) == 3
    assert sum(1 for e in out.evidence if e.source_uri == "https://example.com/page") == 2
    reasons = {d["id"]: d["reason"] for d in out.dropped}
    assert {reasons[f"d{i}"] for i in range(3, 6)} == {"diversity:by_document"}
    assert {reasons[f"u{i}"] for i in range(2, 5)} == {"diversity:by_source_uri"}
    assert out.constraints.diversity["by_document"] == 3 and out.constraints.diversity["by_source_uri"] == 2


def test_memory_resource_ratio_40_60_and_adaptive() -> None:
    memory = [draft(f"m{i}", 0.70 - i / 1000, source="memory") for i in range(20)]
    resource = [draft(f"r{i}", 0.72 - i / 1000) for i in range(20)]
    cfg = CompositionConfig()  # evidence_max_items 12, ratio 40/60
    out = compose_slots(evidence=[*memory, *resource], user_message="q", cfg=cfg, counter=COUNTER)
    assert len(out.evidence) == 12
    assert out.constraints.diversity["selected"] == {"memory": 5, "resource": 7}  # round(12 x 0.4) = 5
    assert out.constraints.diversity["memory_share_effective"] == 0.4
    assert any(d["reason"] == "diversity:ratio" for d in out.dropped)
    assert any(d["reason"] == "cap:evidence_max_items" for d in out.dropped)
    # memory clearly stronger: the share adapts upwards (0.4 + 0.2)
    strong = [draft(f"m{i}", 0.95 - i / 1000, source="memory") for i in range(20)]
    out = compose_slots(evidence=[*strong, *resource], user_message="q", cfg=cfg, counter=COUNTER)
    assert out.constraints.diversity["memory_share_effective"] == 0.6
    assert out.constraints.diversity["selected"] == {"memory": 7, "resource": 5}
    out = compose_slots(evidence=[*strong, *resource], user_message="q", cfg=cfg, counter=COUNTER, adaptive_ratio=False)
    assert out.constraints.diversity["selected"] == {"memory": 5, "resource": 7}
    # another configured ratio
    cfg2 = CompositionConfig(diversity=CompositionDiversityConfig(memory_resource_ratio="50/50"))
    out = compose_slots(evidence=[*memory, *resource], user_message="q", cfg=cfg2, counter=COUNTER)
    assert out.constraints.diversity["selected"] == {"memory": 6, "resource": 6}


def test_duplicates_keep_the_better_score() -> None:
    out = compose_slots(
        evidence=[draft("x", 0.4), draft("x", 0.9), draft("y", 0.5)],
        user_message="q",
        cfg=CompositionConfig(),
        counter=COUNTER,
    )
    assert [(e.id, e.score) for e in out.evidence] == [("x", 0.9), ("y", 0.5)]
    assert [d["reason"] for d in out.dropped] == ["dedup"]


# ========================================================================================== coverage
def test_coverage_swaps_in_a_covering_item() -> None:
    top = [draft(f"r{i}", 0.9 - i / 100) for i in range(14)]
    covering = draft("cov", 0.1, covers=True)
    out = compose_slots(evidence=[*top, covering], user_message="q", cfg=CompositionConfig(), counter=COUNTER)
    ids = [e.id for e in out.evidence]
    assert "cov" in ids and len(ids) == 12
    assert ids[-1] == "cov"  # still in score order
    assert next(w for w in out.why_selected if w["id"] == "cov")["reason"] == "coverage"
    (swap,) = [d for d in out.dropped if d["reason"] == "coverage"]
    assert swap["id"] == "r11" and swap["for_id"] == "cov"  # the lowest non-covering item
    assert all(d.get("id") != "cov" for d in out.dropped)


def test_coverage_keeps_the_diversity_caps_and_survives_a_tight_budget() -> None:
    # the covering item shares a document with three selected ones: the swap takes one of those
    same = [draft(f"s{i}", 0.9 - i / 100, doc="D", uri=f"file:///D#{i}") for i in range(3)]
    cov = draft("cov", 0.2, doc="D", uri="file:///D#cov", covers=True)
    out = compose_slots(
        evidence=[*same, draft("o", 0.5), cov],
        user_message="q",
        cfg=CompositionConfig(evidence_max_items=4),
        counter=COUNTER,
    )
    ids = [e.id for e in out.evidence]
    assert "cov" in ids and sum(1 for i in ids if i.startswith("s") or i == "cov") <= 3
    # a tight limit: everything else goes before the covering item does
    rng = random.Random(3)
    many = [draft(f"r{i}", 0.9 - i / 100, snippet=text(rng, 150, "en")) for i in range(12)]
    cov2 = draft("cov", 0.05, snippet=text(rng, 150, "en"), covers=True, expansion=True)
    cfg = CompositionConfig(token_limit=400)
    out = compose_slots(
        system_blocks=[block("core_profile", text(rng, 60, "en"))],
        evidence=[*many, cov2],
        user_message="what about the vector index?",
        cfg=cfg,
        counter=COUNTER,
    )
    assert [e.id for e in out.evidence] == ["cov"]
    assert out.constraints.token_budget.used_estimate <= 400


# ============================================================================ the limit and its order
def test_trimming_order_long_tail_then_turns_then_summary_then_top_evidence() -> None:
    rng = random.Random(4)
    system = [block("core_profile", text(rng, 200, "en"))]
    summary = text(rng, 120, "en")
    turns = history(3, words=40, rng=rng)
    top = [draft(f"top{i}", 0.9 - i / 100, snippet=text(rng, 60, "en")) for i in range(3)]
    tail = [draft(f"tail{i}", 0.95, snippet=text(rng, 60, "en"), expansion=True) for i in range(3)]
    base: dict[str, Any] = {
        "system_blocks": system,
        "working_summary": summary,
        "recent_turns": turns,
        "evidence": [*top, *tail],
        "user_message": "So what now?",
        "counter": COUNTER,
    }
    full = compose_slots(**base, cfg=CompositionConfig())
    total = full.constraints.token_budget.used_estimate
    tail_cost = (
        total
        - compose_slots(**{**base, "evidence": top}, cfg=CompositionConfig()).constraints.token_budget.used_estimate
    )

    def run(limit: int) -> ComposedSlots:
        out = compose_slots(**base, cfg=CompositionConfig(token_limit=limit))
        assert out.constraints.token_budget.used_estimate <= limit
        return out

    # 1. a little over: only long-tail evidence goes, although it scored highest
    out = run(total - 5)
    assert sum(1 for e in out.evidence if e.id.startswith("tail")) < 3
    assert {"top0", "top1", "top2"} <= {e.id for e in out.evidence}
    assert len(out.recent_turns) == 6 and out.working_summary == summary
    assert any(d["phase"] == "long_tail_evidence" for d in out.dropped if "phase" in d)
    # 2. all the long tail and more: recent turns go, oldest round first
    out = run(total - tail_cost - 10)
    assert not any(e.id.startswith("tail") for e in out.evidence)
    assert out.recent_turns == turns[2:] or out.recent_turns == turns[4:]
    assert out.working_summary == summary and len(out.evidence) == 3
    # 3. tighter: the summary is truncated, the top evidence still whole
    out = run(total - tail_cost - COUNTER.count("".join(t.content for t in turns)) - 40)
    assert out.recent_turns == []
    assert out.working_summary != summary and len(out.evidence) == 3
    # 4. tighter still: top evidence goes lowest score first; system blocks stay
    out = run(COUNTER.count(system[0].text) + 100)
    assert out.system_blocks == system and out.working_summary == ""
    assert [e.id for e in out.evidence] in (["top0"], ["top0", "top1"], [])
    phases = [d["phase"] for d in out.dropped if "phase" in d]
    assert phases == sorted(phases, key=TRIM_PHASES.index)  # trimmed strictly in priority order


def test_user_message_is_never_trimmed() -> None:
    rng = random.Random(5)
    message = text(rng, 2000, "zh")  # ~2000 tokens against a 512 limit
    out = compose_slots(
        system_blocks=[block("core_profile", "The user is Ada.")],
        working_summary="Goals: ship.",
        recent_turns=history(4),
        evidence=[draft("r1", 0.9)],
        user_message=message,
        cfg=CompositionConfig(token_limit=512),
        counter=COUNTER,
    )
    assert out.user_message.content == message and out.over_limit
    assert out.system_blocks == [] and out.recent_turns == [] and out.evidence == [] and not out.working_summary
    flag = [t for t in out.constraints.truncation if t["slot"] == "user_message"]
    assert flag and flag[0]["reason"] == "user_message_exceeds_limit" and flag[0]["limit"] == 512
    assert out.warnings


class CharCounter:
    """A different tokenizer: one token per 3 characters (spaces included)."""

    name = "chars/3"

    def count(self, text: str) -> int:
        return (len(text) + 2) // 3


def run_random_trials(counter: TokenCounter | None, trials: int, *, seed: int, tokenizer: str | None = None) -> None:
    """Random EN / ZH / mixed inputs (500-turn histories, huge snippets, tool dumps, tight limits): the
    limit holds, the user message is intact, every cut is named, caps / diversity / coverage hold."""
    rng = random.Random(seed)
    for trial in range(trials):
        lang = rng.choice(["en", "zh", "mixed"])
        n_rounds = rng.choice([0, 3, 10, 250])  # 250 rounds = a 500-turn history
        cfg = CompositionConfig(
            token_limit=rng.choice([256, 512, 1024, 2048, 8192]),
            system_blocks_max_tokens=rng.choice([0, 100, 800]),
            summary_max_tokens=rng.choice([0, 50, 600]),
            recent_turns_max=rng.choice([0, 2, 8, 20]),
            evidence_max_items=rng.choice([0, 3, 12]),
            max_snippet_chars=rng.choice([20, 200, 800, 5000]),
            tokenizer=tokenizer,
        )
        kinds = ["core_profile", "preferences", "goals", "tasks", "decisions"]
        system = [block(k, text(rng, rng.randint(1, 400), lang)) for k in kinds[: rng.randint(0, 5)]]
        dev = [block("format", text(rng, rng.randint(1, 200), lang))] if rng.random() < 0.5 else []
        turns = history(n_rounds, words=rng.randint(1, 80), rng=rng)
        if turns and rng.random() < 0.3:
            turns.append(ChatTurn(role="tool", content=text(rng, 3000, lang), turn_id="tool"))
        evidence = [
            draft(
                f"e{i}",
                rng.random(),
                source=rng.choice(["memory", "resource"]),
                doc=rng.choice(["A", "B", "C", None]),
                uri=rng.choice([None, "https://x.test/a", "https://x.test/b"]),
                snippet=text(rng, rng.choice([5, 100, 4000]), lang),  # huge snippets too
                covers=rng.random() < 0.1,
                expansion=rng.random() < 0.4,
            )
            for i in range(rng.randint(0, 40))
        ]
        # now and then a message that alone is over the limit: the irreducible case
        message = text(rng, 3000 if rng.random() < 0.08 else rng.choice([3, 30, 300]), lang)
        out = compose_slots(
            system_blocks=system,
            developer_blocks=dev,
            working_summary=text(rng, rng.randint(0, 1500), lang),
            recent_turns=turns,
            evidence=evidence,
            user_message=message,
            cfg=cfg,
            counter=counter,
        )
        used_counter = counter or get_counter(tokenizer)
        tb = out.constraints.token_budget
        ctx = f"trial {trial}: {tb}"
        assert out.user_message.content == message, ctx  # never trimmed
        assert tb.used_estimate == sent_tokens(out, used_counter) == sum(tb.by_slot.values()), ctx
        assert tb.counter == used_counter.name
        if out.over_limit:  # only the irreducible case: nothing but the user message is left
            assert used_counter.count(message) > cfg.token_limit, ctx
            assert tb.used_estimate == used_counter.count(message), ctx
        else:
            assert tb.used_estimate <= cfg.token_limit, ctx
        assert len(out.evidence) <= cfg.evidence_max_items
        assert all(len(e.snippet) <= cfg.max_snippet_chars for e in out.evidence)
        assert tb.by_slot["system_blocks"] <= cfg.system_blocks_max_tokens or not out.system_blocks
        assert len({t.turn_id for t in out.recent_turns if t.turn_id}) <= cfg.recent_turns_max
        # diversity caps hold (a coverage swap respects them too)
        by_id = {d.id: d for d in evidence}
        for key in ("A", "B", "C"):
            same_doc = [e for e in out.evidence if by_id[e.id].document_id == key]
            assert len(same_doc) <= cfg.diversity.by_document, ctx
        for uri in ("https://x.test/a", "https://x.test/b"):
            assert sum(1 for e in out.evidence if e.source_uri == uri) <= cfg.diversity.by_source_uri, ctx
        # coverage holds whenever a covering item was retrieved and any evidence survived
        if any(d.covers_core for d in evidence) and out.evidence:
            assert any(by_id[e.id].covers_core for e in out.evidence), ctx
        # whatever was trimmed is named
        if tb.trimmed > 0:
            assert out.dropped or out.constraints.truncation, ctx
        for d in out.dropped:
            assert d["reason"].startswith(("budget:", "diversity:", "cap:", "coverage", "dedup")), d
            assert d["slot"] in SLOT_ORDER and "tokens" in d


@pytest.mark.parametrize("counter", [EstimateCounter(), CharCounter()], ids=["estimate", "chars"])
def test_budget_never_exceeded_over_random_inputs(counter: TokenCounter) -> None:
    run_random_trials(counter, 120, seed=42)


def test_budget_never_exceeded_with_a_real_tokenizer(tmp_path: Path) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(dict.fromkeys(EN_WORDS))}}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(str(tmp_path / "tokenizer.json"))
    # loaded from CompositionConfig.tokenizer when no counter is passed
    run_random_trials(None, 40, seed=7, tokenizer=str(tmp_path / "tokenizer.json"))
