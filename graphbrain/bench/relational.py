"""Multi-hop recall on hand-written conversations: the answer two or three hops away from the question.

    report = run_relational(brain, ["tests/relational/data/en_platform.yaml", ...])
    print(format_relational(report))

Each file (format: ``tests/relational/README.md``) is one conversation: sessions of turns (speaker, role,
text), and questions whose ``evidence`` lists the turns of the chain, the last one holding the answer.
Every turn goes through ``commit_turn`` (one message, ``name`` = the speaker) into a namespace of its own;
every question through ``compose_context`` on a session of its own, asked the day after the last session.
The evidence items map to turns by ``ref.turn_id`` (a memory item: its source turn). Per question:
recall@k of the chain's turns, whether the answer turn is in the first k, its explanation path, and the
filler turns (``filler: true`` in the data) that took an evidence slot.
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from graphbrain.brain import Brain

DEFAULT_K = 10


@dataclass(frozen=True)
class Conversation:
    path: str
    language: str
    sessions: list[dict[str, Any]]
    questions: list[dict[str, Any]]

    @property
    def filler(self) -> set[str]:
        return {t["id"] for s in self.sessions for t in s["turns"] if t.get("filler")}

    @property
    def asked_at(self) -> datetime:
        return max(_at(s["at"]) for s in self.sessions) + timedelta(days=1)

    def namespace(self, prefix: str) -> str:
        digest = hashlib.sha256(Path(self.path).read_bytes()).hexdigest()[:8]
        return f"{prefix}-{Path(self.path).stem.replace('_', '-')}-{digest}"


def _at(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value).replace("Z", "+00:00"))


def load(path: str | Path) -> Conversation:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    return Conversation(str(path), data["language"], data["sessions"], data["questions"])


@dataclass
class QuestionResult:
    id: str
    language: str
    hops: int
    recall: float
    answer_found: bool
    answer_path: list[str] | None
    filler_in_evidence: list[str]
    ranked: list[str | None] = field(default_factory=list)


def commit(brain: Brain, conv: Conversation, namespace: str) -> None:
    """Every turn of the conversation through commit_turn, in order."""
    for session in conv.sessions:
        at = _at(session["at"])
        for i, turn in enumerate(session["turns"]):
            message: dict[str, Any] = {
                "message_id": turn["id"],
                "role": turn.get("role", "user"),
                "content": turn["text"],
            }
            if turn.get("speaker"):
                message["name"] = turn["speaker"]
            brain.commit_turn(
                session["session_id"],
                {"turn_id": turn["id"], "at": at + timedelta(minutes=i), "namespace": namespace, "messages": [message]},
            )


def ask(brain: Brain, conv: Conversation, namespace: str, k: int = DEFAULT_K) -> list[QuestionResult]:
    """Every question through compose_context; scored as the module docstring says."""
    from graphbrain.bench.scoring import recall_at_k

    turns = {t["id"] for s in conv.sessions for t in s["turns"]}
    out = []
    for q in conv.questions:
        package = brain.compose_context(f"questions-{namespace}", q["q"], namespace=namespace, now=conv.asked_at)
        ranked: list[str | None] = []
        paths: dict[str, list[str] | None] = {}
        for ev in package.evidence:
            tid = ev.ref.turn_id if ev.ref.turn_id in turns else None
            ranked.append(tid)
            if tid is not None and tid not in paths:
                paths[tid] = ev.provenance.path
        answer = q["evidence"][-1]
        out.append(
            QuestionResult(
                id=q.get("id", q["q"]),
                language=conv.language,
                hops=int(q["hops"]),
                recall=recall_at_k(ranked, q["evidence"], k) or 0.0,
                answer_found=answer in ranked[:k],
                answer_path=paths.get(answer),
                filler_in_evidence=sorted({t for t in ranked if t in conv.filler}),
                ranked=ranked,
            )
        )
    return out


def run_relational(
    brain: Brain, paths: Sequence[str | Path], *, prefix: str = "rel", k: int = DEFAULT_K
) -> dict[str, Any]:
    """Commit and ask every conversation in ``paths`` (namespaces deleted before and after)."""
    from graphbrain.bench.harness import delete_namespace

    results: list[QuestionResult] = []
    timings: dict[str, float] = {}
    for path in paths:
        conv = load(path)
        ns = conv.namespace(prefix)
        delete_namespace(brain.store, ns)
        t0 = time.perf_counter()
        commit(brain, conv, ns)
        timings[f"{Path(path).stem}:commit_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        results += ask(brain, conv, ns, k)
        timings[f"{Path(path).stem}:ask_s"] = round(time.perf_counter() - t0, 2)
        delete_namespace(brain.store, ns)
    by_lang: dict[str, dict[str, Any]] = {}
    for lang in sorted({r.language for r in results}):
        rs = [r for r in results if r.language == lang]
        by_lang[lang] = {
            "questions": len(rs),
            f"recall@{k}": round(statistics.mean(r.recall for r in rs), 3),
            "answer_found": round(statistics.mean(1.0 if r.answer_found else 0.0 for r in rs), 3),
            "answers_with_a_path": sum(1 for r in rs if r.answer_found and r.answer_path),
            "filler_in_evidence": sum(len(r.filler_in_evidence) for r in rs),
        }
    return {"k": k, "by_language": by_lang, "questions": [vars(r) for r in results], "timings": timings}


def format_relational(report: dict[str, Any]) -> str:
    k = report["k"]
    head = f"{'language':<9} {'questions':>9} {f'recall@{k}':>10} {'answer in top k':>16} {'with a path':>12}"
    lines = [f"{head} {'filler':>7}"]
    for lang, row in report["by_language"].items():
        lines.append(
            f"{lang:<9} {row['questions']:>9} {row[f'recall@{k}']:>10.3f} {row['answer_found']:>16.3f} "
            f"{row['answers_with_a_path']:>12} {row['filler_in_evidence']:>7}"
        )
    for q in report["questions"]:
        if q["recall"] < 1.0 or q["filler_in_evidence"]:
            lines.append(
                f"  {q['id']}: recall {q['recall']:.2f} answer {'yes' if q['answer_found'] else 'no'} "
                f"filler {q['filler_in_evidence']} ranked {q['ranked'][:k]}"
            )
    return "\n".join(lines)
