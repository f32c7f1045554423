"""Slot composition under the token budget (seed §4.1–§4.5): pure, no database.

``compose_slots`` takes what the caller loaded and retrieved (system and developer blocks, the working
summary, the recent turns, evidence drafts, the user message) and returns the slots in their fixed
order, fitted to ``composition.token_limit``, with every cut named.

Steps, each recorded in ``dropped`` / ``constraints.truncation``:

1. Per-slot caps: ``system_blocks_max_tokens`` (whole blocks from the end, the last one that partly fits
   truncated), ``summary_max_tokens`` (truncated), ``recent_turns_max`` (the newest N rounds), long
   tool outputs in recent turns shortened with a marker (they belong in evidence), ``max_snippet_chars``.
2. Evidence selection: duplicates merged, diversity caps (``by_document``, ``by_source_uri``), the
   memory/resource ratio with ``evidence_max_items`` (``ratio_select``, adaptive when memory is
   stronger), then coverage (seed §4.3): one item covering the message's core entity or concept survives.
3. The total under ``token_limit``, trimming by seed §4.2's priority from the lowest up: long-tail
   (expansion-only) evidence, recent turns (oldest first), the working summary (truncated), top evidence
   (lowest score first, the coverage item last), developer blocks, system blocks. The user message is
   never trimmed; if it alone exceeds the limit, that is flagged in ``constraints.truncation``.

Tokens are counted on the rendered slots, exactly as ``ContextPackage.to_messages`` lays them out (the
evidence in its citable ``[E1] title — uri / snippet / (mode, score)`` form, the summary with its
heading), so ``used_estimate`` is what the model is sent, message by message. Chat-template tokens per
message (role markers) are the model's own and are not counted.

The slot types and their rendering are in ``compose.slots``; the working state that the rules below
change (slots, cached costs, the records of every cut) is ``compose.workspace.Workspace``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from graphbrain.compose.slots import (
    ComposedSlots,
    EvidenceDraft,
    blocks_text,
    evidence_text,
    summary_text,
)
from graphbrain.compose.tokens import TokenCounter, get_counter, truncate_to_tokens
from graphbrain.compose.workspace import EvidenceItem, Workspace
from graphbrain.config import CompositionConfig
from graphbrain.contracts import Block, ChatTurn, Constraints, TokenBudget, UserMessage
from graphbrain.retrieve.candidate import Candidate
from graphbrain.retrieve.diversity import apply_diversity, effective_memory_share, ratio_select
from graphbrain.retrieve.snippets import fit_chars

TRUNCATION_MARKER = "…"
# A tool result in the recent window longer than this is cut: the window carries the conversation,
# the full output is in the event store and reaches the prompt as evidence when it is relevant.
TOOL_OUTPUT_MAX_TOKENS = 200
TOOL_OUTPUT_MARKER = " … [tool output shortened; the full output is evidence, not history]"
# A truncated piece shorter than this says nothing useful: it is dropped instead of kept as a stub.
MIN_PARTIAL_TOKENS = 12
# Titles are for recognising a source, not for reading: a pathological one is clipped.
MAX_TITLE_CHARS = 200

# Global trimming order, lowest priority first (seed §4.2 read from the bottom).
TRIM_PHASES: tuple[str, ...] = (
    "long_tail_evidence",
    "recent_turns",
    "working_summary",
    "top_evidence",
    "developer_blocks",
    "system_blocks",
)


# ======================================================================================= helpers
def _fit(
    text: str, counter: TokenCounter, room: int, cost: Callable[[str], int], marker: str = TRUNCATION_MARKER
) -> str:
    """The longest truncation ``t`` of ``text`` with ``cost(t) <= room`` ("" when none says anything).

    ``cost`` is the cost of the whole slot with ``t`` in place, so separators and headings are paid
    for; it steps down by the overshoot until the slot fits (a tokenizer need not be additive).
    """
    if cost(text) <= room:
        return text
    allowed = room - cost("")
    while allowed >= MIN_PARTIAL_TOKENS:
        cut = truncate_to_tokens(text, counter, allowed, marker=marker)
        if not cut or counter.count(cut) < MIN_PARTIAL_TOKENS:
            return ""
        over = cost(cut) - room
        if over <= 0:
            return cut
        allowed -= over
    return ""


def _rounds(turns: Sequence[ChatTurn]) -> list[list[int]]:
    """Indexes of the turns grouped into rounds: consecutive messages sharing a ``turn_id`` form one
    round (user, assistant, tool …); a message without one is a round of its own. ``recent_turns_max``
    counts rounds ("8 轮"), and trimming never splits one."""
    groups: list[list[int]] = []
    last: str | None = None
    for i, t in enumerate(turns):
        if groups and t.turn_id is not None and t.turn_id == last:
            groups[-1].append(i)
        else:
            groups.append([i])
        last = t.turn_id
    return groups


def _candidate(d: EvidenceDraft) -> Candidate:
    """The retrieval Candidate view of a draft, for the shared diversity and ratio functions."""
    return Candidate(
        id=d.id,
        side="memory" if d.source == "memory" else "resource",
        text=d.snippet,
        mode=d.mode,
        query_index=0,
        query_text="",
        score=d.score,
        source_uri=d.source_uri,
        document_id=d.document_id,
    )


# Reasons from the shared retrieval functions, renamed to composition's vocabulary.
_REASON_MAP: dict[str, str] = {
    "diversity:by_source": "diversity:by_source_uri",
    "budget:max_items": "cap:evidence_max_items",
}


class _Composer(Workspace):
    """The rules of one composition (caps, evidence selection, trimming) applied to its working state."""

    # ------------------------------------------------------------------------------- step 1: caps
    def cap_blocks(self, blocks: Sequence[Block], cap: int | None, slot: str) -> list[Block]:
        """Blocks in order while they fit ``cap``; the first that does not is truncated to the rest of
        the room (or dropped when too little is left), the ones after it dropped."""
        kept: list[Block] = []
        full = False
        for i, b in enumerate(blocks):
            tokens = self.counter.count(b.text)
            if not b.text.strip():
                continue
            if cap is None or (not full and self.counter.count(blocks_text([*kept, b])) <= cap):
                kept.append(b)
                continue
            if not full:
                full = True
                cut = _fit(b.text, self.counter, cap, self._blocks_cost(list(kept), b))
                if cut:
                    kept.append(b.model_copy(update={"text": cut}))
                    self.truncated(slot, f"budget:{slot}", tokens, self.counter.count(cut), index=i, type=b.type)
                    continue
            self.drop(slot, f"budget:{slot}", tokens, index=i, type=b.type)
        return kept

    def _blocks_cost(self, base: list[Block], last: Block) -> Callable[[str], int]:
        """The cost of ``base`` plus ``last`` with its text replaced (``last`` left out when "")."""

        def cost(text: str) -> int:
            shown = [*base, last.model_copy(update={"text": text})] if text else base
            return self.counter.count(blocks_text(shown))

        return cost

    def cap_summary(self, summary: str) -> str:
        summary = summary.strip()
        before = self.counter.count(summary)
        if not summary or before <= self.cfg.summary_max_tokens:
            return summary
        cut = _fit(summary, self.counter, self.cfg.summary_max_tokens, self.counter.count)
        if cut:
            self.truncated("working_summary", "budget:working_summary", before, self.counter.count(cut))
        else:
            self.drop("working_summary", "budget:working_summary", before)
        return cut

    def cap_turns(self, turns: Sequence[ChatTurn]) -> list[tuple[int, ChatTurn]]:
        rounds = _rounds(turns)
        keep_from = max(0, len(rounds) - self.cfg.recent_turns_max)
        out: list[tuple[int, ChatTurn]] = []
        for r, group in enumerate(rounds):
            for i in group:
                t = turns[i]
                if r < keep_from:
                    self.drop_turn(i, t, "cap:recent_turns_max")
                    continue
                out.append((i, self._shorten_tool(i, t)))
        return out

    def _shorten_tool(self, i: int, t: ChatTurn) -> ChatTurn:
        if t.role != "tool":
            return t
        before = self.counter.count(t.content)
        if before <= TOOL_OUTPUT_MAX_TOKENS:
            return t
        cut = truncate_to_tokens(t.content, self.counter, TOOL_OUTPUT_MAX_TOKENS, marker=TOOL_OUTPUT_MARKER)
        self.truncated("recent_turns", "cap:tool_output", before, self.counter.count(cut), index=i, turn_id=t.turn_id)
        return t.model_copy(update={"content": cut})

    # ------------------------------------------------------------------------------- step 2: evidence
    def select_evidence(self, drafts: Sequence[EvidenceDraft], adaptive: bool) -> None:
        cfg = self.cfg
        pool: list[EvidenceItem] = []
        seen: dict[str, EvidenceItem] = {}
        for n, d in enumerate(drafts):
            if d.title and len(d.title) > MAX_TITLE_CHARS:
                d = replace(d, title=fit_chars(d.title, MAX_TITLE_CHARS))  # a copy: the caller's draft stays
            snippet = fit_chars(d.snippet, cfg.max_snippet_chars)
            if len(snippet) < len(d.snippet.strip()):
                self.truncation.append(
                    {
                        "slot": "evidence",
                        "id": d.id,
                        "reason": "cap:max_snippet_chars",
                        "from_chars": len(d.snippet),
                        "to_chars": len(snippet),
                    }
                )
            e = EvidenceItem(d, snippet, n)
            prior = seen.get(d.id)
            if prior is not None:  # the same item twice: keep the better score (seed §3.4)
                worse = e if e.draft.score <= prior.draft.score else prior
                self.drop("evidence", "dedup", self._item_tokens(worse), id=d.id)
                if worse is prior:
                    pool = [e if x is prior else x for x in pool]
                    seen[d.id] = e
                continue
            seen[d.id] = e
            pool.append(e)
        pool.sort(key=lambda e: (-e.draft.score, e.order))
        cands = [_candidate(e.draft) for e in pool]
        by_id = {e.draft.id: e for e in pool}  # ids are unique after the merge above

        kept, dropped = apply_diversity(
            cands, by_document=cfg.diversity.by_document, by_source=cfg.diversity.by_source_uri
        )
        memory = [c for c in kept if c.side == "memory"]
        resource = [c for c in kept if c.side != "memory"]
        self.share = effective_memory_share(memory, resource, cfg.diversity.memory_share, adaptive)
        chosen, ratio_dropped = ratio_select(
            memory, resource, cfg.evidence_max_items, cfg.diversity.memory_share, adaptive
        )
        for item in [*dropped, *ratio_dropped]:
            e = by_id[item["id"]]
            reason = _REASON_MAP.get(item["reason"], item["reason"])
            self.drop("evidence", reason, self._item_tokens(e), id=e.draft.id, rule=item["rule"])
        selected = [by_id[c.id] for c in chosen]
        selected.sort(key=lambda e: (-e.draft.score, e.order))
        self.evidence = self._ensure_coverage(selected, pool)

    def _caps_hold(self, items: Sequence[EvidenceItem]) -> bool:
        docs: dict[str, int] = {}
        uris: dict[str, int] = {}
        for e in items:
            if e.draft.document_id:
                docs[e.draft.document_id] = docs.get(e.draft.document_id, 0) + 1
            if e.draft.source_uri:
                uris[e.draft.source_uri] = uris.get(e.draft.source_uri, 0) + 1
        div = self.cfg.diversity
        return all(v <= div.by_document for v in docs.values()) and all(v <= div.by_source_uri for v in uris.values())

    def _ensure_coverage(self, selected: list[EvidenceItem], pool: Sequence[EvidenceItem]) -> list[EvidenceItem]:
        """Seed §4.3: when any retrieved item covers the core entity/concept, one such item is selected.

        The best covering item not selected is added when there is room and the diversity caps allow it;
        otherwise it is swapped in for the lowest-scoring non-covering one (the same side first, so the
        ratio moves as little as possible) such that the caps still hold. The item swapped out is
        recorded with the reason "coverage".
        """
        covering = [e for e in selected if e.draft.covers_core]
        if covering:
            self.protected = covering[0]
            return selected
        outside = [e for e in pool if e.draft.covers_core and all(e is not s for s in selected)]
        if not outside or self.cfg.evidence_max_items <= 0:
            return selected
        if len(selected) < self.cfg.evidence_max_items:  # room left: add it when the caps allow
            for cand in outside:
                if self._caps_hold([*selected, cand]):
                    cand.reason = "coverage"
                    self._undrop(cand)
                    self.protected = cand
                    return sorted([*selected, cand], key=lambda e: (-e.draft.score, e.order))
        for cand in outside:
            victims = sorted(
                (e for e in selected if not e.draft.covers_core),
                key=lambda e: (e.draft.source != cand.draft.source, e.draft.score, -e.order),
            )
            for victim in victims:
                trial = [e for e in selected if e is not victim] + [cand]
                if self._caps_hold(trial):
                    cand.reason = "coverage"
                    self._undrop(cand)
                    self.drop(
                        "evidence",
                        "coverage",
                        self._item_tokens(victim),
                        id=victim.draft.id,
                        for_id=cand.draft.id,
                    )
                    self.protected = cand
                    trial.sort(key=lambda e: (-e.draft.score, e.order))
                    return trial
        self.warnings.append("coverage: no covering evidence fits the diversity caps")
        return selected

    def _undrop(self, e: EvidenceItem) -> None:
        self.dropped = [d for d in self.dropped if not (d["slot"] == "evidence" and d.get("id") == e.draft.id)]

    # ------------------------------------------------------------------------------- step 3: the limit
    def fit_limit(self) -> None:
        trims: dict[str, Callable[[], None]] = {
            "long_tail_evidence": self._trim_long_tail_evidence,
            "recent_turns": self._trim_recent_turns,
            "working_summary": self._trim_working_summary,
            "top_evidence": self._trim_top_evidence,
            "developer_blocks": lambda: self._trim_blocks("developer", "developer_blocks"),
            "system_blocks": lambda: self._trim_blocks("system", "system_blocks"),
        }
        for phase in TRIM_PHASES:
            if not self.over():
                return
            trims[phase]()

    def _drop_evidence(self, e: EvidenceItem, phase: str) -> None:
        self.evidence = [x for x in self.evidence if x is not e]
        self.drop("evidence", "budget:token_limit", self._item_tokens(e), id=e.draft.id, phase=phase)

    def _trim_long_tail_evidence(self) -> None:
        tail = [e for e in self.evidence if e.draft.expansion_only and e is not self.protected]
        for e in sorted(tail, key=lambda e: (e.draft.score, -e.order)):
            if not self.over():
                return
            self._drop_evidence(e, "long_tail_evidence")

    def _trim_recent_turns(self) -> None:
        # Oldest round first; a round (user + assistant + tools) goes as a whole.
        while self.turns and self.over():
            size = len(_rounds([t for _, t in self.turns])[0])
            for i, t in self.turns[:size]:
                self.drop_turn(i, t, "budget:token_limit", phase="recent_turns")
            self.turns = self.turns[size:]

    def _trim_working_summary(self) -> None:
        if not self.summary:
            return
        before = self.counter.count(self.summary)
        room = self.room_for("working_summary")
        cut = _fit(self.summary, self.counter, room, lambda t: self.counter.count(summary_text(t)))
        if cut:
            self.truncated("working_summary", "budget:token_limit", before, self.counter.count(cut))
        else:
            self.drop("working_summary", "budget:token_limit", before, phase="working_summary")
        self.summary = cut

    def _trim_top_evidence(self) -> None:
        rest = [e for e in self.evidence if e is not self.protected]
        for e in sorted(rest, key=lambda e: (e.draft.score, -e.order)):
            if not self.over():
                return
            self._drop_evidence(e, "top_evidence")
        last = self.protected
        if last is None or not self.over() or all(x is not last for x in self.evidence):
            return
        # The coverage item is the last evidence: shorten its snippet before giving it up.
        room = self.room_for("evidence")
        before = self._item_tokens(last)
        draft, order = last.draft, last.order

        def cost(snippet: str) -> int:
            return self._evidence_cost([EvidenceItem(draft, snippet, order)])

        cut = _fit(last.snippet, self.counter, room, cost)
        if cut:
            last.snippet = cut
            self.evidence = list(self.evidence)  # the snippet changed: recount the slot
            self.truncated("evidence", "budget:token_limit", before, self._item_tokens(last), id=draft.id)
        else:
            self._drop_evidence(last, "top_evidence")
            self.warnings.append(f"coverage: {draft.id} dropped, the budget has no room for any evidence")

    def _trim_blocks(self, attr: str, slot: str) -> None:
        blocks: list[Block] = getattr(self, attr)
        while blocks and self.over():
            last = blocks[-1]
            base = blocks[:-1]
            room = self.room_for(slot)
            tokens = self.counter.count(last.text)
            cut = _fit(last.text, self.counter, room, self._blocks_cost(base, last))
            if cut and cut != last.text:
                blocks = [*base, last.model_copy(update={"text": cut})]
                self.truncated(
                    slot,
                    "budget:token_limit",
                    tokens,
                    self.counter.count(cut),
                    index=len(base),
                    type=last.type,
                )
            else:
                blocks = base
                self.drop(slot, "budget:token_limit", tokens, index=len(base), type=last.type, phase=slot)
            setattr(self, attr, blocks)


# ========================================================================================= entry
def compose_slots(
    *,
    system_blocks: Sequence[Block] = (),
    developer_blocks: Sequence[Block] = (),
    working_summary: str = "",
    recent_turns: Sequence[ChatTurn] = (),
    evidence: Sequence[EvidenceDraft] = (),
    user_message: str,
    cfg: CompositionConfig | None = None,
    counter: TokenCounter | None = None,
    adaptive_ratio: bool = True,
) -> ComposedSlots:
    """Fit the slots to ``cfg.token_limit`` (see the module docstring for the rules and their order).

    ``system_blocks`` come ordered by importance (core_profile, preferences, goals, tasks, decisions):
    cuts start at the end. ``recent_turns`` are oldest first. ``evidence`` drafts come fused and
    reranked (comparable scores across memory and resource). ``counter`` defaults to
    ``get_counter(cfg.tokenizer)``. The result never exceeds ``token_limit`` unless the user message
    alone does (``over_limit``, flagged in ``constraints.truncation``).
    """
    cfg = cfg or CompositionConfig()
    counter = counter or get_counter(cfg.tokenizer)
    c = _Composer(cfg, counter)
    c.user = user_message

    # What the input would cost as given: the "trimmed" figure is measured against it.
    input_total = (
        counter.count(blocks_text(system_blocks))
        + counter.count(blocks_text(developer_blocks))
        + counter.count(summary_text(working_summary.strip()))
        + sum(counter.count(t.content) for t in recent_turns)
        + counter.count(evidence_text([d.to_context(f"E{i + 1}") for i, d in enumerate(evidence)]))
        + counter.count(user_message)
    )

    c.system = c.cap_blocks(system_blocks, cfg.system_blocks_max_tokens, "system_blocks")
    c.developer = c.cap_blocks(developer_blocks, None, "developer_blocks")
    c.summary = c.cap_summary(working_summary)
    c.turns = c.cap_turns(recent_turns)
    c.select_evidence(evidence, adaptive_ratio)
    c.fit_limit()

    by_slot = c.costs()
    used = sum(by_slot.values())
    over_limit = used > cfg.token_limit
    if over_limit:
        c.truncation.append(
            {
                "slot": "user_message",
                "reason": "user_message_exceeds_limit",
                "tokens": by_slot["user_message"],
                "limit": cfg.token_limit,
                "note": "the user message is never trimmed; every other slot was emptied",
            }
        )
        c.warnings.append(
            f"the user message alone ({by_slot['user_message']} tokens) exceeds token_limit ({cfg.token_limit})"
        )

    labelled = c._labelled(c.evidence)
    memory_n = sum(1 for e in labelled if e.source == "memory")
    diversity = {
        "by_document": cfg.diversity.by_document,
        "by_source_uri": cfg.diversity.by_source_uri,
        "memory_resource_ratio": cfg.diversity.memory_resource_ratio,
        "memory_share_effective": round(c.share, 3),
        "adaptive": adaptive_ratio,
        "selected": {"memory": memory_n, "resource": len(labelled) - memory_n},
    }
    why = [
        {
            "id": e.draft.id,
            "label": f"E{i + 1}",
            "source": e.draft.source,
            "score": e.draft.score,
            "reason": e.reason,
            "covers_core": e.draft.covers_core,
            "expansion_only": e.draft.expansion_only,
        }
        for i, e in enumerate(c.evidence)
    ]
    constraints = Constraints(
        token_budget=TokenBudget(
            limit=cfg.token_limit,
            used_estimate=used,
            by_slot=by_slot,
            trimmed=max(0, input_total - used),
            counter=counter.name,
        ),
        diversity=diversity,
        truncation=c.truncation,
    )
    return ComposedSlots(
        system_blocks=c.system,
        developer_blocks=c.developer,
        working_summary=c.summary,
        recent_turns=[t for _, t in c.turns],
        evidence=labelled,
        user_message=UserMessage(content=user_message),
        constraints=constraints,
        dropped=c.dropped,
        why_selected=why,
        warnings=c.warnings,
        over_limit=over_limit,
    )


__all__ = [
    "TOOL_OUTPUT_MAX_TOKENS",
    "TRIM_PHASES",
    "compose_slots",
]
